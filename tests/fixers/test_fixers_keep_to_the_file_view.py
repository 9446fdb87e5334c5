"""The fixers see an analysed file only through ``scalarlint.analysis.file_view.AnalyzedFile``.

Every attribute a fixer reads off its ``analyzer`` argument (and off ``analyzer.context`` and
``analyzer.context.inference``, directly or through a local alias such as ``ctx`` or
``inference``) must be a member of the view, and no fixer imports the analysis's
``FileAnalyzer``: then the analysis can change how it works out its answers without touching a
fixer. The scan reads the fixers' source with ``ast``; it fails on a fixer that reaches past the
view (try ``analyzer.dispatch`` in any fixer).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scalarlint.analysis import file_view

FIXERS = Path(__file__).resolve().parents[2] / "fixers"
LEVELS = {
    "file": file_view.AnalyzedFile,
    "context": file_view.LoopFacts,
    "inference": file_view.ValueKinds,
}
NEXT_LEVEL = {("file", "context"): "context", ("context", "inference"): "inference"}


def _members(protocol: type) -> set[str]:
    return set(getattr(protocol, "__annotations__", {})) | {n for n in vars(protocol) if not n.startswith("_")}


def _reads(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, level, member) for each attribute read off ``analyzer`` or an alias of one of
    its levels; aliases are names assigned ``analyzer.context`` or ``analyzer.context.inference``."""
    aliases = {"analyzer": "file"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            level = _level_of(node.value, aliases)
            if level is not None and level != "file":
                aliases[node.targets[0].id] = level
    reads: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            level = _level_of(node.value, aliases)
            if level is not None:
                reads.append((node.lineno, level, node.attr))
    return reads


def _level_of(expr: ast.expr, aliases: dict[str, str]) -> str | None:
    """Which level of the view ``expr`` is: the file, its loop facts or its value kinds."""
    if isinstance(expr, ast.Name):
        return aliases.get(expr.id)
    if isinstance(expr, ast.Attribute):
        outer = _level_of(expr.value, aliases)
        return NEXT_LEVEL.get((outer, expr.attr)) if outer is not None else None
    return None


@pytest.mark.parametrize("path", sorted(FIXERS.glob("*.py")), ids=lambda p: p.name)
def test_a_fixer_reads_only_the_members_of_the_view(path: Path) -> None:
    tree = ast.parse(path.read_text())
    outside = [
        f"{path.name}:{line}: {level}.{member}"
        for line, level, member in _reads(tree)
        if member not in _members(LEVELS[level])
    ]
    assert not outside, outside


@pytest.mark.parametrize("path", sorted(FIXERS.glob("*.py")), ids=lambda p: p.name)
def test_a_fixer_does_not_name_the_analyzer(path: Path) -> None:
    assert "scalarlint.analysis.analyzer" not in path.read_text()


def test_the_scan_finds_a_read_past_the_view() -> None:
    reads = _reads(ast.parse("def f(finding, analyzer):\n    ctx = analyzer.context\n    return analyzer.dispatch, ctx.function\n"))
    outside = [(level, member) for _, level, member in reads if member not in _members(LEVELS[level])]
    assert outside == [("file", "dispatch"), ("context", "function")]


def test_the_analyzer_offers_every_member_of_the_view() -> None:
    from scalarlint.analysis.analyzer import FileAnalyzer
    from scalarlint.analysis.inference import Inference
    from scalarlint.checks.base import CheckContext

    offered = {
        "file": set(dir(FileAnalyzer)) | set(FileAnalyzer.__init__.__code__.co_names) | {"context"},
        "context": set(dir(CheckContext)) | set(getattr(CheckContext, "__annotations__", {})),
        "inference": set(dir(Inference)) | set(Inference.__init__.__code__.co_names),
    }
    for level, protocol in LEVELS.items():
        assert _members(protocol) <= offered[level], (level, _members(protocol) - offered[level])
