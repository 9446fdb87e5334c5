"""The ChainRules corpus (tests/chainrules_corpus): ChainRules.jl rules translated to Python in
their scalar-indexing form, every line labelled. The acceptance bar of the detection work:
recall >= 0.90 at precision >= 0.95 over at least 40 rules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "chainrules_corpus"
sys.path.insert(0, str(ROOT / "benchmarks"))

import recall  # noqa: E402


def test_corpus_holds_at_least_forty_rules() -> None:
    rules = [
        node.name
        for path in CORPUS.glob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("rrule_")
    ]
    assert len(rules) >= 40, rules
    assert len(set(rules)) == len(rules), "rule names repeat"


def test_recall_and_precision_on_the_corpus() -> None:
    score = recall.corpus_score(CORPUS)
    labelled = sum(score.true_by_kind.values())
    assert labelled >= 100  # every kind of finding, many times over
    assert set(score.true_by_kind) == {"SL101", "SL102", "SL103", "SL104", "SL105", "SL106"}
    assert score.recall >= 0.90, "missed:\n" + "\n".join(score.misses)
    assert score.precision >= 0.95, "findings on no label:\n" + "\n".join(score.unlabelled)
