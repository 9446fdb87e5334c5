"""One small fixture per pattern of each check, and a snapshot of ``--diff`` for each one a fixer rewrites.

Layout: ``tests/checks/SLNNN/<pattern>.py`` is a short AD rule (a ``torch.autograd.Function``
backward, a jax ``custom_vjp`` bwd, a chainer ``FunctionNode``, an autograd ``defvjp`` vjp
maker, an ``rrule`` pullback) showing one pattern check SLNNN flags. The comments follow
``tests/checker/test_corpus.py``: a line ending in ``# expect: SL101 SL102`` must yield exactly
those codes, every other line must yield nothing (so the fixtures hold near-misses too), and
SL107, opt-in, is written ``# expect-sl107: SL107``: such a fixture (and every fixture in
``SL107/``) is also checked with ``select = ["SL1"]``, where it must yield the union of both
kinds of comment. Fixture names must not start with ``test_`` (pytest would collect them);
they are parsed, never imported.

Next to each fixture that some fixer rewrites lies ``<pattern>.diff``: exactly what
``scalarlint check --diff --unsafe-fixes <pattern>.py`` prints when run from the fixture's own
folder (so the diff's header names ``./<pattern>.py`` wherever pytest runs). A fixture that no
fixer changes has no ``.diff``.

The tests, one parametrised set for every fixture:

* its findings are exactly its expect comments, and its folder's code is among them;
* its ``--diff`` output equals its snapshot (none when nothing changes);
* the fixed text parses and fixing it again changes nothing;
* and, once for the whole tree: every check SL101 to SL107 has a folder with a fixture, every
  fixer a check lists (``scalarlint.fixers.FIXERS``) rewrites at least one fixture, and no snapshot is left
  without its fixture.

To add a pattern, write the fixture, run ``scalarlint check`` on it to make its expect comments
true, then write its snapshot. Regenerate snapshots with

    SCALARLINT_UPDATE_SNAPSHOTS=1 pytest tests/checks

which rewrites each ``.diff`` from the CLI's output (and deletes one whose fixture no longer
changes); review them with ``git diff`` before committing. A plain run never writes anything.
The larger per-framework corpora (``tests/corpus/``, ``tests/fixers/corpus/``,
``tests/chainrules_corpus/``) stay as integration tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from scalarlint.fixers import engine

from scalarlint import fixers
from scalarlint.analysis.sources import read_source
from scalarlint.cli import main
from scalarlint.config import Config
from scalarlint.engine import check_paths

from expect_comments import EXPECT, EXPECT_SL107, expected  # tests/ is on the path through its conftest

CHECKS = Path(__file__).resolve().parent
CODES = tuple(f"SL10{n}" for n in range(1, 8))
UPDATE = os.environ.get("SCALARLINT_UPDATE_SNAPSHOTS") == "1"

FIXTURES = sorted(p for code in CODES for p in (CHECKS / code).glob("*.py"))
SNAPSHOTS = sorted(p for code in CODES for p in (CHECKS / code).glob("*.diff"))


@pytest.fixture(autouse=True)
def _fixer_errors_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixer that crashes fails the test instead of logging a warning (as in tests/fixers/)."""
    monkeypatch.setenv("SCALARLINT_FIXER_ERRORS", "raise")


def _id(path: Path) -> str:
    return path.relative_to(CHECKS).as_posix()


def _snapshot(fixture: Path) -> Path:
    return fixture.with_suffix(".diff")


def _opted_in(path: Path) -> bool:
    return path.parent.name == "SL107" or bool(expected(path, EXPECT_SL107))


@cache
def found(path: Path, opt_in: bool) -> frozenset[tuple[int, str]]:
    """(line, code) of every finding in one fixture, checked alone as test_corpus.py checks."""
    config = Config(root=str(CHECKS), select=("SL1",)) if opt_in else Config(root=str(CHECKS))
    result = check_paths([path], config, jobs=1)
    assert result.errors == []
    return frozenset((d.location.row, d.code) for d in result.diagnostics)


def diff_output(fixture: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Exit code and stdout of ``scalarlint check --diff --unsafe-fixes <name>`` in the fixture's folder."""
    monkeypatch.chdir(fixture.parent)
    result = CliRunner().invoke(main, ["check", "--diff", "--unsafe-fixes", fixture.name], catch_exceptions=False)
    return result.exit_code, result.stdout


@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_findings_are_the_expect_comments(path: Path) -> None:
    want = expected(path, EXPECT)
    got = found(path, False)
    assert sorted(got - want) == [], "unexpected findings (false positives)"
    assert sorted(want - got) == [], "missed findings (false negatives)"
    if _opted_in(path):
        want_opted = want | expected(path, EXPECT_SL107)
        got_opted = found(path, True)
        assert sorted(got_opted - want_opted) == [], "unexpected findings with SL107 selected"
        assert sorted(want_opted - got_opted) == [], "missed findings with SL107 selected"
        want = want_opted
    assert path.parent.name in {code for _, code in want}, f"no line of it expects {path.parent.name}"


@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_diff_equals_the_snapshot(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, diff = diff_output(path, monkeypatch)
    snapshot = _snapshot(path)
    if UPDATE:
        if diff:
            with open(snapshot, "w", encoding="utf-8", newline="") as out:
                out.write(diff)
        else:
            snapshot.unlink(missing_ok=True)
    if not diff:
        assert code == 0
        assert not snapshot.exists(), f"nothing changes now: delete {_id(snapshot)}"
        return
    assert code == 1
    assert diff.startswith(f"--- ./{path.name}\n+++ ./{path.name}\n")
    assert snapshot.exists(), f"no snapshot: run with SCALARLINT_UPDATE_SNAPSHOTS=1 to write {_id(snapshot)}"
    assert diff == snapshot.read_text(encoding="utf-8")


def _fix(path: Path) -> engine.FixOutcome:
    source = read_source(path)
    assert not isinstance(source, Exception)
    outcome = engine.fix_source(source, Config(), True)
    assert outcome.error is None
    return outcome


@pytest.mark.parametrize("path", [p for p in FIXTURES if _snapshot(p).exists()], ids=_id)
def test_fixed_fixture_parses_and_fixing_again_changes_nothing(path: Path) -> None:
    source = read_source(path)
    assert not isinstance(source, Exception)
    once = _fix(path)
    assert once.text != source.text
    assert engine.parses(once.text)
    compile(once.text, str(path), "exec")
    twice = engine.fix_source(engine._with_text(source, once.text), Config(), True)
    assert twice.error is None
    assert twice.text == once.text
    assert twice.applied == []


@pytest.fixture(scope="module")
def fixers_used() -> dict[str, set[str]]:
    """For each fixer module in FIXERS, the fixtures whose fixing applied one of its fixes."""
    made: dict[object, str] = {}

    def recording(fixer: fixers.FixerFunc) -> fixers.FixerFunc:
        def wrapped(finding, analyzer):  # type: ignore[no-untyped-def]
            out = fixer(finding, analyzer)
            for fix in out if isinstance(out, list) else ():  # (a Declined answer made no fix)
                made[fix] = fixer.__module__
            return out

        return wrapped

    used: dict[str, set[str]] = {fixer.__module__: set() for _, fixer in fixers.FIXERS}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCALARLINT_FIXER_ERRORS", "raise")
        wrapped = {fixer: recording(fixer) for _, fixer in fixers.FIXERS}
        for code, funcs in fixers.BY_CODE_FIXERS.items():
            patch.setitem(fixers.BY_CODE_FIXERS, code, tuple(wrapped[f] for f in funcs))
        for path in FIXTURES:
            for diagnostic in _fix(path).applied:
                fix = engine.applicable_fix(diagnostic, True)
                if fix in made:
                    used[made[fix]].add(_id(path))
    return used


def _fixer_ids() -> Iterator[str]:
    for _, fixer in fixers.FIXERS:
        yield fixer.__module__.rsplit(".", 1)[-1]


def test_every_check_has_a_folder_with_fixtures() -> None:
    for code in CODES:
        assert [p for p in FIXTURES if p.parent.name == code], f"no fixture in tests/checks/{code}/"
    assert not [p for p in FIXTURES if p.name.startswith("test_") or p.stem.endswith("_test")], "pytest would collect it"


@pytest.mark.parametrize("name", list(_fixer_ids()))
def test_every_fixer_rewrites_a_fixture(name: str, fixers_used: dict[str, set[str]]) -> None:
    rewritten = {module.rsplit(".", 1)[-1]: paths for module, paths in fixers_used.items()}
    assert rewritten[name], f"no fixture is rewritten by fixers/{name}.py"


def test_every_snapshot_has_its_fixture() -> None:
    assert [_id(p) for p in SNAPSHOTS if not p.with_suffix(".py").exists()] == []


def test_each_check_module_leads_to_its_fixers_and_fixtures() -> None:
    """The newcomer's path: a check's module names its fixture folder in its docstring and its
    fixers (modules of ``fixers/``) in ``INFO.fixers``; that file and one folder listing hold
    everything about the check."""
    from scalarlint.checks import BY_CODE

    fixer_folder = Path(fixers.__file__).parent
    for code, check in BY_CODE.items():
        assert f"tests/checks/{code}/" in (check.__doc__ or ""), f"{check.__name__} does not name tests/checks/{code}/"
        assert (CHECKS / code).is_dir()
        for name in check.INFO.fixers:
            assert (fixer_folder / f"{name}.py").is_file(), f"{code} names fixers/{name}.py, which does not exist"
