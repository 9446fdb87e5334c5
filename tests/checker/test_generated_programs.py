"""Generated programs, a small seeded sample (the long run is ``benchmarks/generated_programs.py``,
results in ``benchmarks/results/generated_programs.md``).

The properties are the benchmark's own function, so the suite and the long run check the same
thing: no crash, fixed text compiles, fixing twice equals fixing once, edits stay inside the
finding's function, and ``--jobs 1`` equals every core.
"""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import generated_programs as gp  # noqa: E402

hypothesmith = pytest.importorskip("hypothesmith", reason="hypothesmith is in the test extra")
from hypothesis import HealthCheck, given, settings  # noqa: E402

SOURCES = gp.corpus_sources()


def _mutants(seed: int, count: int) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)
    out: list[tuple[str, list[str]]] = []
    while len(out) < count:
        made = gp.mutant(SOURCES, rng)
        if made is not None:
            out.append(made)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_mutants_of_the_corpus_keep_every_property(seed: int) -> None:
    fixed = 0
    for text, mutations in _mutants(seed, 10):
        outcome = gp.problems(text)
        assert outcome.problems == (), f"mutations {mutations}:\n" + "\n".join(outcome.problems) + "\n--- program ---\n" + text
        fixed += outcome.fixed
    assert fixed > 0  # the sample exercises the fixers, not only the checker


def test_each_mutation_keeps_the_program_valid_and_changes_it() -> None:
    rng = random.Random(7)
    text = (ROOT / "tests" / "fixers" / "corpus" / "norms.py").read_text()
    for mutation in gp.MUTATIONS:
        mutated = mutation(text, rng)
        assert mutated != text, mutation.__name__
        compile(mutated, mutation.__name__, "exec")


@settings(max_examples=25, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_grammar_programs_never_crash_the_checker(source: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        assert gp.problems(source).problems == ()


def test_findings_are_the_same_with_one_job_and_every_core() -> None:
    assert gp.jobs_agree([text for text, _ in _mutants(11, 30)]) is None
