"""The layers run one way: the analysis (and the checks it runs) never import the fixers; the
engine hands the analyzer the fixers' entry point instead. Read from the source, so that a
lazy import inside a function counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import scalarlint

PACKAGE = Path(scalarlint.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_the_analysis_and_the_checks_do_not_import_the_fixers() -> None:
    offenders = []
    for folder in ("analysis", "checks"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            bad = {m for m in _imported_modules(path) if m == "fixers" or m.startswith(("fixers.", "scalarlint.fixers"))}
            if bad:
                offenders.append(f"{path.relative_to(PACKAGE)}: {sorted(bad)}")
    assert offenders == []


def test_the_engine_asks_for_fixes_and_the_analyzer_alone_reports_without_any(tmp_path: Path) -> None:
    from scalarlint.analysis.analyzer import FileAnalyzer
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.config import Config
    from scalarlint.engine import check_paths, index_source
    from scalarlint.analysis.index import ModuleIndex
    from scalarlint.analysis.project import Project

    text = (
        "import numpy as np\n\n\ndef rrule_norm1(x):\n    def norm1_pullback(dy):\n        dx = np.zeros_like(x)\n"
        "        for i in range(len(x)):\n            dx[i] = np.sign(x[i]) * dy\n        return (dx,)\n\n"
        "    return np.sum(np.abs(x)), norm1_pullback\n"
    )
    path = tmp_path / "rule.py"
    path.write_text(text, encoding="utf-8")
    config = Config(root=str(tmp_path), scope="all")
    through_engine = check_paths([tmp_path], config, jobs=1).diagnostics
    assert through_engine and any(d.fixes for d in through_engine)

    index = index_source(SourceFile(str(path), text, "utf-8", text.encode()), config)
    assert isinstance(index, ModuleIndex)
    targets = Project([index], config).targets(scope_all=True)[str(path)]
    analyzer = FileAnalyzer(SourceFile(str(path), text, "utf-8", text.encode()), config, config.codes_for_file(str(path)))
    alone = [reported.diagnostic for reported in analyzer.run(targets)]
    assert [d.code for d in alone] == [d.code for d in through_engine]
    assert not any(d.fixes for d in alone) and all(d.no_fix_reason is None for d in alone)


def _module_files() -> dict[str, Path]:
    """Every module of the installed product, by dotted name (``fixers/`` and ``rules/`` are
    installed as ``scalarlint.fixers`` and ``scalarlint.rules``)."""
    import scalarlint.fixers
    import scalarlint.rules

    roots = {"scalarlint": PACKAGE, "scalarlint.fixers": Path(scalarlint.fixers.__file__).parent,
             "scalarlint.rules": Path(scalarlint.rules.__file__).parent}
    found: dict[str, Path] = {}
    for name, root in roots.items():
        for path in root.rglob("*.py"):
            parts = [name, *path.relative_to(root).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found.setdefault(".".join(parts), path)
    return found


def _imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The product modules ``name`` imports, lazily or not (``if TYPE_CHECKING:`` aside):
    ``from . import x`` counts as importing ``x``, not the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                wanted.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*anchor, *([child.module] if child.module else [])])
                wanted.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in child.names)
            todo.append(child)
    out: set[str] = set()
    for target in wanted:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)
    return out


def test_no_import_circle_between_modules() -> None:
    """A circle of imports (lazy ones included) is a layering mistake a protocol or a small
    shared module breaks; the graph must be acyclic."""
    modules = _module_files()
    graph = {name: _imports_of(name, path, modules) for name, path in modules.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    circles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circles.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []
