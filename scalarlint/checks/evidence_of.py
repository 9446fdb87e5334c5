"""Why a finding was reported: its confidence and its evidence, from its node, its check and
the inference.

Each finding has a *subject* (the device value it is about: the subscripted array, the
converted element, the iterated array) and an *access* (why touching it costs a sync or a
launch: one element read with host ints, a host copy, a Python iteration). The subject's
reasons come from ``analysis.origins`` (one or two definition hops back); the access's from
the check and what the inference knows about ranks. The finding's confidence is the weakest of
its reasons:

* ``high``: the array is built in the code (an array-module call, a device op) and the index
  is a literal, a loop variable or host-int arithmetic on those; the access is one element by
  the array's known rank, a conversion that accepts one element only, or a loop over the
  array's own length;
* ``medium``: the array is a rule's or helper's parameter, a cotangent, a saved tensor, an
  attribute set elsewhere; or the rank comes only from rank evidence (``n, = x.shape``) or from
  the number of indices;
* ``low``: a value the inference cannot follow inside a rule body (``low_tier``).

A finding the checks reported on the inference's own evidence is never below ``medium``: the
default threshold reports what the checker reported before confidence existed.

Explanations are computed for findings only, after the walk: the checks' speed is untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from scalarlint.analysis.element_access import chained_indices
from scalarlint.analysis.frameworks import HOST_FUNCTIONS
from scalarlint.analysis.inference import Inference, call_name, positional
from scalarlint.analysis.kinds import Kind, Origin, Tag
from scalarlint.analysis.masks import mask_name
from scalarlint.analysis.origins import HIGH, LOW, MEDIUM, Reason, array_origin, code, index_origin
from scalarlint.analysis.syntax import CONVERTERS
from scalarlint.analysis.tree import walk
from scalarlint.checks.base import CheckContext, ElementMatch, Finding, element_accesses
from scalarlint.checks.sl103_search_loop import SearchLoop
from scalarlint.checks.sl104_element_iteration import ElementLoop
from scalarlint.diagnostics import Confidence


@dataclass(frozen=True)
class Explanation:
    confidence: Confidence
    evidence: tuple[str, ...]


def explain(finding: Finding, ctx: CheckContext) -> Explanation:
    reason = _reason(finding, ctx)
    level = reason.confidence
    if not _guessed(finding) and level is LOW:
        level = MEDIUM  # reported on the inference's evidence: not the low tier's guess
    return Explanation(level, reason.texts[:8])


def _guessed(finding: Finding) -> bool:
    """Whether the low tier reported this element access on its guess (its match says so)."""
    return isinstance(finding.match, ElementMatch) and finding.match.guessed


def _reason(finding: Finding, ctx: CheckContext) -> Reason:
    node = finding.node
    inf = ctx.inference
    if _guessed(finding) and isinstance(node, cst.Subscript):
        return _unknown_walk(node, ctx)
    code_ = finding.code
    if code_ in ("SL101", "SL102") and isinstance(node, cst.Subscript):
        return element_reason(inf, node)
    if code_ == "SL103":
        subject = finding.match.subject if isinstance(finding.match, SearchLoop) else None
        found = _subject_reason(inf, subject) if subject is not None else None
        return (found or Reason(MEDIUM, ())).then(Reason(HIGH, ("a search loop tests one element per step on the host",)))
    if code_ == "SL104":
        return _iteration_reason(finding, ctx)
    if code_ == "SL105":
        return _transfer_reason(node, ctx)
    if code_ == "SL106":
        return _shape_reason(node, inf)
    return _sync_reason(node, inf)


# -- one element --------------------------------------------------------------------------------
def element_reason(inf: Inference, sub: cst.Subscript, converted: str | None = None) -> Reason:
    """``x[i]``: why ``x`` is a device array, why each index is a host int, why it is one element."""
    base = inf.kind(sub.value)
    if base.tag is Tag.UNKNOWN:  # element_access.indexed_like_an_array
        value = Reason(MEDIUM, (
            f"`{code(sub.value)}` is indexed with {len(sub.slice)} host ints, one walking the data: "
            "a NumPy-style element access (lists and tuples reject it)",
        ))
    else:
        value = array_origin(inf, sub.value)
        value = Reason(value.confidence, value.texts[:4])  # room for the indices and the access
    indices = [e.slice.value for e in sub.slice if isinstance(e.slice, cst.Index)]
    return value.then(*(index_origin(inf, i) for i in indices[:3]), _access(inf, sub, base, converted))


def _access(inf: Inference, sub: cst.Subscript, base: Kind, converted: str | None) -> Reason:
    n = len(sub.slice)
    ints = f"{n} integer index{'es' if n > 1 else ''}"
    if converted:
        return Reason(HIGH, (f"`{converted}()` of it accepts one element only and copies it to the host",))
    if base.tag is Tag.UNKNOWN:
        return Reason(MEDIUM, ())
    if base.rank is not None:
        stated = _rank_statement(inf, sub, base)
        if stated is not None:
            return Reason(MEDIUM, (f"rank {base.rank} stated by `{stated}`, {ints}: one element",))
        return Reason(HIGH, (f"`{code(sub.value)}` has rank {base.rank}, {ints}: one element",))
    kinds = inf.index_kinds(sub) or []
    if n >= 2:
        return Reason(MEDIUM, (f"{ints} on an array of unknown rank: one element unless it has more axes",))
    index = kinds[0] if kinds else None
    if index is not None and index.origin >= Origin.DATA and index.key is not None and index.key == base.key:
        shares = "" if code(sub.value) == index.key else f" (`{code(sub.value)}` shares its shape)"
        return Reason(HIGH, (f"the index walks `{index.key}` by its own length{shares}: one element per step",))
    if index is not None and index.origin == Origin.PARAM:
        return Reason(MEDIUM, ("an int parameter as the only index: one element by the function's signature",))
    chain = chained_indices(inf, sub, kinds)
    if chain is not None and inf.kind(chain[0]).tag is Tag.ARRAY:
        root, chained = chain
        return Reason(MEDIUM, (f"{len(chained)} integer indices chained (`x[a][b]` reads as `x[a, b]`), as many as `{code(root)}` "
                               "shows axes elsewhere in the function: one element",))
    if inf.used_as_scalar(sub):
        return Reason(MEDIUM, ("rank unknown; the value read is used as a Python scalar",))
    return Reason(MEDIUM, (f"{ints} on an array of unknown rank",))


def _rank_statement(inf: Inference, sub: cst.Subscript, base: Kind) -> str | None:
    """The statement that gives the indexed array its rank (``n, = x.shape``, ``assert
    x.ndim == 1``), when the rank comes from rank evidence rather than construction."""
    names = [n for n in (code(sub.value, 200), base.key) if n]
    stated = [n for n in names if inf.evidence.rank_of(n, sub) is not None]
    if not stated:
        return None
    function = inf.enclosing_function(sub)
    while function is not None:
        for node in walk(function):
            text = _states_rank(node, stated)
            if text is not None:
                return text
        function = inf.enclosing_function(function)
    return f"rank evidence on `{stated[0]}`"


def _states_rank(node: cst.CSTNode, names: list[str]) -> str | None:
    if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, (cst.Tuple, cst.List)):
        value = node.value
        if isinstance(value, cst.Attribute) and value.attr.value == "shape" and code(value.value, 200) in names:
            return code(node, 60)
    test = node.test if isinstance(node, (cst.Assert, cst.If)) else None
    if test is not None:
        text = code(test, 200)
        if any(f"{n}.ndim" in text or f"len({n}.shape)" in text for n in names):
            return code(test, 60)
    return None


def _unknown_walk(sub: cst.Subscript, ctx: CheckContext) -> Reason:
    if ctx.inference.kind(sub.value).tag is Tag.ARRAY:  # low_tier.literal_read_of_unknown_rank
        return array_origin(ctx.inference, sub.value).then(
            Reason(LOW, (f"`{code(sub.value)}` has an unknown number of axes: one literal index is one element only if it has one",))
        )
    rule = ctx.function.name.value if isinstance(ctx.function, cst.FunctionDef) else "a rule"
    value = Reason(LOW, (f"`{code(sub.value)}`: a value the inference cannot follow, inside the rule `{rule}` "
                         "(rule bodies hold arrays unless proven otherwise)",))
    indices = [e.slice.value for e in sub.slice if isinstance(e.slice, cst.Index)]
    walks = Reason(LOW, (f"the index walks `{code(sub.value)}` by its own length: one element per step if it is an array",))
    return value.then(*(index_origin(ctx.inference, i) for i in indices), walks)


# -- other checks' subjects ----------------------------------------------------------------------
def _subject_reason(inf: Inference, subject: cst.BaseExpression, converted: str | None = None) -> Reason | None:
    """The reasons for a device value a finding is about: an element access, or an array."""
    if isinstance(subject, cst.Subscript) and inf.selects_element(subject, converted=converted is not None):
        return element_reason(inf, subject, converted)
    if inf.kind(subject).is_device:
        return array_origin(inf, subject)
    return None


def device_operand(inf: Inference, expr: cst.BaseExpression, depth: int = 2) -> cst.BaseExpression | None:
    """The first device value among ``expr`` and its operands (receiver, arguments, compared
    values), ``expr`` itself first."""
    if inf.kind(expr).is_device:
        return expr
    if depth == 0:
        return None
    operands: list[cst.BaseExpression] = []
    if isinstance(expr, cst.Call):
        operands = ([expr.func.value] if isinstance(expr.func, cst.Attribute) else []) + positional(expr)
    elif isinstance(expr, cst.Comparison):
        operands = [expr.left, *(c.comparator for c in expr.comparisons)]
    elif isinstance(expr, cst.BooleanOperation):
        operands = [expr.left, expr.right]
    elif isinstance(expr, cst.UnaryOperation):
        operands = [expr.expression]
    elif isinstance(expr, cst.Subscript):
        operands = [expr.value]
    for operand in operands:
        found = device_operand(inf, operand, depth - 1)
        if found is not None:
            return found
    return None


def _iteration_reason(finding: Finding, ctx: CheckContext) -> Reason:
    inf = ctx.inference
    node = finding.node
    if isinstance(finding.match, ElementLoop):
        loop = ctx.parents.get(node)
        body = loop.body if isinstance(loop, cst.For) else ctx.parents.get(loop) if loop is not None else None
        accesses = element_accesses(body, ctx) if body is not None else []
        first = element_reason(inf, accesses[0]) if accesses else Reason(MEDIUM, ())
        bound = Reason(HIGH, (f"`{code(node)}` counts the data: the body runs once per element",))
        return first.then(bound)
    subject: cst.BaseExpression | None = None
    if isinstance(node, cst.StarredElement):
        subject = node.value
    elif isinstance(node, cst.Assign):
        subject = node.value
    elif isinstance(node, cst.BaseExpression):
        subject = device_operand(inf, node)
    found = _subject_reason(inf, subject) if subject is not None else None
    return (found or Reason(MEDIUM, ())).then(Reason(HIGH, ("Python iteration visits the array one element at a time",)))


def _transfer_reason(node: cst.CSTNode, ctx: CheckContext) -> Reason:
    inf = ctx.inference
    if isinstance(node, cst.Call):
        name = call_name(node.func) or []
        args = positional(node)
        if len(name) == 1 and name[0] in CONVERTERS and len(args) == 1:
            found = _subject_reason(inf, args[0], converted=name[0])
            return (found or Reason(MEDIUM, ())).then(Reason(HIGH, (f"`{name[0]}()` copies one element to the host",)))
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in HOST_FUNCTIONS and args:
            found = _subject_reason(inf, args[0])  # ops.convert_to_numpy(x): a module's function of its argument
            return (found or Reason(MEDIUM, ())).then(Reason(HIGH, (f"`{code(node.func)}()` copies device data to the host",)))
        if isinstance(node.func, cst.Attribute):
            attr = node.func.attr.value
            receiver = node.func.value
            if inf.kind(receiver).tag is Tag.UNKNOWN and not (isinstance(receiver, cst.Subscript) and inf.selects_element(receiver)):
                return Reason(MEDIUM, (f"`.{attr}()` exists on device arrays only (torch, TF, Paddle, MXNet): a host copy",))
            found = _subject_reason(inf, receiver, converted=attr if attr in ("item", "asscalar") else None)
            return (found or Reason(MEDIUM, ())).then(Reason(HIGH, (f"`.{attr}()` copies device data to the host",)))
        operand = args[0] if args else None
        found = _subject_reason(inf, operand) if operand is not None and inf.kind(operand).is_device else None
        what = code(node.func)
        return (found or Reason(HIGH, ())).then(Reason(HIGH, (f"`{what}()` runs on or copies to the host",)))
    if isinstance(node, cst.Subscript):  # a slice bound that is an element, or a list's device index
        bound = next((p for e in node.slice if isinstance(e.slice, cst.Slice)
                      for p in (e.slice.lower, e.slice.upper, e.slice.step) if p is not None and inf.is_element_value(p)), None)
        if bound is None and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            index = node.slice[0].slice.value  # sl105_sequence_index: NAMES[k]
            return array_origin(inf, index).then(Reason(HIGH, ("a Python list or tuple reads its index as a host int (`__index__`)",)))
        found = array_origin(inf, bound) if bound is not None else Reason(MEDIUM, ())
        return found.then(Reason(HIGH, ("slicing needs the bound on the host",)))
    if isinstance(node, cst.BaseExpression):  # the test of an if/while
        operand = device_operand(inf, node)
        found = _subject_reason(inf, operand) if operand is not None else None
        return (found or Reason(MEDIUM, ())).then(Reason(HIGH, ("Python asks the device for one bool to branch on",)))
    return Reason(MEDIUM, ())


def _shape_reason(node: cst.CSTNode, inf: Inference) -> Reason:
    if isinstance(node, cst.Subscript):
        masks = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index) and inf.kind(e.slice.value).boolean]
        value = array_origin(inf, node.value)
        named = mask_name(node)
        if masks:
            mask = array_origin(inf, masks[0])
        elif named is not None:
            mask = Reason(MEDIUM, (f"`{named}` is named as a mask: an array of booleans by convention",))
        else:
            mask = Reason(MEDIUM, ())
        return value.then(mask, Reason(HIGH, ("a boolean-mask index: the result's size depends on the data",)))
    operands = ([node.func.value] if isinstance(node.func, cst.Attribute) else []) + positional(node) if isinstance(node, cst.Call) else []
    operand = next((o for o in operands if inf.kind(o).is_device), None)
    found = array_origin(inf, operand) if operand is not None else Reason(MEDIUM, ())
    return found.then(Reason(HIGH, ("the result's shape depends on the data: a sync to size it",)))


def _sync_reason(node: cst.CSTNode, inf: Inference) -> Reason:
    """SL107: ``int(v)``, ``v.item()`` (the converted value), or a test on a device value."""
    subject: cst.BaseExpression | None = None
    if isinstance(node, cst.Call):
        subject = node.func.value if isinstance(node.func, cst.Attribute) else next(iter(positional(node)), None)
    elif isinstance(node, cst.BaseExpression):
        subject = node
    found = array_origin(inf, subject) if subject is not None and inf.kind(subject).is_device else Reason(MEDIUM, ())
    return found.then(Reason(HIGH, ("Python needs the device value on the host (one sync)",)))

