"""The second pass: libcst with metadata on one file, running the checks inside its targets.

Only functions chosen by the first pass (rules, the helpers they reach, or everything under
``--scope all``) are walked; each walk starts at the outermost target so every node is seen
once, and a finding is labelled with the innermost rule around it. Code inside
``with allow_scalar():`` or a function decorated with it is skipped: the author declared the
intent.
"""

from __future__ import annotations

from typing import Iterable, Mapping, NamedTuple

import libcst as cst

from scalarlint.analysis import syntax_versions
from libcst.metadata import CodeRange

from scalarlint.analysis.fast_walk import break_scope_cycles, child_nodes, resolve_scopes
from scalarlint.analysis.positions import StatementPositions
from scalarlint.analysis.index import lambda_key
from scalarlint.analysis.inference import Inference, call_name
from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.project import Target
from scalarlint.analysis.sources import SourceFile
from scalarlint.analysis.tree import kept_children, parent_map, preorder, release
from scalarlint.checks import ALL_CHECKS
from scalarlint.checks.base import CheckContext, CheckModule, Finding
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, Location
from scalarlint.suppression import is_suppressed, suppressions

ALLOW_NAMES = frozenset({"allow_scalar", "allowscalar"})
_ALLOWING = kinds(cst.With, cst.FunctionDef)  # what ``allows_scalar`` reads (``node_types``)
# Compiled kernels (numba, jax.jit): their loops and element accesses run compiled on the
# device or in machine code, not as Python round trips.
KERNEL_DECORATORS = frozenset({"njit", "jit", "vectorize", "guvectorize", "stencil", "cfunc", "generated_jit"})


class Reported(NamedTuple):
    """A finding that is reported (not suppressed, confident enough) and its diagnostic, still
    without fixes: the engine asks the fixers for those (they sit above the analysis, which
    never imports them), with the finding and the analyzer as the fixers' view of the file."""

    finding: Finding
    diagnostic: Diagnostic


class ParseFailure(Exception):
    """libcst could not parse the file (the message says where)."""


def parse_module(text: str) -> cst.Module:
    """The file's libcst tree, in any grammar up to 3.14 (``syntax_versions``)."""
    try:
        return syntax_versions.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise ParseFailure(f"syntax error at {exc.raw_line}:{exc.raw_column + 1}: {exc.message}") from exc
    except Exception as exc:  # libcst raises plain exceptions for some unsupported syntax
        raise ParseFailure(f"cannot parse: {exc}") from exc


def function_keys(module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> dict[cst.CSTNode, str]:
    """The same function keys as the ast-based first pass: dotted names for ``def``s (classes
    included), ``<lambda>#K`` for the K-th lambda in source order. Read off the kept source
    order (``preorder``), testing exact node types: this runs on every analysed file."""
    keys: dict[cst.CSTNode, str] = {}
    names_of: dict[cst.CSTNode, tuple[str, ...]] = {module: ()}
    lambdas = 0
    for node in preorder(module):
        kind = type(node)
        if kind is cst.Lambda:
            keys[node] = lambda_key(lambdas)
            lambdas += 1
        elif kind is cst.FunctionDef or kind is cst.ClassDef:
            outer = parents.get(node)
            while outer is not None and outer not in names_of:
                outer = parents.get(outer)
            names = names_of[node] = (*names_of.get(outer, ()), node.name.value)  # type: ignore[attr-defined]
            if kind is cst.FunctionDef:
                keys[node] = ".".join(names)
    return keys


class _Walker:
    """Runs the checks on every node inside the target functions, in source order, skipping
    ``allow_scalar`` blocks and compiled kernels; each finding is labelled with the innermost
    rule around it. An explicit stack over the kept children (no libcst visitor dispatch)."""

    def __init__(self, analyzer: "FileAnalyzer", label_of: dict[cst.CSTNode, Target]) -> None:
        self.analyzer = analyzer
        self.label_of = label_of
        self.findings: list[tuple[Finding, Target]] = []

    def walk(self, root: cst.CSTNode, label: Target) -> None:
        labels: list[Target] = [label]
        functions: list[cst.CSTNode] = []
        leave = object()
        kept = kept_children()
        checked = self.analyzer.dispatch  # node types some check looks at
        stack: list[object] = [root]
        while stack:
            item = stack.pop()
            if item is leave:
                labels.pop()
                functions.pop()
                continue
            node: cst.CSTNode = item  # type: ignore[assignment]
            kind = type(node)
            if kind is cst.FunctionDef or kind is cst.Lambda:
                if self.analyzer.allows_scalar(node) or is_compiled_kernel(node):
                    continue
                labels.append(self.label_of.get(node) or labels[-1])
                functions.append(node)
                stack.append(leave)
                self._dispatch(node, functions[-1], labels[-1])
            elif kind is cst.With and self.analyzer.allows_scalar(node):
                continue
            elif functions and kind in checked:
                self._dispatch(node, functions[-1], labels[-1])
            below = kept.get(id(node))
            stack.extend(reversed(below if below is not None else child_nodes(node)))

    def _dispatch(self, node: cst.CSTNode, function: cst.CSTNode, label: Target) -> None:
        checks = self.analyzer.dispatch.get(type(node))
        if not checks:
            return
        ctx = self.analyzer.context
        ctx.function = function
        for check in checks:
            for finding in check.check(node, ctx):
                self.findings.append((finding, label))


class FileAnalyzer:
    def __init__(self, source: SourceFile, config: Config, codes: frozenset[str]) -> None:
        self.source = source
        self.config = config
        self.module = parse_module(source.text)
        self.parents = parent_map(self.module)
        self.scopes = resolve_scopes(self.module, kept_children())
        self._positions: Mapping[cst.CSTNode, CodeRange] | None = None
        self.dispatch: dict[type, list[CheckModule]] = {}
        for check in ALL_CHECKS:
            if check.INFO.code in codes:
                for node_type in check.NODE_TYPES:
                    self.dispatch.setdefault(node_type, []).append(check)
        self.context: CheckContext  # set in run()

    @property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """Computed on first use: most files have no finding and never pay for positions."""
        if self._positions is None:
            self._positions = StatementPositions(self.module, self.parents, self.source.text)
        return self._positions

    def allows_scalar(self, node: cst.CSTNode) -> bool:
        """``with allow_scalar():`` or a function decorated with ``@allow_scalar``."""
        exprs: list[cst.BaseExpression] = []
        if isinstance(node, cst.With):
            exprs = [item.item for item in node.items]
        elif isinstance(node, cst.FunctionDef):
            exprs = [d.decorator for d in node.decorators]
        for expr in exprs:
            func = expr.func if isinstance(expr, cst.Call) else expr
            parts = call_name(func)
            if parts and parts[-1] in ALLOW_NAMES:
                return True
            if isinstance(func, cst.Name):
                scope = self.scopes.get(func)
                if scope is not None:
                    for qn in scope.get_qualified_names_for(func):
                        if qn.name.rsplit(".", 1)[-1] in ALLOW_NAMES:
                            return True
        return False

    def run(self, targets: dict[str, Target]) -> list[Reported]:
        keys = function_keys(self.module, self.parents)
        label_of = {node: targets[key] for node, key in keys.items() if key in targets}
        rules = {node for node, target in label_of.items() if not (target.is_helper or target.registered or target.forward)}
        inference = Inference(self.config, self.scopes, self.parents, set(label_of), rules, label_of, self.module)  # type: ignore[arg-type]
        self.context = CheckContext(inference=inference, parents=self.parents, function=self.module, source_of=self.module.code_for_node)  # type: ignore[arg-type]
        walker = _Walker(self, label_of)
        for node in _outermost(label_of, self.parents):
            if self._inside_allow_scalar(node):
                continue
            walker.walk(node, label_of[node])
        return self._diagnostics(walker.findings)

    def close(self) -> None:
        """Free the analysis now (``break_scope_cycles``, and the inference's own cycle through
        its call facts) instead of at the next cyclic collection."""
        break_scope_cycles(self.scopes)
        context = getattr(self, "context", None)
        if context is not None:
            context.inference.close()
        release()

    def _inside_allow_scalar(self, node: cst.CSTNode) -> bool:
        parent = self.parents.get(node)
        while parent is not None:
            if type(parent) in _ALLOWING and self.allows_scalar(parent):
                return True
            parent = self.parents.get(parent)
        return False

    def _diagnostics(self, findings: list[tuple[Finding, Target]]) -> list[Reported]:
        """Findings that are not suppressed and reach the confidence threshold, explained
        (``checks.evidence_of``) only for what is reported, in report order."""
        from scalarlint.checks import BY_CODE
        from scalarlint.checks.evidence_of import explain

        if not findings:
            return []
        table = suppressions(self.source.text)
        out: list[Reported] = []
        seen: set[tuple[str, int]] = set()
        for finding, target in findings:
            if (finding.code, id(finding.node)) in seen:
                continue
            seen.add((finding.code, id(finding.node)))
            span = self.positions[finding.node]
            if is_suppressed(table, finding.code, span.start.line, span.end.line):
                continue
            if finding.at is not None:
                span = self.positions[finding.at]
            why = explain(finding, self.context)
            if not why.confidence.at_least(self.config.confidence):
                continue
            info = BY_CODE[finding.code].INFO
            rule = target.rule or None
            message = finding.message
            cell, start = self.source.locate(Location(span.start.line, span.start.column + 1))
            _, end = self.source.locate(Location(span.end.line, span.end.column + 1))
            diagnostic = Diagnostic(
                code=finding.code,
                name=info.name,
                message=message,
                filename=self.source.path,
                location=start,
                end_location=end,
                severity=finding.severity,
                rule=rule,
                cell=cell,
                confidence=why.confidence,
                evidence=why.evidence,
            )
            out.append(Reported(finding, diagnostic))
        return sorted(out, key=lambda reported: Diagnostic.sort_key(reported.diagnostic))


def is_compiled_kernel(node: cst.CSTNode) -> bool:
    """``@njit``, ``@numba.jit(...)``, ``@jax.jit``, ``@cuda.jit``: not Python code at run time."""
    if not isinstance(node, cst.FunctionDef):
        return False
    for decorator in node.decorators:
        expr = decorator.decorator
        parts = call_name(expr.func if isinstance(expr, cst.Call) else expr)
        if parts and parts[-1] in KERNEL_DECORATORS:
            return True
    return False


def _outermost(label_of: dict[cst.CSTNode, Target], parents: dict[cst.CSTNode, cst.CSTNode]) -> Iterable[cst.CSTNode]:
    for node in label_of:
        parent = parents.get(node)
        nested = False
        while parent is not None:
            if parent in label_of:
                nested = True
                break
            parent = parents.get(parent)
        if not nested:
            yield node
