"""What a check is, and what it sees while it runs.

A check is a module with ``INFO`` (its code, name and documentation) and a function
``check(node, ctx)`` called for each node of the types in ``NODE_TYPES`` inside a checked
function, in source order (parents before children). A check may *claim* sub-nodes so that a
more general check does not report the same access twice (``float(x[i])`` is one SL105, not
also an SL101).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

import libcst as cst

from scalarlint.analysis.array_api import JAX_UPDATES
from scalarlint.analysis.inference import Inference, call_name, is_range_name, positional
from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.syntax import is_converter_call, jax_at_base
from scalarlint.analysis.tree import children, walk
from scalarlint.diagnostics import Severity


@dataclass(frozen=True)
class CheckInfo:
    code: str
    name: str
    summary: str
    doc: str  # Markdown: what it flags, why it hurts on a GPU, example, what to write instead
    default_enabled: bool = True
    # The fixer modules (names in ``scalarlint.fixers``) that may rewrite this check's findings,
    # in preference order: a finding's preferred fix is its first safe one, then its first. Named
    # here, not imported, so that a check never imports the fixers; ``scalarlint.fixers`` reads it.
    fixers: tuple[str, ...] = ()
    # Its fixes change what the right fix is for other findings in the same rule (SL103's
    # vectorized search turns a host int index into a device index, and every use of it then
    # needs another fix): the fix engine applies them first and lets the rule's other fixes
    # wait for the next round, when they are worked out again on the rewritten code.
    fixes_supersede: bool = False


@dataclass(frozen=True)
class Match:
    """What a check worked out while matching, beyond the node it reports: each check module
    defines its own frozen subclass (``SearchLoop``, ``ScalarRead``, ...), so that the evidence
    and the fixers read typed fields instead of recognising the pattern a second time."""


@dataclass(frozen=True)
class ElementMatch(Match):
    """SL101's and SL102's shared match: one element read or written. ``guessed``: the
    low-confidence tier (``--confidence low``) reported it on its guess about an unknown value,
    not on the inference's evidence; the evidence then says so and stays LOW."""

    guessed: bool = False


@dataclass
class Finding:
    """A check's raw result, still tied to its node; the engine turns it into a Diagnostic."""

    code: str
    node: cst.CSTNode
    message: str
    severity: Severity
    match: Match | None = None  # the check's typed match, where it has more to say than the node
    # where the report points when not at ``node`` (the array a loop header iterates, on its own
    # line in a header over several); suppressions still cover all of ``node``
    at: cst.CSTNode | None = None


class CheckModule(Protocol):
    INFO: CheckInfo
    NODE_TYPES: tuple[type[cst.CSTNode], ...]

    def check(self, node: cst.CSTNode, ctx: "CheckContext") -> Iterable[Finding]: ...


@dataclass
class CheckContext:
    inference: Inference
    parents: dict[cst.CSTNode, cst.CSTNode]
    function: cst.CSTNode  # the innermost checked function around the node
    claimed: set[int] = field(default_factory=set)
    converted_reads: set[int] = field(default_factory=set)
    source_of: Callable[[cst.CSTNode], str] = lambda node: ""

    def claim(self, node: cst.CSTNode) -> None:
        for sub in walk(node):
            self.claimed.add(id(sub))

    def claim_node(self, node: cst.CSTNode) -> None:
        """Claim ``node`` itself, not what is inside it (a search loop is not also an element loop)."""
        self.claimed.add(id(node))

    def is_claimed(self, node: cst.CSTNode) -> bool:
        return id(node) in self.claimed

    def claim_converted_read(self, read: cst.Subscript) -> None:
        """``int(x[i])``, ``x[i].item()``: the conversion is SL105's finding and the read is
        SL101's, one element for certain (only one element converts). What is inside the read
        (``x[idx[k]]``) stays claimed by the conversion."""
        self.claim(read)
        self.converted_reads.add(id(read))

    def is_converted_read(self, node: cst.CSTNode) -> bool:
        return id(node) in self.converted_reads

    # -- loops --------------------------------------------------------------------------
    def enclosing_loops(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """For, While and comprehension loops around ``node`` inside its function, innermost first."""
        loops: list[cst.CSTNode] = []
        child = node
        parent = self.parents.get(node)
        while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.Module)):
            if isinstance(parent, (cst.For, cst.While)) and child is not getattr(parent, "iter", None) and child is not getattr(parent, "orelse", None):
                loops.append(parent)
            elif isinstance(parent, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                if child is not parent.for_in:
                    loops.append(parent.for_in)
            elif isinstance(parent, cst.CompFor) and child is not parent.iter:
                loops.append(parent)
            child, parent = parent, self.parents.get(parent)
        return loops

    def is_data_loop(self, loop: cst.CSTNode) -> bool:
        if isinstance(loop, cst.While):
            return True
        if isinstance(loop, (cst.For, cst.CompFor)):
            return self.iterates_data(loop.iter)
        return False

    def iterates_data(self, iterable: cst.BaseExpression) -> bool:
        inference = self.inference
        if isinstance(iterable, cst.Call):
            parts = call_name(iterable.func)
            args = positional(iterable)
            if is_range_name(parts):
                return inference.range_over_data(iterable)
            if parts in (["reversed"], ["enumerate"], ["iter"]) and args:
                return self.iterates_data(args[0])
            if parts == ["zip"]:
                return any(self.iterates_data(a) for a in args)
        kind = inference.kind(iterable)
        return kind.tag is Tag.ARRAY

    def in_data_loop(self, node: cst.CSTNode) -> bool:
        return any(self.is_data_loop(loop) for loop in self.enclosing_loops(node))

    def severity_for(self, node: cst.CSTNode) -> Severity:
        return Severity.ERROR if self.in_data_loop(node) else Severity.WARNING

    def is_store_target(self, node: cst.Subscript) -> bool:
        """True when the subscript is written (``x[i] = v``, ``x[i] += v``, ``del x[i]``)."""
        child: cst.CSTNode = node
        parent = self.parents.get(node)
        while isinstance(parent, (cst.Element, cst.Tuple, cst.List, cst.StarredElement)):
            child, parent = parent, self.parents.get(parent)
        if isinstance(parent, cst.AssignTarget):
            return True
        if isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is child:
            return True
        if isinstance(parent, cst.Del):
            return True
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is child:
            return True
        return _jax_update(node, self.parents)


def element_accesses(body: cst.CSTNode, ctx: CheckContext) -> list[cst.Subscript]:
    """Subscripts in ``body`` that read or write one element of a device array (nested
    functions excluded: they run when called, not per iteration)."""
    found: list[cst.Subscript] = []
    stack: list[cst.CSTNode] = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and node is not body:
            continue
        if isinstance(node, cst.Subscript):
            parent = ctx.parents.get(node)
            converted = isinstance(parent, cst.Arg) and is_converter_call(ctx.parents.get(parent))
            if ctx.inference.selects_element(node, converted=converted):
                found.append(node)
        stack.extend(reversed(children(node)))
    return found


def element_finding(
    code: str, node: cst.Subscript, ctx: CheckContext, action: str, in_loop: str, once: str, remedy: str, match: Match
) -> Finding:
    """SL101/SL102's shared shape: an error inside a loop over data, a warning for one access."""
    severity = ctx.severity_for(node)
    cost = in_loop if severity is Severity.ERROR else once
    return Finding(code, node, f"{action} `{short(ctx, node)}`{cost}; {remedy}", severity, match)


def short(ctx: CheckContext, node: cst.CSTNode, limit: int = 40) -> str:
    text = " ".join(ctx.source_of(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _jax_update(node: cst.Subscript, parents: dict[cst.CSTNode, cst.CSTNode]) -> bool:
    """``x.at[i].set(v)``, ``x.at[i].add(v)``: JAX's functional write of what ``x.at[i]`` selects."""
    if jax_at_base(node) is None:
        return False
    method = parents.get(node)
    call = parents.get(method) if method is not None else None
    return (
        isinstance(method, cst.Attribute) and method.value is node and method.attr.value in JAX_UPDATES
        and isinstance(call, cst.Call) and call.func is method
    )
