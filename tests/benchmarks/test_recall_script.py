"""benchmarks/recall.py counts what its docstring says: recall per kind, near-miss false
positives, precision inside the read functions, and verdicts for whole trees."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import recall  # noqa: E402

RULE = textwrap.dedent(
    """\
    import numpy as np


    def rrule_first(x):
        x = np.reshape(x, (-1,))
        y = x[0]
        t = (x, x)
        z = t[0]
        w = x[1]

        def first_pullback(dy):
            dx = np.zeros_like(x)
            dx[0] = dy
            return (dx,)

        return y, first_pullback


    def helper_outside_scope(v):
        v = np.reshape(v, (-1,))
        return v[2]


    def rrule_other(x):
        x = np.reshape(x, (-1,))
        return x[3], helper_outside_scope(x)
    """
)


def _project(tmp_path: Path) -> tuple[Path, Path]:
    checkouts = tmp_path / "checkouts"
    (checkouts / "demo-1.0").mkdir(parents=True)
    (checkouts / "demo-1.0" / "mod.py").write_text(RULE, encoding="utf-8")
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "demo.labels").write_text(
        textwrap.dedent(
            """\
            project demo-1.0
            scope mod.py:4-16
            mod.py:6 scalar-get
            mod.py:8 near-tuple
            mod.py:9 debatable
            mod.py:13 scalar-set
            mod.py:14 elem-loop
            read-all
            finding mod.py:21 SL101 tp
            """
        ),
        encoding="utf-8",
    )
    return checkouts, labels


def test_counts_recall_near_misses_precision_and_readings(tmp_path: Path) -> None:
    checkouts, labels = _project(tmp_path)
    out = tmp_path / "counts.json"
    code = recall.main([str(checkouts), "--labels", str(labels), "--corpus", str(tmp_path / "none"), "--json", str(out)])
    counts = json.loads(out.read_text())
    demo = counts["projects"]["demo-1.0"]
    # line 14 is labelled as an element loop but holds none: a miss, on purpose
    assert demo["true"] == {"scalar-get": 1, "scalar-set": 1, "elem-loop": 1}
    assert demo["found"] == {"scalar-get": 1, "scalar-set": 1}
    assert (demo["near"], demo["near_hit"]) == (1, 0)
    # in scope: x[0] and dx[0] on labels, x[1] on a debatable line (not counted)
    assert (demo["findings_in_scope"], demo["findings_on_true"]) == (2, 2)
    # whole tree: x[3] (line 26) has no verdict -> unread, and the run says so
    assert counts["read"]["demo-1.0"] == {"tp": 3, "fp": 0, "debatable": 1, "unread": 1}
    assert code == 1


def test_stamp_writes_digests_and_stale_labels_are_reported(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    checkouts, labels = _project(tmp_path)
    recall.main([str(checkouts), "--labels", str(labels), "--corpus", str(tmp_path / "none"), "--stamp"])
    stamped = (labels / "demo.labels").read_text()
    assert f"mod.py:6 scalar-get {recall.digest('y = x[0]')}" in stamped
    source = checkouts / "demo-1.0" / "mod.py"
    source.write_text(source.read_text().replace("y = x[0]", "y = x[5]"))
    assert recall.main([str(checkouts), "--labels", str(labels), "--corpus", str(tmp_path / "none")]) == 1
    assert "mod.py:6 scalar-get: the line no longer matches its digest" in capsys.readouterr().err


def test_each_confidence_level_is_scored_from_one_run(tmp_path: Path) -> None:
    checkouts, labels = _project(tmp_path)
    out, table = tmp_path / "counts.json", tmp_path / "recall.md"
    recall.main([str(checkouts), "--labels", str(labels), "--corpus", str(tmp_path / "none"), "--json", str(out), "--out", str(table)])
    counts = json.loads(out.read_text())
    levels = counts["levels"]
    assert levels["medium"] == counts["total"]  # the default's tables are the medium level's
    # x[0] and dx[0] are arrays the rule builds, indexed with literals: high
    assert levels["high"]["found"] == {"scalar-get": 1, "scalar-set": 1}
    for lower, higher in (("low", "medium"), ("medium", "high")):
        assert levels[lower]["findings_in_scope"] >= levels[higher]["findings_in_scope"]
    text = table.read_text()
    assert "## Per confidence level" in text
    assert "| medium (default) | 2 | 0.67 |" in text
