"""SL105's type tests: a value narrowed to host data or to a tensor by the ``if`` around its use.

``if isinstance(v, numpy.generic): return v.item()`` converts host data, not a device value;
``if torch.is_tensor(dim): dim = int(dim.item())`` converts a tensor even where the name reads
like a setting. The conversions of ``sl105_host_conversion`` ask here before they report.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from scalarlint.analysis.imports import qualified_names
from scalarlint.analysis.syntax import call_name
from scalarlint.checks.base import CheckContext

ARRAY_TYPE_NAMES = ("ndarray", "Tensor", "Array", "Variable", "NDArray")


def narrowed_to_host(value: cst.BaseExpression, use: cst.CSTNode, ctx: CheckContext) -> bool:
    """``if isinstance(value, numpy.generic): return value.item()``: inside a test that names
    no array type (or names ``numpy.ndarray`` itself), the value is host data; likewise inside
    ``if numpy.isscalar(value):``."""
    return any(_narrows_to(name, test, ctx) == HOST for name, test in _tests_of(value, use, ctx))


def narrowed_to_tensor(value: cst.BaseExpression, use: cst.CSTNode, ctx: CheckContext) -> bool:
    """``if is_tensor(dim): dim = int(dim.item())``: inside a test that the value is a tensor
    (``torch.is_tensor``, ``isinstance(v, Tensor)``) a name that reads like a setting holds one."""
    return any(_narrows_to(name, test, ctx) == TENSOR for name, test in _tests_of(value, use, ctx))


HOST, TENSOR = "host", "tensor"
TENSOR_TESTS = frozenset({"is_tensor", "is_ndarray", "is_array", "isTensor"})


def _narrows_to(name: str, test: cst.BaseExpression, ctx: CheckContext) -> str | None:
    """What the type test ``test`` (a call of ``name``) says its subject is: host data, a
    tensor, or nothing."""
    if name == MODULE_TEST:
        return TENSOR
    assert isinstance(test, cst.Call)
    if name == "isinstance" and len(test.args) == 2:
        types = test.args[1].value
        if _names_numpy_ndarray(types, ctx) or not any(t in ctx.source_of(types) for t in ARRAY_TYPE_NAMES):
            return HOST
        return TENSOR
    if name == "isscalar" and len(test.args) == 1:
        return HOST
    if name in TENSOR_TESTS and len(test.args) == 1:
        return TENSOR
    return None


def _names_numpy_ndarray(types: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``numpy.ndarray`` itself (``np.ndarray``, ``_np.ndarray``): a value of that type is a
    NumPy array, host data, whatever the module's other paths run on (not ``cupy.ndarray``,
    not ``xp.ndarray``)."""
    if not (isinstance(types, cst.Attribute) and types.attr.value == "ndarray"):
        return False
    return "numpy" in qualified_names(types.value, ctx.inference.scopes.get(types.value))


def _tests_of(value: cst.BaseExpression, use: cst.CSTNode, ctx: CheckContext) -> Iterator[tuple[str, cst.BaseExpression]]:
    """The calls testing the name ``value`` (as their first argument) in the ``if`` statements
    whose body holds ``use``, innermost first, with the called function's last name."""
    if not isinstance(value, cst.Name):
        return
    child, parent = use, ctx.parents.get(use)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda)):
        if isinstance(parent, cst.If) and child is parent.body:
            for test in _conjuncts(parent.test):
                subject = _type_module_subject(test)
                if subject is not None and subject.value == value.value:
                    yield MODULE_TEST, test
                if isinstance(test, cst.Call) and test.args:
                    subject = test.args[0].value
                    if isinstance(subject, cst.Name) and subject.value == value.value:
                        yield (call_name(test.func) or [""])[-1], test
        child, parent = parent, ctx.parents.get(parent)


MODULE_TEST = "type.__module__"
DEVICE_ARRAY_MODULES = ("cupy", "torch", "jax", "jaxlib", "tensorflow", "mxnet", "paddle")


def _conjuncts(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The tests ``and`` joins (parentheses dropped): each holds inside the ``if``'s body."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _conjuncts(test.left) + _conjuncts(test.right)
    return [test]


def _type_module_subject(test: cst.BaseExpression) -> cst.Name | None:
    """``x`` of ``type(x).__module__ == "cupy"`` (or ``.startswith("torch")``): a test that the
    value's class comes from a device array library."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal):
        attribute, literal = test.left, test.comparisons[0].comparator
    elif isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute) and test.func.attr.value == "startswith" and len(test.args) == 1:
        attribute, literal = test.func.value, test.args[0].value
    else:
        return None
    if not isinstance(literal, cst.SimpleString) or not literal.evaluated_value.startswith(DEVICE_ARRAY_MODULES):  # type: ignore[union-attr]
        return None
    if not (isinstance(attribute, cst.Attribute) and attribute.attr.value == "__module__" and isinstance(attribute.value, cst.Call)):
        return None
    typed = attribute.value
    if call_name(typed.func) != ["type"] or len(typed.args) != 1 or not isinstance(typed.args[0].value, cst.Name):
        return None
    return typed.args[0].value
