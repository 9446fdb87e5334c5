"""What the first pass keeps of a module (``ModuleIndex``: its functions, classes, imports), in
a module of its own: the index builder (``index``) fills it, the project reach (``project``),
the cache and the incremental re-check read it. Small and picklable on purpose."""

from __future__ import annotations

from dataclasses import dataclass, field

# The reasons an entry gives for being a rule that other modules test for.
REGISTERED_REASON = "passed to defvjp"  # a registration (defvjp & co) says what its parameters hold
FORWARD_REASON = "(forward)"  # a reason ending so marks a forward: it runs on the rule's inputs


@dataclass
class FunctionEntry:
    key: str
    name: str
    line: int
    parent: str | None
    is_rule: bool = False
    reason: str = ""
    class_name: str | None = None
    calls: list[tuple[str, ...]] = field(default_factory=list)
    param_roles: tuple[str, ...] = ()  # what the positional parameters hold (frameworks.base roles)
    instances: dict[str, tuple[str, ...]] = field(default_factory=dict)  # w = Solver(...): "w" -> ("Solver",)
    returns_array: bool = False  # every ``return`` hands back an array module's result (``return jnp.asarray(y)``)
    return_parts: tuple[str, ...] = ()  # ``return (c, a, bsol)``: what each part holds (array_returns' words)
    keyword_params: tuple[str, ...] = ()  # the parameters a call may name (``def step(self, f, x, k1=None)``)
    # receiver.method -> the keywords its calls here name: ``solver.step(f, x, k1=k1)`` -> ("k1",)
    call_keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    host_callback: bool = False  # handed to jax.pure_callback & co: it runs on host copies
    passed: list[str] = field(default_factory=list)  # names handed to a call (map(helper, xs), super(Cls, self))
    # local names bound to a function (``mask_ = _njit_mask if fast else _mask``): what nested
    # functions calling ``mask_(...)`` run
    aliases: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    # local names bound to an entry of a module-level table (``op = operators[name]``): "op" -> "operators"
    picked: dict[str, str] = field(default_factory=dict)


@dataclass
class ClassEntry:
    """A class of the module: its bases as dotted names resolved through the module's imports
    (or ``module.Class`` for classes of the same module), and the names of its methods."""

    bases: list[str] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)
    instances: dict[str, tuple[str, ...]] = field(default_factory=dict)  # self.solver = Solver(...)
    # what calling an instance runs where no ``__call__`` of the tree says (a framework's
    # ``ClassConvention.call_methods``): ``EvalRhs(solver)(x)`` of a PyTensor Op runs ``perform``
    call_methods: list[str] = field(default_factory=list)


@dataclass
class ModuleIndex:
    """What the first pass learns about one module; small and picklable."""

    path: str
    module: str
    package: str
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target
    functions: dict[str, FunctionEntry] = field(default_factory=dict)
    top_level: dict[str, str] = field(default_factory=dict)  # public name -> function key
    classes: dict[str, ClassEntry] = field(default_factory=dict)
    # Functions handed over under a keyword anywhere in the module (``Ops(boundary=_endpoint_term)``):
    # keyword -> the local names passed, so that ``ops.boundary(...)`` in a rule can reach them.
    keyword_functions: dict[str, list[str]] = field(default_factory=dict)
    # ``from .grad_fn import *``: modules whose public names this one sees, searched in order
    # after its own names and imports when a call names no other function.
    star_imports: list[str] = field(default_factory=list)
    # module-level tables of the module's classes (``operators = {"softmax": SoftMaxOp, ...}``):
    # a name picked from one (``op = operators[name]``) is one of them, so ``op.max(x)`` runs
    # one of their ``max`` methods
    registries: dict[str, list[str]] = field(default_factory=dict)

    def rule_keys(self) -> list[str]:
        return [k for k, f in self.functions.items() if f.is_rule]


def lambda_key(ordinal: int) -> str:
    """Lambdas are numbered in source order. ast sorts them by (line, column) and libcst meets
    them in the same order walking the tree (its children are in source order), so both
    passes agree without the libcst pass paying for positions."""
    return f"<lambda>#{ordinal}"


def lambda_ordinals(positions: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    return {position: ordinal for ordinal, position in enumerate(sorted(positions))}
