"""Every finding says why: its confidence and its evidence, the threshold that hides the less
certain ones, and the formats and the cache that carry them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scalarlint.analysis.sources import SourceFile
from scalarlint.cache import Cache
from cli_samples import run_cli as run  # tests/checker is on sys.path (pytest's default import mode)
from scalarlint.config import Config, ConfigError, config_from_table
from scalarlint.diagnostics import Confidence, Diagnostic
from scalarlint.engine import check_files, check_source

# Issue 27's example 1: an array the pullback builds (high) and the rule's parameter (medium).
NORM1 = """\
import numpy as np


def rrule_norm1(x):
    def norm1_pullback(dy):
        dx = np.zeros_like(x)
        for i in range(len(x)):
            dx[i] = np.sign(x[i]) * dy
        return (dx,)
    return np.sum(np.abs(x)), norm1_pullback
"""
# Only a rule's parameter is read: every finding is medium.
PARAMETER_ONLY = """\
def rrule_total(x):
    def total_pullback(dy):
        s = 0.0
        for i in range(len(x)):
            s += x[i]
        return (dy * s,)
    return x, total_pullback
"""
# ``v`` comes back from a call the inference cannot follow: only the low tier reports it (and
# not a row handed to an array function, nor a value tested as a list).
UNKNOWN_WALK = """\
from somewhere import load


def rrule_walk(x):
    v = load(x)
    def walk_pullback(dy):
        out = []
        for i in range(len(v)):
            if v[i] > 0:
                out.append(dy)
        return (out,)
    return x, walk_pullback
"""


def findings(text: str, **settings: object) -> list[Diagnostic]:
    found = check_source(SourceFile("m.py", text, "utf-8", text.encode()), Config(**settings))  # type: ignore[arg-type]
    assert isinstance(found, list)
    return found


def at(found: list[Diagnostic], code: str, row: int) -> Diagnostic:
    matches = [d for d in found if d.code == code and d.location.row == row]
    assert len(matches) == 1, [(d.code, d.location.row) for d in found]
    return matches[0]



def test_an_array_built_by_zeros_like_is_high_and_the_evidence_names_the_call() -> None:
    write = at(findings(NORM1), "SL102", 8)
    assert write.confidence is Confidence.HIGH
    assert any("np.zeros_like(x)" in reason and "built by" in reason for reason in write.evidence)
    assert any("index `i` is a host int from `range(len(x))`" in reason for reason in write.evidence)


def test_a_rule_parameter_is_medium_and_the_evidence_says_it_is_a_parameter() -> None:
    read = at(findings(NORM1), "SL101", 8)
    assert read.confidence is Confidence.MEDIUM
    assert any(reason.startswith("`x`: a parameter of the rule `rrule_norm1`") for reason in read.evidence)


def test_a_torch_cotangent_and_a_saved_tensor_are_medium_by_convention() -> None:
    text = (
        "import torch\n\n\nclass Clip(torch.autograd.Function):\n    @staticmethod\n    def backward(ctx, grad_output):\n"
        "        x, = ctx.saved_tensors\n        for i in range(len(grad_output)):\n            if x[i] > 0:\n"
        "                grad_output[i] = 0\n        return grad_output\n"
    )
    found = findings(text)
    saved = at(found, "SL101", 9)
    cotangent = at(found, "SL102", 10)
    assert saved.confidence is Confidence.MEDIUM and cotangent.confidence is Confidence.MEDIUM
    assert any("saved by the forward" in reason for reason in saved.evidence)
    assert any("`grad_output`: a cotangent a framework's `backward` receives" in reason for reason in cotangent.evidence)


def test_rank_stated_by_unpacking_the_shape_is_medium_and_quoted() -> None:
    text = (
        "import numpy as np\n\n\ndef rrule_f(x):\n    def f_pullback(dy):\n        n, = x.shape\n"
        "        out = np.zeros(3)\n        out[0] = x[n - 1]\n        return (out * dy,)\n    return x, f_pullback\n"
    )
    read = at(findings(text), "SL101", 8)
    assert read.confidence is Confidence.MEDIUM
    assert any("rank 1 stated by `n, = x.shape`" in reason for reason in read.evidence)


def test_the_threshold_hides_what_is_below_it() -> None:
    everything = findings(NORM1, confidence="low")
    high = findings(NORM1, confidence="high")
    assert {(d.code, d.location.row) for d in high} == {(d.code, d.location.row) for d in everything if d.confidence is Confidence.HIGH}
    assert ("SL101", 8) not in {(d.code, d.location.row) for d in high}
    assert ("SL102", 8) in {(d.code, d.location.row) for d in high}


def test_the_low_tier_reports_an_unknown_value_walked_by_its_own_length_only_when_asked() -> None:
    assert findings(UNKNOWN_WALK) == []
    low = findings(UNKNOWN_WALK, confidence="low")
    read = at(low, "SL101", 9)
    assert read.confidence is Confidence.LOW
    assert any("cannot follow" in reason for reason in read.evidence)
    as_row = UNKNOWN_WALK.replace("if v[i] > 0:", "if take(v[i], dy) is not None:")
    as_list = UNKNOWN_WALK.replace("        for i in range(len(v)):", "        if isinstance(v, list):\n          for i in range(len(v)):")
    assert findings(as_row, confidence="low") == [] and findings(as_list, confidence="low") == []


# A literal index of a cotangent whose rank nothing states: an element only if it has one axis.
ENDPOINT = """\
import torch


class Span(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad, interval):
        t0 = interval[0]
        rows = grad.reshape(2, -1)
        return rows[0] * t0, None
"""


def test_the_low_tier_reports_a_literal_read_of_an_array_of_unknown_rank_only_when_asked() -> None:
    assert ("SL101", 7) not in {(d.code, d.location.row) for d in findings(ENDPOINT)}
    read = at(findings(ENDPOINT, confidence="low"), "SL101", 7)
    assert read.confidence is Confidence.LOW
    assert any("unknown number of axes" in reason for reason in read.evidence)
    assert ("SL101", 9) not in {(d.code, d.location.row) for d in findings(ENDPOINT, confidence="low")}  # rank 2: a row


def test_json_carries_confidence_and_evidence_and_high_changes_the_exit_code(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(PARAMETER_ONLY, encoding="utf-8")
    code, out, _ = run(["check", "--no-cache", "--format", "json", "rule.py"], tmp_path)
    reported = json.loads(out)
    assert code == 1 and reported
    for entry in reported:
        assert entry["confidence"] == "medium"
        assert isinstance(entry["evidence"], list) and entry["evidence"]
    code, out, _ = run(["check", "--no-cache", "--format", "json", "--confidence", "high", "rule.py"], tmp_path)
    assert (code, json.loads(out)) == (0, [])


def test_sarif_puts_them_in_the_result_properties(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(NORM1, encoding="utf-8")
    _, out, _ = run(["check", "--no-cache", "--format", "sarif", "rule.py"], tmp_path)
    results = json.loads(out)["runs"][0]["results"]
    assert {r["properties"]["confidence"] for r in results} == {"high", "medium"}
    assert all(r["properties"]["evidence"] for r in results)


def test_show_evidence_prints_the_reasons_under_each_finding(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(NORM1, encoding="utf-8")
    _, plain, _ = run(["check", "--no-cache", "rule.py"], tmp_path)
    _, shown, _ = run(["check", "--no-cache", "--show-evidence", "rule.py"], tmp_path)
    assert "confidence" not in plain
    assert "  = confidence: high" in shown and "  = confidence: medium" in shown
    assert "    - `dx` built by `np.zeros_like(x)`, an array-module call" in shown


def test_the_setting_sets_the_threshold_and_a_bad_value_is_an_error_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(PARAMETER_ONLY, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nconfidence = "high"\n', encoding="utf-8")
    assert run(["check", "--no-cache", "rule.py"], tmp_path)[0] == 0
    assert run(["check", "--no-cache", "--confidence", "medium", "rule.py"], tmp_path)[0] == 1
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nselect = ["SL1"]\nconfidence = "sure"\n', encoding="utf-8")
    code, out, err = run(["check", "--no-cache", "rule.py"], tmp_path)
    assert code == 2 and out == ""
    assert f"{(tmp_path / 'pyproject.toml').resolve()}:3: confidence must be one of 'high', 'medium', 'low', not 'sure'" in err


@pytest.mark.parametrize("value", ["sure", 1, ["high"]])
def test_confidence_values_are_validated(value: object) -> None:
    with pytest.raises(ConfigError) as raised:
        config_from_table({"confidence": value}, ".")
    assert raised.value.key == "confidence"
    assert config_from_table({"confidence": "HIGH"}, ".").confidence == "high"


def test_a_cache_round_trip_keeps_confidence_and_evidence(tmp_path: Path) -> None:
    path = tmp_path / "rule.py"
    path.write_text(NORM1, encoding="utf-8")
    config = Config(root=str(tmp_path))
    cache = Cache(tmp_path / "cache", config)
    first = check_files([path], config, jobs=1, cache=cache)
    again = Cache(tmp_path / "cache", config)
    second = check_files([path], config, jobs=1, cache=again)
    assert again.hits and not second.stats.analysed  # type: ignore[union-attr]
    assert [(d.confidence, d.evidence) for d in second.diagnostics] == [(d.confidence, d.evidence) for d in first.diagnostics]
    assert {d.confidence for d in second.diagnostics} == {Confidence.HIGH, Confidence.MEDIUM}
    other = Cache(tmp_path / "cache", Config(root=str(tmp_path), confidence="high"))
    assert other.salt != again.salt  # another threshold never reads these entries
