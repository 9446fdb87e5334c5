"""The guarantees of the fix loop: it parses, it is idempotent, it keeps what it does not
touch, it settles conflicts deterministically, it stops, and it writes files safely."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from scalarlint.fixers import engine, write_back
from scalarlint.fixers.outcomes import FileFix

from scalarlint import fixers
from scalarlint.analysis.sources import read_source
from scalarlint.config import Config
from scalarlint.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Location,
    Severity,
)

CORPUS = Path(__file__).with_name("corpus")
CHAINRULES = Path(__file__).parents[1] / "chainrules_corpus"
# both corpora of the fix validation: the fixers' own and the ChainRules translations
CORPUS_FILES = sorted(CORPUS.glob("*.py")) + sorted(CHAINRULES.glob("*.py"))


@pytest.mark.parametrize("unsafe", [False, True])
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_corpus_fixes_parse_and_fixing_twice_equals_once(path: Path, unsafe: bool) -> None:
    source = read_source(path)
    assert not isinstance(source, Exception)
    once = engine.fix_source(source, Config(), unsafe)
    assert once.error is None
    assert engine.parses(once.text)
    compile(once.text, str(path), "exec")
    twice = engine.fix_source(engine._with_text(source, once.text), Config(), unsafe)
    assert twice.text == once.text
    assert twice.applied == []
    assert [d.sort_key() for d in twice.remaining] == [d.sort_key() for d in once.remaining]


def _comments(text: str, leaving_out: set[int] = frozenset()) -> list[str]:  # type: ignore[assignment]
    import io
    import tokenize

    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return sorted(t.string for t in tokens if t.type == tokenize.COMMENT and t.start[0] not in leaving_out)


def _search_loop_rows(text: str, diagnostics: list[Diagnostic]) -> set[int]:
    """The rows of each vectorized search loop (SL103 on a ``for``), with the comment lines
    directly above it: its comments described the loop and go with it."""
    lines = text.splitlines()
    rows: set[int] = set()
    for d in diagnostics:
        if d.code != "SL103" or not lines[d.location.row - 1].lstrip().startswith("for "):
            continue
        top = d.location.row
        while top > 1 and lines[top - 2].lstrip().startswith("#"):
            top -= 1
        rows.update(range(top, d.end_location.row + 1))
    return rows


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_fixes_keep_every_comment_and_add_imports_once(path: Path) -> None:
    source = read_source(path)
    assert not isinstance(source, Exception)
    fixed = engine.fix_source(source, Config(allow_scalar_import_configured=True), True)  # imports wanted
    assert fixed.applied, "the corpus file has something to fix"
    # kept (moved above a rewritten loop) except a rewritten search loop's own: never false
    searches = _search_loop_rows(source.text, [d for d in fixed.applied if d.code == "SL103"])
    assert _comments(fixed.text) == _comments(source.text, searches)
    imports = [line for line in fixed.text.splitlines() if line.startswith("from scalarlint.runtime import")]
    assert len(imports) <= 1
    names = [name.strip() for line in imports for name in line.split(" import ", 1)[1].split(",")]
    assert len(names) == len(set(names))


def test_unsafe_run_fixes_more_of_the_corpus_than_the_safe_run() -> None:
    safe = unsafe = 0
    for path in CORPUS_FILES:
        source = read_source(path)
        safe += len(engine.fix_source(source, Config(), False).applied)
        unsafe += len(engine.fix_source(source, Config(), True).applied)
    assert 0 < safe < unsafe


FORMATTED = '''\
"""Odd formatting and comments everywhere; only the fixed lines may change."""
import array_api_compat   # trailing comment


# a comment block
#   indented inside
def rrule_odd(x) :
    xp = array_api_compat.array_namespace( x )
    y = xp.max( xp.abs(x) )    # keep spacing

    def odd_pullback(dy):
        # before the search
        i = -1
        for j in range(len(x)):  # the loop
            if abs(x[j]) == y:
                i = j
        # after the search
        total = sum(  x  )
        dx = xp.zeros_like(x);   dx[i] = xp.sign(x[i]) * dy   # two statements
        return (dx * total ,)

    return y , odd_pullback
'''


def test_comments_and_formatting_outside_the_edits_are_kept(snip) -> None:
    outcome = snip.fixed(FORMATTED, unsafe=True)
    before, after = FORMATTED.splitlines(), outcome.text.splitlines()
    removed = [line for line in before if line not in after]
    assert removed == [
        "        i = -1",
        "        for j in range(len(x)):  # the loop",
        "            if abs(x[j]) == y:",
        "                i = j",
        "        total = sum(  x  )",
    ]
    added = [line for line in after if line not in before]
    assert added == [
        # the loop's own comment described the loop and goes with it (issue 26)
        "        i = xp.where(xp.any(xp.abs(x) == y), len(x) - 1 - xp.argmax(xp.astype(xp.flip(xp.abs(x) == y), xp.int8)), -1)",
        "        total = xp.sum(x, axis=0)",
    ]


# -- conflicts -----------------------------------------------------------------------------------
def _diag(row: int, col: int, *fixes: Fix) -> Diagnostic:
    loc = Location(row, col)
    return Diagnostic("SL101", "scalar-getindex", "m", "f.py", loc, loc, Severity.WARNING, fixes=fixes)


def _fix(applicability: Applicability, *spans: tuple[int, int, int, int, str]) -> Fix:
    return Fix(applicability, "f", tuple(Edit(text, Location(r1, c1), Location(r2, c2)) for r1, c1, r2, c2, text in spans))


SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE
TEXT = "aaaa\nbbbb\ncccc\n"


def test_overlapping_fixes_earlier_wins_and_order_does_not_matter() -> None:
    first = _diag(1, 1, _fix(SAFE, (1, 1, 1, 3, "X")))
    second = _diag(1, 2, _fix(SAFE, (1, 2, 1, 4, "Y")))
    third = _diag(2, 1, _fix(SAFE, (2, 1, 2, 2, "Z")))
    for order in ([first, second, third], [third, second, first]):
        chosen = engine.select_fixes(TEXT, order, unsafe=False)
        assert [d for d, _ in chosen] == [first, third]


def test_safe_fixes_win_over_earlier_unsafe_ones() -> None:
    unsafe = _diag(1, 1, _fix(UNSAFE, (1, 1, 1, 5, "U")))
    safe = _diag(1, 3, _fix(SAFE, (1, 3, 1, 4, "S")))
    assert [d for d, _ in engine.select_fixes(TEXT, [unsafe, safe], unsafe=True)] == [safe]
    assert [d for d, _ in engine.select_fixes(TEXT, [unsafe, safe], unsafe=False)] == [safe]


def test_identical_edits_are_shared_and_insertions_at_one_point_conflict() -> None:
    imp = (1, 1, 1, 1, "import a\n")
    a = _diag(2, 1, _fix(UNSAFE, imp, (2, 1, 2, 5, "A")))
    b = _diag(3, 1, _fix(UNSAFE, imp, (3, 1, 3, 5, "B")))
    c = _diag(3, 2, _fix(UNSAFE, (1, 1, 1, 1, "other\n")))
    chosen = engine.select_fixes(TEXT, [a, b, c], unsafe=True)
    assert [d for d, _ in chosen] == [a, b]
    assert engine._apply(TEXT, [f for _, f in chosen]) == "import a\naaaa\nA\nB\n"


def test_applicable_fix_prefers_safe() -> None:
    d = _diag(1, 1, _fix(UNSAFE, (1, 1, 1, 2, "u")), _fix(SAFE, (1, 1, 1, 2, "s")))
    assert engine.applicable_fix(d, False).edits[0].content == "s"
    only_unsafe = _diag(1, 1, _fix(UNSAFE, (1, 1, 1, 2, "u")))
    assert engine.applicable_fix(only_unsafe, False) is None
    assert engine.applicable_fix(only_unsafe, True).edits[0].content == "u"


# -- loop bounds and verification ------------------------------------------------------------------
LOOPY = "import numpy as np\n\n\ndef rrule_s(x):\n    return x[len(x) - 1] * 2\n"


def test_a_fixer_that_never_converges_is_stopped(snip, monkeypatch: pytest.MonkeyPatch) -> None:
    def restless(finding, analyzer):
        return [Fix(SAFE, "comment", (Edit("# again\n", Location(1, 1), Location(1, 1)),))]

    monkeypatch.setitem(fixers.BY_CODE_FIXERS, "SL101", (restless,))
    outcome = snip.fixed(LOOPY, unsafe=False)
    assert outcome.rounds == engine.MAX_ROUNDS
    assert outcome.text.count("# again\n") == engine.MAX_ROUNDS
    assert len(outcome.remaining) == 1


def test_a_fix_that_breaks_the_syntax_is_dropped(snip, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(finding, analyzer):
        start, end = Location(5, 12), Location(5, 26)
        return [Fix(SAFE, "broken", (Edit("x[(", start, end),))]

    monkeypatch.setitem(fixers.BY_CODE_FIXERS, "SL101", (broken,))
    outcome = snip.fixed(LOOPY, unsafe=False)
    assert outcome.text == LOOPY and outcome.applied == [] and len(outcome.remaining) == 1


def test_unparsable_source_is_an_error_not_a_fix(snip) -> None:
    outcome = engine.fix_source(snip.source("def rrule_x(x:\n    return x[0]\n"), Config(), True)
    assert outcome.error is not None and outcome.text.startswith("def rrule_x(x:")


# -- writing files -----------------------------------------------------------------------------------
RULE = "def rrule_f(x):\n    xp = array_namespace(x)\n    return xp.zeros_like(x), sum(x.reshape(-1))\n"
FIXED_LINE = "xp.sum(x.reshape(-1))"


def _fix_file(path: Path) -> FileFix:
    run = engine.fix_paths([path], Config(), unsafe=False)
    assert run.errors == [] and len(run.files) == 1
    return run.files[0]


@pytest.mark.parametrize(
    ("encoding", "header", "newline"),
    [
        ("utf-8", "", "\n"),
        ("utf-8-sig", "", "\n"),
        ("utf-8", "", "\r\n"),
        ("latin-1", "# -*- coding: latin-1 -*-\n# caf\u00e9\n", "\n"),
    ],
)
def test_written_file_keeps_encoding_bom_newlines_and_mode(tmp_path: Path, encoding: str, header: str, newline: str) -> None:
    text = (header + "from array_api_compat import array_namespace\n" + RULE).replace("\n", newline)
    path = tmp_path / "rule.py"
    path.write_bytes(text.encode(encoding))
    os.chmod(path, 0o640)
    fixed = _fix_file(path)
    assert write_back.write_atomic(fixed) is None
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") == (encoding == "utf-8-sig")
    decoded = raw.decode(encoding)
    assert FIXED_LINE in decoded
    assert decoded.replace(FIXED_LINE, "sum(x.reshape(-1))") == text
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["rule.py"]  # no temporary file left behind


def test_file_changed_on_disk_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    path.write_text("from array_api_compat import array_namespace\n" + RULE, encoding="utf-8")
    fixed = _fix_file(path)
    path.write_text("# someone else's edit\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    error = write_back.write_atomic(fixed)
    assert error is not None and "changed on disk" in error.message
    assert path.read_text(encoding="utf-8").startswith("# someone else's edit\n")
    assert [p.name for p in tmp_path.iterdir()] == ["rule.py"]


def test_no_final_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    path.write_text(("from array_api_compat import array_namespace\n" + RULE).rstrip("\n"), encoding="utf-8")
    fixed = _fix_file(path)
    assert write_back.write_atomic(fixed) is None
    assert path.read_text(encoding="utf-8").endswith(FIXED_LINE)


def test_helpers_reached_from_rules_in_other_modules_are_fixed(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "rules.py").write_text(
        "from pkg.helpers import total\n\n\ndef rrule_total(x):\n    return total(x), lambda dy: (dy,)\n", encoding="utf-8"
    )
    helper = "import numpy as np\n\n\ndef total(x):\n    return sum(x.reshape(-1))\n"
    (pkg / "helpers.py").write_text(helper, encoding="utf-8")
    alone = engine.fix_source(read_source(pkg / "helpers.py"), Config(), False)
    assert alone.original == [] and alone.text == helper  # on its own, a helper is not checked
    run = engine.fix_paths([pkg], Config(), unsafe=False)
    fixed = {Path(f.path).name: f for f in run.files}
    assert fixed["helpers.py"].outcome.text == helper.replace("sum(x.reshape(-1))", "np.sum(x.reshape(-1))")
    assert [d.rule for d in fixed["helpers.py"].outcome.original] == ["pkg.rules:rrule_total"]


def test_editor_buffers_with_uri_paths(snip) -> None:
    source = snip.source(LOOPY.replace("x[len(x) - 1] * 2", "sum(x.reshape(-1))"), path="file:///tmp/untitled-1")
    outcome = engine.fix_source(source, Config(), False)
    assert "np.sum(x.reshape(-1))" in outcome.text and outcome.remaining == []


def test_write_goes_through_a_temporary_file_in_the_same_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "rule.py"
    path.write_text("from array_api_compat import array_namespace\n" + RULE, encoding="utf-8")
    fixed = _fix_file(path)
    calls: list[tuple[str, str]] = []
    real_replace = os.replace

    def spy(src, dst):  # noqa: ANN001, ANN202 - test double
        calls.append((str(src), str(dst)))
        assert Path(src).read_text(encoding="utf-8") == fixed.outcome.text  # complete before the swap
        real_replace(src, dst)

    monkeypatch.setattr(write_back.os, "replace", spy)
    assert write_back.write_atomic(fixed) is None
    assert len(calls) == 1 and Path(calls[0][0]).parent == tmp_path and calls[0][1] == str(path)


# -- links, permissions, full disks, killed runs ----------------------------------------------------
def _rule_file(path: Path) -> None:
    path.write_text("from array_api_compat import array_namespace\n" + RULE, encoding="utf-8")


def test_symlink_inside_the_tree_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    _rule_file(target)
    link = tmp_path / "link.py"
    link.symlink_to(target.name)
    source, mtime = write_back.read_for_fix(str(link))  # type: ignore[misc]
    fixed = FileFix(source, engine.fix_source(source, Config(), False), mtime)
    assert write_back.write_atomic(fixed, root=tmp_path) is None
    assert link.is_symlink() and os.readlink(link) == "real.py"
    assert FIXED_LINE in target.read_text(encoding="utf-8")


def test_symlink_to_a_file_outside_the_tree_is_refused(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    target = outside / "real.py"
    _rule_file(target)
    before = target.read_bytes()
    link = tree / "link.py"
    link.symlink_to(target)
    source, mtime = write_back.read_for_fix(str(link))  # type: ignore[misc]
    fixed = FileFix(source, engine.fix_source(source, Config(), False), mtime)
    error = write_back.write_atomic(fixed, root=tree)
    assert error is not None and "outside the checked tree" in error.message
    assert target.read_bytes() == before and link.is_symlink()


def test_hard_links_stay_one_file(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    _rule_file(path)
    other = tmp_path / "same.py"
    os.link(path, other)
    inode = os.stat(path).st_ino
    assert write_back.write_atomic(_fix_file(path), root=tmp_path) is None
    assert os.stat(path).st_ino == inode == os.stat(other).st_ino and os.stat(path).st_nlink == 2
    assert FIXED_LINE in other.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rule.py", "same.py"]


def test_read_only_files_are_refused_unless_asked(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    _rule_file(path)
    os.chmod(path, 0o444)
    before = path.read_bytes()
    fixed = _fix_file(path)
    error = write_back.write_atomic(fixed)
    assert error is not None and "read-only" in error.message and path.read_bytes() == before
    assert write_back.write_atomic(fixed, read_only=True) is None
    assert FIXED_LINE in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o444


def test_a_full_disk_leaves_the_original_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    path = tmp_path / "rule.py"
    _rule_file(path)
    before = path.read_bytes()
    fixed = _fix_file(path)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(write_back.os, "fsync", full)
    error = write_back.write_atomic(fixed)
    assert error is not None and "No space left on device" in error.message
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["rule.py"]


def test_temporary_files_of_a_killed_run_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    _rule_file(path)
    leftover = tmp_path / ".rule.py.abc123.scalarlint-fix"
    leftover.write_text("half a file")
    assert write_back.write_atomic(_fix_file(path)) is None
    assert [p.name for p in tmp_path.iterdir()] == ["rule.py"]


def test_cli_fix_read_only_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from scalarlint.cli import main

    path = tmp_path / "rule.py"
    _rule_file(path)
    os.chmod(path, 0o444)
    monkeypatch.chdir(tmp_path)
    refused = CliRunner().invoke(main, ["check", "--fix", "rule.py"])
    assert refused.exit_code == 2 and "read-only" in refused.output
    assert FIXED_LINE not in path.read_text(encoding="utf-8")
    done = CliRunner().invoke(main, ["check", "--fix", "--fix-read-only", "rule.py"])
    assert done.exit_code == 0, done.output
    assert FIXED_LINE in path.read_text(encoding="utf-8")


KILL = """
import os, sys
from scalarlint.config import Config
from scalarlint.fixers import engine, write_back
from scalarlint.fixers.outcomes import FileFix
path = sys.argv[1]
source, mtime = write_back.read_for_fix(path)
fixed = FileFix(source, engine.fix_source(source, Config(), False), mtime)
if sys.argv[2] == "before-replace":
    write_back.os.replace = lambda *a: os._exit(9)  # killed between the temporary file and the replace
else:
    write_back.os.fsync = lambda fd: os._exit(9)  # killed while the new bytes are being written
write_back.write_atomic(fixed)
"""


@pytest.mark.parametrize("moment", ["before-replace", "during-write"])
def test_a_killed_run_leaves_the_file_as_it_was_and_the_next_run_cleans_up(tmp_path: Path, moment: str) -> None:
    import subprocess
    import sys

    path = tmp_path / "rule.py"
    _rule_file(path)
    before = path.read_bytes()
    killed = subprocess.run([sys.executable, "-c", KILL, str(path), moment], capture_output=True)
    assert killed.returncode == 9
    assert path.read_bytes() == before  # as it was, never half written
    assert write_back.write_atomic(_fix_file(path)) is None  # the next run fixes it
    assert FIXED_LINE in path.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["rule.py"]  # and no temporary file is left
