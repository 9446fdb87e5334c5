"""A finding with no fix says why (the ``Declined`` reason of the fixer that stopped,
``fixers/loop_obstacles.py`` for loops): in JSON, in the editor, and with ``--show-fixes`` in
the text report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAD = '''\
import array_api_compat


def rrule_f(x, w):
    xp = array_api_compat.array_namespace(x)

    def pullback(dy):
        dx = xp.zeros_like(x)
{body}
        return (dx,)

    return x, pullback
'''


def rule(*lines: str) -> str:
    return HEAD.format(body="\n".join("        " + line for line in lines))


CASES = {
    "carried": (
        ["acc = 0.0", "for i in range(len(x)):", "    acc = acc * 0.5 - x[i]", "    dx[i] = acc"],
        "`acc` is carried from one iteration to the next",
    ),
    "early exit": (
        ["for i in range(len(x)):", "    if x[i] > 3:", "        break", "    dx[i] = x[i]"],
        "the loop exits early",
    ),
    "other index": (["for i in range(len(x)):", "    dx[i] = x[i] - x[i // 2]"], "the index `i // 2` is not the loop variable"),
    "unknown call": (["for i in range(len(x)):", "    dx[i] = helper(x[i])"], "`helper(...)` is not known to be elementwise"),
    "nest": (
        ["for i in range(len(x)):", "    for j in range(len(w)):", "        dx[i] += x[i] * w[j]"],
        "a nest of loops over data",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_reason_names_the_pattern(snip, name: str) -> None:
    lines, reason = CASES[name]
    found = [d for d in snip.diagnostics(rule(*lines)) if d.code in ("SL101", "SL102", "SL104")]
    assert found
    unfixed = [d for d in found if not d.fixes]
    assert unfixed and all(reason in (d.no_fix_reason or "") for d in unfixed), [d.no_fix_reason for d in unfixed]


def test_fixed_findings_carry_no_reason(snip) -> None:
    found = snip.diagnostics(rule("for i in range(len(x)):", "    dx[i] = x[i] * 2"))
    assert found and all(d.fixes and d.no_fix_reason is None for d in found if d.code in ("SL101", "SL102"))


def test_an_element_used_on_the_host(snip) -> None:
    # (an ``elif`` test: the first test of a chain gets ``allow_scalar_header``'s fix)
    text = HEAD.format(body="        if w > 1:\n            dx = dx * 3\n        elif x[0] > w:\n            dx = dx * 2").replace("def rrule_f(x, w):\n", "def rrule_f(x, w):\n    x = x.reshape(-1)\n")
    found = [d for d in snip.diagnostics(text) if d.code == "SL101" and not d.fixes]
    assert found and "used on the host (a condition)" in (found[0].no_fix_reason or "")


def test_json_lsp_and_text_show_it(tmp_path: Path) -> None:
    from scalarlint.lsp.convert import message

    lines, reason = CASES["early exit"]
    (tmp_path / "r.py").write_text(rule(*lines), encoding="utf-8")
    run = [sys.executable, "-m", "scalarlint", "check"]
    report = json.loads(subprocess.run([*run, "--format", "json", "r.py"], cwd=tmp_path, capture_output=True, text=True).stdout)
    assert any(reason in item.get("no_fix_reason", "") for item in report)
    assert all(("no_fix_reason" in item) == (item["fix"] is None) for item in report if item["code"] != "SL104")
    plain = subprocess.run([*run, "r.py"], cwd=tmp_path, capture_output=True, text=True).stdout
    shown = subprocess.run([*run, "--show-fixes", "r.py"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert "no fix:" not in plain  # the concise one-line format stays as it is
    assert f"  = no fix: {reason}" in shown
    from scalarlint.diagnostics import Diagnostic, Location, Severity

    d = Diagnostic("SL101", "scalar-getindex", "m", "f.py", Location(1, 1), Location(1, 2), Severity.ERROR, no_fix_reason="why")
    assert message(d).endswith("\nNo fix: why")
