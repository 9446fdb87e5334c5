"""``with allow_scalar():`` around the test of an ``if`` or ``while`` header, hoisted into a flag
(SL101, SL105).

What it rewrites
    A scope around a compound statement would cover its whole block, so the test alone is
    hoisted into a flag computed inside the scope. Python syncs when it calls the test's
    ``__bool__``, so ``bool(...)`` runs inside the scope and the header tests the flag::

        while distance(x, x_prev) > tol:      while True:
            body                        ->        with allow_scalar():
                                                      going_on = bool(distance(x, x_prev) > tol)
                                                  if not going_on:
                                                      break
                                                  body

        if x[0] > 0:                          with allow_scalar():
            body                        ->        condition = bool(x[0] > 0)
                                              if condition:
                                                  body

    The ``while`` form evaluates the test where the loop did, before every trip: ``continue``
    jumps back to ``while True``, which evaluates it again, and ``break`` leaves as before. The
    flag takes a name that nothing in the function uses (``going_on2``, ... otherwise).

When it is offered
    Where ``allow_scalar_block`` would declare an access (once, not in a loop over data, not
    indexed by a loop's variable, not a search's index; ``declarable``), in the test of an
    ``if`` or ``while`` whose block is a function's or the module's. Declined, with the reason,
    where the hoisted form could mean something else: a ``while`` with an ``else`` (it runs when
    the test fails, not after ``break``), an ``elif`` test (only the first test of a chain
    can be hoisted without nesting the rest), a test holding ``:=``, ``yield``, ``await`` or a
    ``lambda`` (a binding, a suspension inside the scope, code run later), or an access inside a
    comprehension of the test.

Applicability
    As ``allow_scalar_block``'s: unsafe, and display-only when the import would add an
    undeclared dependency. The scope declares the test's syncs (every one in it, including
    those of the functions it calls), and the rewrite adds a name to the function. ``bool(a and
    b)`` asks ``a`` for its truth twice where ``if a and b`` asked once (the same answer, one
    more sync when ``a`` is false). A reviewer decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.tree import walk

from .allow_scalar_block import allow_name, declarable, declaring_fixes, scoped
from .cst_helpers import ancestors, contains, is_builtin_at, names_in
from .index_facts import index_names
from .loop_names import fresh_name, names_taken
from .outcomes import Declined
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding
    from scalarlint.diagnostics import Fix

FLAGS = {cst.While: "going_on", cst.If: "condition"}
NOT_HOISTED = (cst.NamedExpr, cst.Yield, cst.Await, cst.Lambda)


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    header = _tested_header(analyzer, finding.node)
    if header is None:
        return []
    access = header.test if finding.node is header else finding.node
    # the whole test moves into the scope: every access in it must happen once, not only this one
    if not declarable(analyzer, header.test, header) or _walks_elements(header):
        return []
    reason = _why_not(analyzer, header, access)
    if reason is not None:
        return Declined(reason)
    if not isinstance(analyzer.parents.get(header), (cst.IndentedBlock, cst.Module)):
        return []
    name, import_edit, blocked = allow_name(analyzer, header)
    if name is None or not is_builtin_at(analyzer, header, "bool"):
        return []
    flag = fresh_name(FLAGS[type(header)], names_taken(analyzer, header))
    computed = scoped(name, _assign(flag, header.test))
    if isinstance(header, cst.While):
        new: list[cst.BaseStatement] = [_while(header, computed, flag)]
    else:
        new = [computed, header.with_changes(test=cst.Name(flag), leading_lines=())]
    edit = replace_statements(analyzer, header, header, new)
    if edit is None:
        return []
    keyword = "while" if isinstance(header, cst.While) else "if"
    message = f"Compute the `{keyword}` test in `with {name}():` as `{flag} = bool(...)` (declares this single access)"
    return declaring_fixes(message, edit, import_edit, blocked)


def _tested_header(analyzer: AnalyzedFile, node: cst.CSTNode) -> cst.If | cst.While | None:
    """The ``if``/``while`` whose test is ``node`` (the finding of the test as a whole) or holds it."""
    if isinstance(node, (cst.If, cst.While)):
        return node
    child = node
    for parent in ancestors(analyzer, node):
        if isinstance(parent, (cst.If, cst.While)):
            return parent if parent.test is child else None
        if isinstance(parent, (cst.BaseStatement, cst.BaseSmallStatement, cst.IndentedBlock)):
            return None
        child = parent
    return None


def _walks_elements(header: cst.If | cst.While) -> bool:
    """A ``while`` whose test reads elements at indices its body moves (``while x[i] > 0: i += 1``)
    syncs once per element, not once per trip of a computation: declaring it would bless that."""
    if isinstance(header, cst.If):
        return False
    indices = {n.value for s in walk(header.test) if isinstance(s, cst.Subscript) for n in index_names(s)}
    return bool(indices & _assigned_in(header.body))


def _assigned_in(body: cst.CSTNode) -> set[str]:
    """The names an assignment, augmented assignment or ``for`` in ``body`` binds."""
    targets = [
        t for n in walk(body)
        for t in ([a.target for a in n.targets] if isinstance(n, cst.Assign) else
                  [n.target] if isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)) else [])
    ]
    return {name for t in targets for name in names_in(t)}


def _why_not(analyzer: AnalyzedFile, header: cst.If | cst.While, access: cst.CSTNode) -> str | None:
    """Why hoisting the test could change what the code means, or ``None``."""
    if isinstance(header, cst.While) and header.orelse is not None:
        return "a `while` with an `else` block: the hoisted test would skip the `else` when it fails"
    if isinstance(header, cst.If) and isinstance(analyzer.parents.get(header), cst.If):
        return "an `elif` test: only the first test of an `if` chain can be computed before it"
    if contains(header.test, NOT_HOISTED):
        return "the test binds a name, suspends or defines a lambda (`:=`, `yield`, `await`, `lambda`): it stays in the header"
    if any(isinstance(a, cst.BaseComp) for a in _up_to(analyzer, access, header.test)):
        return "the access is inside a comprehension of the test"
    return None


def _up_to(analyzer: AnalyzedFile, node: cst.CSTNode, top: cst.CSTNode) -> list[cst.CSTNode]:
    """``node`` and its ancestors up to ``top`` (included)."""
    chain = [node]
    for parent in ancestors(analyzer, node):
        if chain[-1] is top:
            break
        chain.append(parent)
    return chain


def _assign(flag: str, test: cst.BaseExpression) -> cst.SimpleStatementLine:
    """``flag = bool(test)``."""
    bare = test.with_changes(lpar=(), rpar=()) if getattr(test, "lpar", None) else test
    value = cst.Call(func=cst.Name("bool"), args=[cst.Arg(bare)])
    return cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(flag))], value=value)])


def _while(header: cst.While, computed: cst.With, flag: str) -> cst.While:
    """``while True:`` whose body computes the flag, leaves when it is false, then runs the old body."""
    leave = cst.If(
        test=cst.UnaryOperation(operator=cst.Not(), expression=cst.Name(flag)),
        body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Break()])]),
    )
    body = header.body
    if isinstance(body, cst.IndentedBlock):
        new_body = body.with_changes(body=[computed, leave, *body.body])
    else:
        new_body = cst.IndentedBlock(body=[computed, leave, cst.SimpleStatementLine(body=body.body)])
    return header.with_changes(test=cst.Name("True"), body=new_body, leading_lines=())
