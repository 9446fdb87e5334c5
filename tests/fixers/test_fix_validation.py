"""The fixers are validated, not trusted: fix the corpus with the CLI, then compare every
fixed rule with ``scalarlint.rules`` and run it on the strict array
(``benchmarks/fix_validation.py`` does the work and writes the committed table)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_validation():
    name = "_scalarlint_fix_validation"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "fix_validation.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


fv = _load_validation()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory):
    fixed = tmp_path_factory.mktemp("fixval") / "corpus"
    proc = fv.fix_corpus(fixed)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert "Fixed" in proc.stdout
    return fv.validate(fixed, trials=25)


def test_corpus_is_large_enough() -> None:
    assert len(fv.CASES) >= 40
    assert len({c.id for c in fv.CASES}) == len(fv.CASES)


def test_every_fixed_rule_agrees_with_the_reference(results) -> None:
    bad = {r.case.id: r.failures for r in results if not r.agrees}
    assert bad == {}
    assert sum(r.agreed for r in results) == sum(r.trials for r in results)


def test_rules_still_needing_scalar_access_are_the_documented_ones(results) -> None:
    unclean = {r.case.id for r in results if not r.strict_clean}
    assert unclean == set(fv.UNFIXABLE)
    for r in results:
        assert not r.strict_before == "clean", f"{r.case.id} was already clean: not a useful corpus rule"
        assert sum(r.before.values()) > 0, f"{r.case.id} has no finding by default: nothing for --fix to act on"
        if r.strict_clean:
            assert sum(r.remaining.values()) == 0, r.case.id


def _stable(line: str) -> str:
    """A table row without its trial count (which depends on ``--trials``)."""
    if not line.startswith("| `"):
        return line
    cells = line.split("|")
    cells[5] = ""
    return "|".join(cells)


def test_committed_table_is_current(results) -> None:
    committed = (ROOT / "benchmarks" / "results" / "fix_validation.md").read_text(encoding="utf-8")
    committed_lines = {_stable(line) for line in committed.splitlines()}
    for line in fv.render_markdown(results).splitlines():
        if line.startswith(("- strict-clean", "| `")):
            assert _stable(line) in committed_lines, f"regenerate benchmarks/results/fix_validation.md: {line}"
