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
CONTAINER = "container"  # a Python list of settings or storage cells (MXNet's req, PyTensor's output_storage)
FLAG = "flag"  # a host bool or setting (MXNet's is_train)


@dataclass(frozen=True)
class ClassConvention:
    """Subclasses of ``bases`` hold AD rules in the methods named here."""

    bases: tuple[str, ...]  # dotted names; matched on the resolved base or its last components
    rule_methods: tuple[str, ...] = ()
    rule_method_prefixes: tuple[str, ...] = ()  # thinc's Ops.backprop_*: ``backprop_f`` makes ``f`` a forward
    forward_methods: tuple[str, ...] = ()  # run on the device too; their results feed the rule
    params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # method -> roles after self
    # Only classes that define one of ``rule_methods`` themselves (or through an ancestor of the
    # tree) hold rules: every MindSpore ``Cell`` has a ``construct``, few have a ``bprop``.
    needs_rule_method: bool = False
    # Methods that calling an instance runs, for subclasses that hold no rule themselves:
    # PyTensor's ``Op.__call__`` builds a graph node whose ``perform`` computes it, so an op a
    # rule's ``grad`` builds and calls (``EvalRhs(solver)(params, t)``) runs its ``perform`` in
    # the backward pass, with the roles ``params`` gives it.
    call_methods: tuple[str, ...] = ()
    # Methods whose array inputs the class declares in a class attribute, by position:
    # PyTensor's ``itypes = [pt.dvector, pt.dmatrix]`` types the arrays ``perform(node, inputs,
    # output_storage)`` receives in ``inputs`` -> {"perform": ("itypes", 1)}: the attribute and
    # which positional parameter after ``self`` holds the arrays.
    declared_inputs: dict[str, tuple[str, int]] = field(default_factory=dict)
    # The rank each declared type names, by the type's name without its one-letter dtype prefix
    # (``dvector`` -> ``vector`` -> 1).
    type_ranks: dict[str, int] = field(default_factory=dict)


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
    # Decorators whose function is a rule, closures included (``@tf.custom_gradient``,
    # ``@ops.RegisterGradient("Op")``, ``@bprop_getters.register(P.Op)``): matched on the
    # decorator's dotted name (the called function for ``@d(...)``) by its last components.
    rule_decorators: frozenset[str] = frozenset()
    array_modules: tuple[str, ...] = ()  # names that hold the framework's array namespace (``tf``, ``paddle``)
    saved_methods: frozenset[str] = frozenset()  # ``ctx.saved_tensor()``: the arrays a forward saved
    host_methods: frozenset[str] = frozenset()  # ``x.asnumpy()``, ``x.numpy()``: a whole array to the host
    element_methods: frozenset[str] = frozenset()  # ``x.asscalar()``, ``x.item()``: one element to the host
    host_functions: frozenset[str] = frozenset()  # ``jax.device_get(x)``, ``asnumpy(x)``: to the host
    host_callbacks: frozenset[str] = frozenset()  # ``jax.pure_callback(f, ...)``: runs Python on host copies
    # Context managers under which a function defines an op whose gradient a registered rule
    # replaces (TF1's ``with graph.gradient_override_map({"PyFunc": name}):``): the function
    # holding the block is the forward of that rule, matched on the call's last name.
    rule_contexts: frozenset[str] = frozenset()
    # Layer and model bases (``torch.nn.Module``): a ``backward(loss)`` on one of these runs the
    # engine, it is no rule, so structural discovery never looks at their subclasses.
    layer_bases: tuple[str, ...] = ()
    # The framework's indexing reads an integer 0-d array used as an index back to the host
    # (torch's C++ indexing calls ``.item()`` on it), so ``x[:, i]`` with ``i`` one element of
    # a device array waits for the device; in JAX or CuPy the same index is a gather.
    index_reads_scalar_arrays: bool = False
    # ``jnp.array(x)``/``jnp.asarray(x)`` put what they convert on the default device, so their
    # result is device data even from a host copy; torch's ``tensor``/``as_tensor`` make a CPU
    # tensor unless told otherwise, and NumPy-like generic namespaces may be NumPy itself.
    converts_onto_device: bool = False
    # NumPy-like namespaces by import path, with the name code conventionally binds each to
    # (``{"jax.numpy": "jnp"}``): the fixers write ``xp.where``-style calls into an import of one
    # of these, and both names are array-module names of the default configuration.
    numpy_like_imports: dict[str, str] = field(default_factory=dict)
