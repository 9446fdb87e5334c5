"""What a framework's conventions look like to the checker: which functions are AD rules, and
what their parameters hold.

One module per framework keeps its knowledge in one place (the way astroid keeps one "brain"
per library); adding a framework is adding a module and listing it in ``__init__``. Nothing
here knows about libcst or the inference: the index, the project and the parameter rules read
these plain records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Roles of a rule's positional parameters, as the parameter rules understand them.
ARRAY = "array"  # a device array (a cotangent, an input)
ARRAYS = "arrays"  # a tuple of device arrays (chainer's inputs and grad_outputs)
INDEXES = "indexes"  # a tuple of host ints (chainer's target_input_indexes)
INT = "int"  # a host int (MyGrad's index)
OBJECT = "object"  # ctx, self: never an array
STAR_ARRAYS = "*arrays"  # *grad_outputs: each element a device array


@dataclass(frozen=True)
class ClassConvention:
    """Subclasses of ``bases`` hold AD rules in the methods named here."""

    bases: tuple[str, ...]  # dotted names; matched on the resolved base or its last components
    rule_methods: tuple[str, ...] = ()
    rule_method_prefixes: tuple[str, ...] = ()  # thinc's Ops.backprop_*: ``backprop_f`` makes ``f`` a forward
    forward_methods: tuple[str, ...] = ()  # run on the device too; their results feed the rule
    params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # method -> roles after self


@dataclass(frozen=True)
class Framework:
    name: str
    classes: tuple[ClassConvention, ...] = ()
    registrations: frozenset[str] = frozenset()  # defvjp(prim, maker, ...): makers are rules
    registration_methods: frozenset[str] = frozenset()  # f.defvjp(fwd, bwd), @f.defjvp
    returns_closure_rules: bool = False  # forward(...) -> (Y, backprop): both are rules
    function_bases: bool = False  # a project's own base with forward and backward methods
    receivers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # ``x.ops.f()`` -> methods of these classes
    constructors: dict[str, int | None] = field(default_factory=dict)  # ``ops.alloc2f(...)``: a new array of rank 2
