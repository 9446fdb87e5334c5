"""One host copy before a loop (SL101, SL104, SL105): what it answers, what it leaves alone,
that the fixed rule computes the same and runs on the strict array, and how it imports."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import config_from_table
from scalarlint.diagnostics import Applicability
from scalarlint.fixers.engine import check_text, fix_source
from scalarlint.runtime import ScalarIndexingError, disallow_scalar, strict, to_host
from scalarlint.vendored import template_text
from scalarlint.vendored.command import stale_copy_note

# A box-pooling backward in the shape of chainer's ROI functions: bounds read per box (syncs),
# an early exit (no whole-array form), the gradient written per box through slices.
RULE = '''\
import array_api_compat


def box_pool_backward(x_shape, rois, roi_indices, gy, scale):
    xp = array_api_compat.array_namespace(gy)
    gx = xp.zeros(x_shape, dtype=gy.dtype)
    # one box at a time
    for k in range(rois.shape[0]):
        batch = int(roi_indices[k])
        y0, x0, y1, x1 = rois[k]
        y0 = int(round(y0 * scale))
        x0 = int(round(x0 * scale))
        y1 = max(int(round(y1 * scale)), y0 + 1)
        x1 = max(int(round(x1 * scale)), x0 + 1)
        if y1 > x_shape[2]:
            continue
        gx[batch, :, y0:y1, x0:x1] += gy[k, :, None, None] / ((y1 - y0) * (x1 - x0))
    return gx
'''


def _load(text: str, name: str = "box_pool_backward"):  # type: ignore[no-untyped-def]
    namespace: dict[str, object] = {}
    exec(compile(text, "<fixed>", "exec"), namespace)
    return namespace[name]


def _inputs(seed: int) -> tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    shape = (2, 3, 8, 8)
    corners = rng.uniform(0, 14, size=(5, 2, 2))
    rois = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1).astype(np.float32)
    roi_indices = rng.integers(0, 2, size=5).astype(np.int32)
    gy = rng.normal(size=(5, 3)).astype(np.float32)
    return shape, rois, roi_indices, gy


def test_copies_the_read_only_arrays_once_before_the_loop(snip) -> None:
    outcome = snip.fixed(RULE)
    text = outcome.text
    assert "    # one box at a time\n    roi_indices_host = to_host(roi_indices)\n    rois_host = to_host(rois)\n    for k in" in text
    assert "batch = int(roi_indices_host[k])" in text and "y0, x0, y1, x1 = rois_host[k]" in text
    assert "from scalarlint.runtime import to_host\n" in text
    assert "to_host(gy)" not in text and "to_host(gx)" not in text  # sliced, written: on the device
    assert [d.code for d in outcome.remaining] == []


def test_keeps_the_comment_lines_closing_the_loop_once(snip) -> None:
    # comment lines indented under the loop's last block belong to the loop (chainer's ROI
    # backwards close their loops with ``# }}``): the rewritten loop has them once, not twice
    closed = RULE.replace("    return gx\n", "\n        # }} one box\n    # the sum\n    return gx\n")
    text = snip.fixed(closed).text
    assert text.count("# }} one box") == 1 and text.count("# the sum") == 1
    assert "rois_host = to_host(rois)" in text
    compile(text, "<fixed>", "exec")


def test_every_finding_it_claims_is_gone_after_fixing(snip) -> None:
    claimed = Counter((d.code, d.rule) for d in snip.diagnostics(RULE) if any(f.fallback for f in d.fixes))
    assert claimed and sum(claimed.values()) == len(snip.diagnostics(RULE))
    outcome = snip.fixed(RULE)
    left = Counter((d.code, d.rule) for d in outcome.remaining)
    assert not claimed & left


def test_is_unsafe_a_fallback_and_idempotent(snip) -> None:
    fixes = [f for _, f in snip.fixes_of(RULE)]
    assert fixes and all(f.applicability is snip.UNSAFE and f.fallback for f in fixes)
    assert snip.fixed(RULE, unsafe=False).text == snip.source(RULE).text
    once = snip.fixed(RULE).text
    assert snip.fixed(once).text == once


@pytest.mark.parametrize("seed", range(5))
def test_the_fixed_rule_computes_the_same_and_runs_on_the_strict_array(snip, seed: int) -> None:
    original, fixed = _load(RULE), _load(snip.fixed(RULE).text)
    shape, rois, roi_indices, gy = _inputs(seed)
    expected = original(shape, rois, roi_indices, gy, 0.5)
    np.testing.assert_array_equal(fixed(shape, rois, roi_indices, gy, 0.5), expected)
    with disallow_scalar():
        with pytest.raises(ScalarIndexingError):
            original(shape, strict(rois), strict(roi_indices), strict(gy), 0.5)
        on_device = fixed(shape, strict(rois), strict(roi_indices), strict(gy), 0.5)
    np.testing.assert_array_equal(to_host(on_device), expected)


@pytest.mark.parametrize(
    ("change", "kept"),
    [
        ("        batch = int(roi_indices[k])\n", "        roi_indices[k] = 0\n        batch = 0\n"),  # written
        ("        batch = int(roi_indices[k])\n", "        batch = int(roi_indices[k])\n        log(roi_indices)\n"),  # handed on
        ("        batch = int(roi_indices[k])\n", "        batch = int(roi_indices[k:k + 1].sum())\n"),  # sliced
    ],
    ids=["written", "handed-to-a-function", "sliced"],
)
def test_an_array_used_otherwise_in_the_loop_stays_on_the_device(snip, change: str, kept: str) -> None:
    text = RULE.replace(change, kept)
    fixed = snip.fixed(text).text
    assert "to_host(roi_indices)" not in fixed
    assert "rois_host = to_host(rois)" in fixed  # the other array is still copied


def test_a_device_value_in_the_conversion_keeps_its_finding(snip) -> None:
    """``int(round(y0 * s))`` with ``s`` itself a device value still syncs after the copy."""
    text = RULE.replace("        y0 = int(round(y0 * scale))\n", "        y0 = int(round(y0 * gy[k, 0]))\n")
    found = [d for d in snip.diagnostics(text) if d.code == "SL105" and "y0 * gy" in d.message]
    assert found and not any(f.fallback for d in found for f in d.fixes)


def test_the_copy_takes_a_fresh_name(snip) -> None:
    text = RULE.replace("    gx = xp.zeros(", "    rois_host = None\n    gx = xp.zeros(")
    fixed = snip.fixed(text).text
    assert "rois_host2 = to_host(rois)" in fixed and "rois_host2[k]" in fixed


def test_a_loop_without_an_obstacle_is_vectorized_instead(snip) -> None:
    text = RULE.replace(
        RULE[RULE.index("    # one box"):RULE.index("    return gx")],
        "    v = gy[:, 0]\n    d = xp.zeros_like(v)\n    for k in range(len(v)):\n        d[k] = v[k] * scale\n",
    )
    fixed = snip.fixed(text).text
    assert "to_host" not in fixed and "for k in" not in fixed


def _package(root: Path, rule: str, modules: dict[str, str], dependencies: str = '"numpy"') -> Path:
    """A project ``pkg`` holding ``rules.py`` (``rule``) beside ``modules``; its path."""
    (root / "pkg").mkdir()
    (root / "pyproject.toml").write_text(f'[project]\nname = "mine"\ndependencies = [{dependencies}]\n')
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in modules.items():
        (root / "pkg" / name).write_text(text)
    path = root / "pkg" / "rules.py"
    path.write_text(rule)
    return path


def _project(root: Path, helper: str) -> tuple[Path, object]:
    path = _package(root, RULE, {"_allow_scalar.py": helper})
    return path, config_from_table({"allow-scalar-import": "pkg._allow_scalar"}, str(root))


def test_with_the_vendored_helper_it_imports_the_projects_own_module(tmp_path: Path) -> None:
    path, config = _project(tmp_path, template_text())
    outcome = fix_source(SourceFile(str(path), RULE, "utf-8", RULE.encode()), config, True)  # type: ignore[arg-type]
    assert "from ._allow_scalar import to_host\n" in outcome.text and "scalarlint" not in outcome.text
    assert outcome.remaining == []


def test_a_vendored_helper_older_than_to_host_says_to_update_it(tmp_path: Path) -> None:
    old = template_text().replace("allow_scalar v2\n", "allow_scalar v1\n", 1)
    old = old[: old.index("def to_host(")] + old[old.index("class _TorchSyncDebug"):]
    path, config = _project(tmp_path, old)
    found = check_text(SourceFile(str(path), RULE, "utf-8", RULE.encode()), config)  # type: ignore[arg-type]
    assert isinstance(found, list) and found
    assert not any(f.fallback for d in found for f in d.fixes)
    note = stale_copy_note(config)  # type: ignore[arg-type]
    assert note is not None and "`scalarlint vendor" in note  # (an edited v1 here: the real one is not kept)


def test_display_only_where_the_import_would_add_a_dependency(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\ndependencies = ["numpy"]\n')
    path = tmp_path / "rules.py"
    path.write_text(RULE)
    found = check_text(SourceFile(str(path), RULE, "utf-8", RULE.encode()), config_from_table({}, str(tmp_path)))
    assert isinstance(found, list)
    fixes = [f for d in found for f in d.fixes if f.fallback]
    assert fixes and all(f.applicability is Applicability.DISPLAY_ONLY for f in fixes)


@pytest.mark.parametrize(("module", "reported"), [("scalarlint.runtime", False), ("mylib.transfers", True)])
def test_only_the_runtimes_or_the_helpers_to_host_is_declared_intent(snip, module: str, reported: bool) -> None:
    """The copy the fix writes is not a finding of its own; another library's ``to_host`` is a
    whole-array transfer like ``asnumpy``."""
    text = f"from {module} import to_host\n\n\ndef rrule_f(x):\n    h = to_host(x)\n\n    def f_pullback(dy):\n        return (dy * h.sum(),)\n\n    return x, f_pullback\n"
    found = [d for d in snip.diagnostics(text) if d.code == "SL105"]
    assert bool(found) is reported


SEGMENTS = '''\
import array_api_compat


def segment_sum_backward(dY, lengths, n_rows):
    xp = array_api_compat.array_namespace(dY)
    dX = xp.zeros((n_rows, dY.shape[1]), dtype=dY.dtype)
    start = 0
    for i, length in enumerate(lengths):
        if length < 0:
            raise ValueError("negative length")
        elif length:
            dX[start:start + length] = dY[i:i + 1]
            start += length
    return dX
'''


def test_a_one_dimensional_array_the_loop_iterates_is_iterated_from_its_copy(snip) -> None:
    text = SEGMENTS.replace("def segment_sum_backward(dY, lengths, n_rows):", "def segment_sum_backward(dY, lengths: Ints1d, n_rows):")
    text = "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from thinc.types import Ints1d\n" + text
    outcome = snip.fixed(text)
    assert "    lengths_host = to_host(lengths)\n    for i, length in enumerate(lengths_host):\n" in outcome.text
    assert outcome.remaining == []
    original, fixed = _load(text, "segment_sum_backward"), _load(outcome.text, "segment_sum_backward")
    dY, lengths = np.arange(6.0).reshape(3, 2), np.array([2, 0, 3])
    expected = original(dY, lengths, 5)
    np.testing.assert_array_equal(fixed(dY, lengths, 5), expected)
    with disallow_scalar():
        with pytest.raises(ScalarIndexingError):
            original(strict(dY), strict(lengths), 5)
        np.testing.assert_array_equal(to_host(fixed(strict(dY), strict(lengths), 5)), expected)


def test_an_array_of_unknown_rank_is_not_iterated_from_a_copy(snip) -> None:
    """Its rows would be host arrays in device arithmetic (CuPy refuses to mix them)."""
    text = SEGMENTS.replace("lengths, n_rows):", "lengths: Floats2d, n_rows):").replace("if length < 0:", "if length[0] < 0:")
    text = "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from thinc.types import Floats2d\n" + text
    assert any(d.code == "SL104" and "iteration" in d.message for d in snip.diagnostics(text))
    fixed = snip.fixed(text).text
    assert "to_host(lengths)" not in fixed


@pytest.mark.parametrize(
    "loop",
    [
        "    ys = []\n    for i in range(len(x)):\n        ys.append(inverse(x[i]))\n    return xp.stack(ys)\n",  # a batch of matrices
        "    out = xp.zeros_like(x)\n    for i in range(len(x)):\n        src = x[i]\n        if src.shape[0] > 0:\n            out[i] = src * 2\n    return out\n",
        "    out = xp.zeros_like(x)\n    for i in range(len(x)):\n        row = x[i]\n        out[i] = row[0]\n    return out\n",
    ],
    ids=["handed-to-a-function", "used-as-an-array", "indexed-again"],
)
def test_a_read_used_as_a_row_or_slab_keeps_its_array_on_the_device(snip, loop: str) -> None:
    """The checks cannot tell ``x[i]`` of a batch from an element; its uses can."""
    text = "import array_api_compat\n\n\ndef rrule_f(x, inverse):\n    xp = array_api_compat.array_namespace(x)\n" + loop
    assert [d for d in snip.diagnostics(text) if d.code in ("SL101", "SL102", "SL104")]
    assert "to_host" not in snip.fixed(text).text


HELPERS = '''\
import numpy


def bounds(p, limit):
    if p < -1 or p > limit:
        return None, None
    low = int(numpy.floor(p))
    return p, low


def first(p):
    return p
'''


@pytest.mark.parametrize(
    ("use", "copied"),
    [
        ("        y, low = bounds(rois[k] * 2.0, 8)\n        if y is None:\n            continue\n        out[k] = y - low\n", True),
        ("        y = first(rois[k])\n        if k > 2:\n            continue\n        out[k] = y.sum()\n", False),
    ],
    ids=["number-in-number-out", "returned-and-used-as-an-array"],
)
def test_a_helper_imported_from_the_same_package_is_followed(tmp_path: Path, use: str, copied: bool) -> None:
    rule = (
        "from array_api_compat import array_namespace\n\nfrom .helpers import bounds, first\n\n\n"
        "def box_backward(rois):\n    xp = array_namespace(rois)\n    out = xp.zeros_like(rois)\n"
        "    for k in range(rois.shape[0]):\n" + use + "    return out\n"
    )
    path = _package(tmp_path, rule, {"helpers.py": HELPERS}, '"numpy", "scalarlint"')
    outcome = fix_source(SourceFile(str(path), rule, "utf-8", rule.encode()), config_from_table({}, str(tmp_path)), True)
    assert ("rois_host = to_host(rois)" in outcome.text) is copied, outcome.text


def test_elements_of_the_copy_are_not_device_values_for_sl107(snip) -> None:
    """``int()`` of an element read from the copy waits for nothing (SL107, opt-in)."""
    from scalarlint.config import Config

    fixed = snip.fixed(RULE).text
    assert not [d for d in snip.diagnostics(fixed, Config(select=("ALL",))) if d.code == "SL107"]
