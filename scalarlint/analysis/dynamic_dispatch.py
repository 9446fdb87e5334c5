"""Method calls through a receiver nobody can type: ``self.act_fn.grad(Z)`` where ``act_fn`` is
built by a factory, ``ctx.solver.integrate(ys)``, ``self.cell.backward(dy)``, ``solver.setup(ts)``
with ``solver = cls(...)`` and ``cls`` a parameter, ``ops.boundary(...)`` where ``ops`` holds the
functions a caller passed as ``boundary=_endpoint_term``. Python dispatches on the object at run
time; the checker answers with every method of that name defined in a class of the caller's own
package, and every function of that package handed over under that keyword, when there are few
of them and the name is not one every container, array or layer has."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from scalarlint.analysis.index import ModuleIndex

if TYPE_CHECKING:
    from scalarlint.analysis.discovery import ClassTable

Resolver = Callable[[str], "tuple[ModuleIndex, str] | None"]

RECEIVER_OWNERS = frozenset({"self", "ctx", "cls"})  # self.act_fn.grad(...), ctx.solver.integrate(...)
MAX_CANDIDATES = 16  # beyond this a method name says nothing about the object
MAX_LOCAL_CANDIDATES = 4  # a local receiver may be an array: only a rare name points at the tree's code
# The common names that arrays and containers answer to: no keyword makes them the tree's code
# (``x.sum(dim=1)`` is a tensor's sum even where the tree defines one).
CONTAINER_METHODS = frozenset({
    "append", "extend", "insert", "pop", "get", "set", "update", "items", "keys", "values", "copy", "clear", "add",
    "remove", "reshape", "view", "sum", "mean", "max", "min", "to", "cpu", "cuda", "numpy", "item", "join", "split",
    "format", "flatten", "transpose", "astype", "tolist", "detach", "clone", "zero_",
})
# Protocols every layer, optimizer, file or logger has: the name alone says nothing about the
# object, the keywords of a call may (``solver.step(f, x, k1=k1)``).
PROTOCOL_METHODS = frozenset({
    "apply", "forward", "__call__", "__init__", "call", "run", "step", "reset", "build", "compile", "read", "write",
    "close", "open", "send", "recv", "wait", "save", "load", "register", "save_for_backward", "mark_dirty",
    "mark_non_differentiable", "set_materialize_grads", "log", "info", "warning", "debug", "error",
})
COMMON_METHODS = CONTAINER_METHODS | PROTOCOL_METHODS  # too common to mean one protocol by name alone
# What arrays, strings and dicts answer to: a local receiver calling one of these is most likely
# one of them (``v.dot(w)``, ``x.mm(y)``, ``name.startswith("_")``), not an object of the tree.
VALUE_METHODS = frozenset({
    "dot", "fill", "fill_", "mm", "mv", "bmm", "matmul", "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_",
    "exp", "log", "abs", "sqrt", "pow", "norm", "t", "permute", "expand", "expand_as", "repeat", "squeeze",
    "unsqueeze", "index_select", "gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "index_add",
    "index_add_", "index_put_", "masked_fill", "masked_fill_", "masked_scatter", "masked_select", "contiguous",
    "type", "type_as", "float", "double", "int", "long", "half", "bool", "all", "any", "argmax", "argmin", "sort",
    "argsort", "cumsum", "cumprod", "prod", "std", "var", "clamp", "clamp_", "clip", "round", "floor", "ceil",
    "sign", "size", "dim", "numel", "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor", "view_as",
    "reshape_as", "nonzero", "take", "put", "diag", "diagonal", "trace", "conj", "real", "imag", "backward",
    "requires_grad_", "register_hook", "chunk", "unbind", "narrow", "flip", "roll", "where", "eq", "ne", "lt",
    "gt", "le", "ge", "at", "multiply", "divide", "sin", "cos", "tanh", "sigmoid", "relu", "softmax",
    "log_softmax", "outer", "inner", "kron", "inverse", "inv", "det", "svd", "qr", "cholesky", "eig",
    "eigh", "lstsq", "swapaxes", "moveaxis", "ravel", "squeeze_", "unsqueeze_", "resize_", "copy_", "asnumpy",
    "asscalar", "as_in_context", "as_nd_ndarray", "get_shape", "set_shape", "assign", "assign_add", "value",
    "startswith", "endswith", "lower", "upper", "strip", "replace", "encode", "decode", "setdefault", "count",
    "index", "find", "match", "search", "fit", "predict", "transform", "sample", "shape", "tree_flatten",
})


class MethodTable:
    """Methods of the checked tree's classes by name, and the functions handed over under a
    keyword, with the top-level package they live in."""

    def __init__(self, indexes: list[ModuleIndex], resolve_dotted: Resolver, classes: "Callable[[], ClassTable]") -> None:
        self.classes = classes
        self.methods: dict[str, list[tuple[ModuleIndex, str]]] = {}
        self.handed: dict[str, list[tuple[ModuleIndex, str]]] = {}
        for index in indexes:
            for key, entry in index.functions.items():
                if entry.class_name and entry.parent is None:
                    self.methods.setdefault(entry.name, []).append((index, key))
            for keyword, names in index.keyword_functions.items():
                for name in dict.fromkeys(names):
                    found = (index, index.top_level[name]) if name in index.top_level else resolve_dotted(index.imports.get(name, ""))
                    if found is not None and found[0].functions[found[1]].class_name is None:
                        self.handed.setdefault(keyword, []).append(found)

    def candidates(self, caller: ModuleIndex, target: tuple[str, ...], keywords: tuple[str, ...] = ()) -> list[tuple[ModuleIndex, str]]:
        """The methods ``self.attr.method(...)`` (or ``ctx.attr.method(...)``, ``solver.method(...)``)
        may run: an object whose class the index could not tell.

        A name every container or layer has (``step``, ``build``) says nothing by itself; the
        keywords a call names do (``solver.step(f, x, t, dt, k1=k1)`` fits only the solvers'
        ``step``), and so does a function handed over under that very keyword
        (``QuadratureOps(build=partial(build_integrand, ...))`` then ``ops.build(...)``)."""
        method = target[-1]
        if method.startswith("__") or len(target) not in (2, 3):
            return []
        package = caller.module.split(".", 1)[0]
        owned = target[0] in RECEIVER_OWNERS
        if len(target) == 2 and not owned:
            handed = [(i, k) for i, k in self.handed.get(method, []) if i.module.split(".", 1)[0] == package]
            if handed:
                return handed if len(handed) <= MAX_LOCAL_CANDIDATES else []
        if (len(target) == 3) != owned:
            return []
        found = [(i, k) for i, k in self.methods.get(method, []) if i.module.split(".", 1)[0] == package]
        if keywords and method in PROTOCOL_METHODS:
            found = [(i, k) for i, k in found if set(keywords) <= set(i.functions[k].keyword_params)]
            return found if len(found) <= MAX_CANDIDATES else []
        if method in COMMON_METHODS or (not owned and method in VALUE_METHODS):
            return []
        if len(found) <= (MAX_CANDIDATES if owned else MAX_LOCAL_CANDIDATES):
            return found
        return found if len(found) <= MAX_CANDIDATES and self._one_family(found) else []

    def _one_family(self, found: list[tuple[ModuleIndex, str]]) -> bool:
        """Every candidate overrides the method of one class among them (``solver.root_solve(...)``
        with five solvers deriving from the base that declares ``root_solve``): the name is that
        family's protocol, not a coincidence of names, however many members the family has."""
        table = self.classes()
        own: set[str] = set()
        lineages: list[set[str]] = []
        for index, key in found:
            owner = index.functions[key].class_name
            entry = index.classes.get(owner) if owner is not None else None
            if entry is None:
                return False
            dotted = f"{index.module}.{owner}" if index.module else str(owner)
            own.add(dotted)
            lineages.append({dotted, *(name for name, _ in table.ancestors(index, entry))})
        return bool(own.intersection(*lineages))
