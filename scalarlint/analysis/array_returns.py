"""What a function of the checked tree returns, as far as its own text says: an array, or a
tuple whose parts are arrays.

The project index records it per function (``FunctionEntry.returns_array`` and
``return_parts``) so that a call to a helper of another module counts as an array in the
caller's file, which the second pass reads alone. Only plain evidence: a return annotation
naming an array type, or every ``return`` handing back an array package's result, directly or
through a name the function binds only to such results (``c = torch.tensor([0., .5, 1.])``
... ``return (c, a, bsol)``).
"""

from __future__ import annotations

import ast

from scalarlint.analysis.rule_decorators import dotted_name

ARRAY_PACKAGES = frozenset({"numpy", "jax", "torch", "cupy", "tensorflow", "paddle", "mindspore", "oneflow", "megengine", "mxnet"})
NOT_ARRAY_RESULTS = frozenset({"shape", "ndim", "size", "is_tensor", "is_available", "is_grad_enabled", "dtype", "device",
                               "finfo", "iinfo", "result_type", "can_cast", "allclose", "array_equal", "isscalar",
                               "broadcast_shapes", "get_default_dtype", "numel", "item", "tolist", "split", "unbind",
                               "chunk", "meshgrid", "broadcast_arrays", "nonzero", "where"})
ARRAY_ANNOTATIONS = frozenset({"ndarray", "NDArray", "Tensor", "Array", "ArrayLike"})


def annotated_array(returns: str) -> bool:
    """``def flm_2d_to_1d_fast(...) -> jnp.ndarray``: the dotted return annotation names an array type."""
    return returns.rsplit(".", 1)[-1] in ARRAY_ANNOTATIONS


def array_package_call(func: str, imports: dict[str, str]) -> bool:
    """``return torch.cat(parts)``, given the called function's dotted name: a call of an array
    package's function that gives an array (not ``torch.is_tensor``, not ``np.shape``)."""
    head, _, rest = func.partition(".")
    if not rest or rest.rsplit(".", 1)[-1] in NOT_ARRAY_RESULTS:
        return False
    return imports.get(head, "").split(".")[0] in ARRAY_PACKAGES


# What a returned value is, as the index writes it down: a part of a returned tuple or the whole.
ARRAY, VECTOR, ARRAYS, VECTORS, OTHER = "array", "vector", "arrays", "vectors", ""
VECTOR_BUILDERS = frozenset({"linspace", "arange", "logspace"})
LITERAL_CONVERTERS = frozenset({"tensor", "array", "asarray", "as_tensor", "constant"})
ELEMENTWISE_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


class ReturnedArrays:
    """One function's assignments and ``return`` values, read only when the function ends (most
    functions' returns never name an array result, and the first pass runs on every file)."""

    def __init__(self, imports: dict[str, str]) -> None:
        self.imports = imports
        self.bound: dict[str, list[ast.expr] | None] = {}  # name -> the values bound to it; None: unpacked
        self.returned: list[ast.expr | None] = []

    def note_assignment(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name):
            values = self.bound.setdefault(target.id, [])
            if values is not None:
                values.append(value)
            return
        for name in ast.walk(target):
            if isinstance(name, ast.Name):
                self.bound[name.id] = None  # unpacked: nothing known about each part

    def note_return(self, value: ast.expr | None) -> None:
        self.returned.append(value)

    def whole_array(self) -> bool:
        """Every ``return`` hands back one array."""
        return bool(self.returned) and all(v is not None and self.part(v) in (ARRAY, VECTOR) for v in self.returned)

    def tuple_parts(self) -> tuple[str, ...]:
        """What each position of the returned tuple holds, where every ``return`` hands back a
        tuple of one length; ``()`` otherwise or where no position holds arrays."""
        tuples = [v for v in self.returned if isinstance(v, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in v.elts)]
        if not tuples or len(tuples) != len(self.returned) or len({len(t.elts) for t in tuples}) != 1:
            return ()
        per_return = [tuple(self.part(e) for e in t.elts) for t in tuples]
        parts = tuple(p[0] if len(set(p)) == 1 else OTHER for p in zip(*per_return))
        return parts if any(parts) else ()

    def part(self, value: ast.expr, seen: frozenset[str] = frozenset()) -> str:
        if isinstance(value, ast.Name):
            values = self.bound.get(value.id)
            if not values or value.id in seen:
                return OTHER
            parts = {self.part(v, seen | {value.id}) for v in values}
            if len(parts) == 1:
                return parts.pop()
            return ARRAY if parts <= {ARRAY, VECTOR} else OTHER
        if isinstance(value, ast.Call):
            func = dotted_name(value.func)
            if not array_package_call(func, self.imports):
                return OTHER
            last = func.rsplit(".", 1)[-1]
            flat = bool(value.args) and isinstance(value.args[0], (ast.List, ast.Tuple)) and all(_is_number(e) for e in value.args[0].elts)
            return VECTOR if last in VECTOR_BUILDERS or (last in LITERAL_CONVERTERS and flat) else ARRAY
        if isinstance(value, ast.BinOp) and isinstance(value.op, ELEMENTWISE_OPERATORS):
            # ``bsol - berr``: elementwise arithmetic of arrays is an array; of two vectors, a
            # vector (a number beside an array broadcasts to the array's shape)
            parts = {self.part(v, seen) for v in (value.left, value.right) if not _is_number(v)}
            if not parts or not parts <= {ARRAY, VECTOR}:
                return OTHER
            return VECTOR if parts == {VECTOR} else ARRAY
        if isinstance(value, (ast.List, ast.Tuple)) and value.elts:
            parts = {self.part(e, seen) for e in value.elts}
            return VECTORS if parts == {VECTOR} else ARRAYS if parts <= {ARRAY, VECTOR} else OTHER
        return OTHER


def _is_number(node: ast.expr) -> bool:
    """``0.5``, ``-1``, ``1 / 6``: a number written out."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _is_number(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_number(node.left) and _is_number(node.right)
    return False
