"""Whether a value is only ever used as one number: what makes a host copy of its array safe.

The host-copy fix (``host_copy``) turns a loop's reads of an array into reads of a NumPy copy.
For a read that is one element this changes nothing but the number's type; for a read that is
a row or a slab (``src = arrays[i]``, ``inv(x[i])`` of a batch of matrices) it would hand a host
array to code that works on device arrays, which CuPy refuses and which moves PyTorch work to
the CPU. The checks cannot always tell an element from a slab (an array of unknown rank read
with one index), so the fix asks how the value is used instead: only as a number.

A value is used as a number when every use of it is one of: an operand of arithmetic or a
comparison whose result is again used as a number; the argument of ``int``/``float``/
``round``/``bool``/``complex``/``abs``/``slice``/``range``, or of ``max``/``min`` or an array
module's function whose result is again used as a number; a test (``if``, ``while``, a
conditional expression); a slice bound or an index; a field of an f-string; the value written to an element
(``out[i] = v``, ``out[i] += v``); a plain name, an unpacked row or an accumulator
(``acc += v``) whose every use is one of these; the argument of a function of the same file
or of a function imported from another module of the project (``imported_helpers``), whose
parameter is used so, where what that function returns of it is used so at the call
(``y, lo, hi = _bounds(y, h)``: the returned ``y`` and ``lo``). Anything else (a call of another
function, an attribute, a container, a ``return`` out of the loop's own function) keeps the
array on the device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.syntax import call_name

from .cst_helpers import ancestors, assignments_of
from .imported_helpers import imported_function

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

TO_NUMBER = frozenset({"int", "float", "round", "bool", "complex", "abs", "len", "slice", "range"})
NUMBER_IN_NUMBER_OUT = frozenset({"max", "min", "pow", "divmod"})
ARITHMETIC = (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.BooleanOperation)
TESTED = (cst.If, cst.While, cst.IfExp, cst.Assert)
MAX_HELPER_DEPTH = 4  # helpers calling helpers: beyond this, the value counts as handed on


class _Walk:
    """One question's state: the names already on the path (a value carried around a loop is
    decided by its other uses), and the calls whose parameters are being followed, innermost
    last (a ``return`` inside a helper answers to the call that entered it)."""

    def __init__(self) -> None:
        self.seen: set[tuple[cst.CSTNode, tuple[cst.Call, ...]]] = set()
        self.calls: list[tuple[Any, cst.Call]] = []  # (the file the call is in, the call)


def used_as_number(analyzer: AnalyzedFile, value: cst.BaseExpression) -> bool:
    """Whether ``value`` (an element read) is only ever used as a number."""
    return _used(analyzer, value, _Walk())


def name_used_as_number(analyzer: AnalyzedFile, name: cst.Name) -> bool:
    """Whether every read of the name bound at ``name`` (a loop target) uses it as a number."""
    return _name_used(analyzer, name, _Walk())


def _used(analyzer: AnalyzedFile, node: cst.CSTNode, walk: _Walk) -> bool:
    parent = analyzer.parents.get(node)
    if parent is None:
        return False
    if isinstance(parent, cst.ComparisonTarget):
        holder = analyzer.parents.get(parent)
        return holder is not None and _used(analyzer, holder, walk)
    if isinstance(parent, ARITHMETIC):
        return _used(analyzer, parent, walk)
    if isinstance(parent, TESTED):
        return parent.test is node or isinstance(parent, cst.IfExp) and _used(analyzer, parent, walk)
    if isinstance(parent, (cst.Slice, cst.Index)):
        return True  # a bound or an index: a host number is what they take
    if isinstance(parent, cst.FormattedStringExpression):
        return True  # its digits in a message
    if isinstance(parent, cst.Arg):
        return _argument_used(analyzer, parent, walk)
    if isinstance(parent, cst.Assign) and parent.value is node:
        return all(_target_used(analyzer, t.target, walk) for t in parent.targets)
    if isinstance(parent, cst.AugAssign):
        return parent.target is node or _target_used(analyzer, parent.target, walk)  # acc += v
    if isinstance(parent, cst.Return):
        return _returned(analyzer, walk, None)
    if isinstance(parent, cst.Element) and isinstance(analyzer.parents.get(parent), cst.Tuple):
        returned = analyzer.parents.get(analyzer.parents.get(parent))  # type: ignore[arg-type]
        tuple_ = analyzer.parents.get(parent)
        if isinstance(returned, cst.Return) and isinstance(tuple_, cst.Tuple):
            return _returned(analyzer, walk, tuple_.elements.index(parent))  # type: ignore[arg-type]
    return False


def _returned(analyzer: AnalyzedFile, walk: _Walk, position: int | None) -> bool:
    """A value returned (at ``position`` of a returned tuple) by the helper the walk entered:
    the call's result there must be used as a number. Out of the loop's own function: no."""
    if not walk.calls:
        return False
    entered = walk.calls.pop()
    caller, call = entered
    try:
        if position is None:
            return _used(caller, call, walk)
        assign = caller.parents.get(call)
        if not isinstance(assign, cst.Assign) or assign.value is not call or len(assign.targets) != 1:
            return False
        target = assign.targets[0].target
        if not isinstance(target, (cst.Tuple, cst.List)) or position >= len(target.elements):
            return False
        element = target.elements[position]
        return isinstance(element, cst.Element) and _target_used(caller, element.value, walk)
    finally:
        walk.calls.append(entered)


def _argument_used(analyzer: AnalyzedFile, arg: cst.Arg, walk: _Walk) -> bool:
    call = analyzer.parents.get(arg)
    if not isinstance(call, cst.Call) or arg.star:
        return False
    name = call_name(call.func)
    if name is not None and len(name) == 1 and name[0] in TO_NUMBER and arg.keyword is None:
        return True
    known = name is not None and len(name) == 1 and name[0] in NUMBER_IN_NUMBER_OUT
    if (known or analyzer.context.inference.module_call(call) is not None) and arg.keyword is None:
        return _used(analyzer, call, walk)  # int(numpy.ceil(h / n))
    helper = _helper(analyzer, call)
    if helper is None or len(walk.calls) >= MAX_HELPER_DEPTH:
        return False
    home, function = helper
    parameter = _parameter(function, call, arg)
    if parameter is None:
        return False
    walk.calls.append((analyzer, call))
    try:
        return _name_used(home, parameter.name, walk)
    finally:
        walk.calls.pop()


def _helper(analyzer: Any, call: cst.Call) -> tuple[Any, cst.FunctionDef] | None:
    """The ``def`` a call runs, with the file it is in: one of this file (a plain name bound
    only to it) or one imported from another module of the project."""
    if not isinstance(call.func, cst.Name):
        return None
    bound = assignments_of(analyzer, call.func)
    if bound and len(bound) == 1 and isinstance(bound[0].node, cst.FunctionDef):
        return analyzer, bound[0].node
    return imported_function(analyzer, call.func)


def _parameter(function: cst.FunctionDef, call: cst.Call, arg: cst.Arg) -> cst.Param | None:
    """The parameter of ``function`` that ``arg`` binds, by position or keyword."""
    params = function.params
    if arg.keyword is not None:
        return next((p for p in (*params.params, *params.kwonly_params) if p.name.value == arg.keyword.value), None)
    positional = [*params.posonly_params, *params.params]
    index = next(i for i, a in enumerate(call.args) if a is arg)
    if any(a.keyword is not None or a.star for a in call.args[:index]) or index >= len(positional):
        return None
    return positional[index]


def _target_used(analyzer: AnalyzedFile, target: cst.BaseExpression, walk: _Walk) -> bool:
    """A name, a tuple of names (an unpacked row) or an element written (``out[i] = v``)."""
    if isinstance(target, cst.Subscript):
        return True  # the number is written into one element
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and _target_used(analyzer, e.value, walk) for e in target.elements)
    if isinstance(target, cst.Name):
        return _name_used(analyzer, target, walk)
    return False


def _name_used(analyzer: AnalyzedFile, name: cst.Name, walk: _Walk) -> bool:
    """Whether every read of the name bound at ``name`` (a target or a parameter's name)
    uses it as a number."""
    key = (name, tuple(walk.calls))  # a helper's parameter once per call that entered it
    if key in walk.seen:
        return True  # a value carried around a loop: its other uses decide
    walk.seen.add(key)
    scope = analyzer.scopes.get(name)
    if scope is None:
        return False
    owner = next((a for a in ancestors(analyzer, name) if isinstance(a, cst.Param)), None)
    binding = next((a for a in scope.assignments[name.value] if a.node is name or a.node is owner and owner is not None), None)
    if binding is None:
        return False
    return all(
        isinstance(access.node, cst.Name) and (_host_number(analyzer, access.node) or _used(analyzer, access.node, walk))
        for access in binding.references
    )


def _host_number(analyzer: AnalyzedFile, read: cst.Name) -> bool:
    """A read the inference already knows to be a host number: scopes join every binding of a
    name, so a later ``ymin = int(...)`` shares the reads of an earlier ``ymin`` element; those
    reads see the int, whatever the copy does."""
    return analyzer.context.inference.kind(read).tag in (Tag.HOST_INT, Tag.HOST_SCALAR)
