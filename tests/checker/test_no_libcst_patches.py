"""Issue 29: scalarlint keeps its speed through its own walker and parse entry point, never by
changing libcst. A process that imports scalarlint and checks code (the second pass, the fixes)
sees libcst's classes and modules exactly as they were before the import; and the shared walks
answer the same whatever tree was analysed last (no per-thread state changes a result)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst

from scalarlint.analysis.syntax_versions import parse_module
from scalarlint.analysis.kept_fields import TRIVIA
from scalarlint.analysis.tree import children, kept_children, parent_map, preorder, release, walk, walk_all

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: libcst as installed is snapshotted before scalarlint is imported
# (in this process other tests have imported it long ago).
SNAPSHOT_AND_CHECK = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import libcst, libcst.metadata

    def classes():
        found, todo = set(), [libcst.CSTNode, libcst.CSTVisitor, libcst.CSTTransformer, libcst.MetadataWrapper,
                              libcst.metadata.BaseMetadataProvider]
        while todo:
            cls = todo.pop()
            if cls not in found:
                found.add(cls)
                todo.extend(cls.__subclasses__())
        return found

    def snapshot():
        out = {}
        for cls in classes():
            out[cls] = dict(vars(cls))
        for name, module in list(sys.modules.items()):
            if name == "libcst" or name.startswith("libcst."):
                out[name] = dict(vars(module))
        return out

    before = snapshot()
    own = (libcst.CSTNode.visit, libcst.CSTNode.__post_init__, libcst.CSTNode.__hash__)

    from scalarlint.cli import main
    for args in (["--scope", "all", sys.argv[1]], ["--diff", "--unsafe-fixes", sys.argv[2]]):
        try:
            main(["check", "--no-cache", "--jobs", "1", "--config", sys.argv[3], *args], standalone_mode=False)
        except SystemExit:
            pass

    after = snapshot()
    changed = []
    for owner, names in before.items():
        now = after.get(owner, {})
        label = owner if isinstance(owner, str) else owner.__module__ + "." + owner.__qualname__
        changed += [label + "." + name for name, value in names.items() if now.get(name, changed) is not value]
    print("CHANGED", sorted(changed))
    assert (libcst.CSTNode.visit, libcst.CSTNode.__post_init__, libcst.CSTNode.__hash__) == own
    """
)


def test_a_check_leaves_libcst_as_installed(tmp_path: Path) -> None:
    config = tmp_path / "empty.toml"  # the project's own settings exclude the corpora
    config.write_text("", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", SNAPSHOT_AND_CHECK, str(ROOT / "tests" / "corpus"), str(ROOT / "tests" / "fixers" / "corpus"), str(config)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "CHANGED []" in run.stdout, run.stdout[-3000:]
    assert "SL10" in run.stdout and "+++ " in run.stdout  # the check found something and a fix was offered


def test_libcst_methods_are_libcsts_own_here_too() -> None:
    """In this process, after every test before it: the methods the fast paths once replaced."""
    for name in ("visit", "__post_init__", "__hash__"):
        assert getattr(cst.CSTNode, name).__module__ == "libcst._nodes.base", name
    assert cst.Name.__hash__ is cst.CSTNode.__hash__
    assert cst.Name("x").visit is not None and hash(cst.Name("y")) != 0


SOURCE = '''
def f(x, xs):
    total = 0  # a comment
    for i in range(len(xs)):
        total += float(xs[i].sum()) * (x.shape[0] + 1)
    return [t for t in (total, x) if t], {"k": xs[-1]}
'''


def test_walks_answer_the_same_whatever_was_indexed_last() -> None:
    """``walk``, ``children`` and ``preorder`` give the same nodes for a tree ``parent_map``
    indexed last, for one indexed before another, and after ``release``: never the trivia."""
    first, second = parse_module(SOURCE), parse_module(SOURCE)
    function = first.body[0]

    def answers() -> tuple[list[int], list[list[int]], list[int]]:
        return (
            [id(n) for n in walk(function)],
            [[id(c) for c in children(n)] for n in walk_all(function)],
            [id(n) for n in preorder(first)],
        )

    release()
    unindexed = answers()
    try:
        parent_map(first)
        assert kept_children()
        indexed = answers()
        parent_map(second)
        indexed_before = answers()
    finally:
        release()
    assert unindexed == indexed == indexed_before
    everything = list(walk_all(function))
    assert len(unindexed[0]) == sum(1 for n in everything if type(n) not in TRIVIA) < len(everything)
