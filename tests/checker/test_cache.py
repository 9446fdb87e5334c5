"""The on-disk cache (``scalarlint.cache``): same findings as a cold run, recomputes exactly what
an edit can change, and never trusts a damaged or planted entry."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scalarlint.cache import MAGIC, Cache
from scalarlint.cli import main
from scalarlint.config import Config
from scalarlint.engine import RunResult, check_paths

RULES = """\
import numpy as np
from pkg.helpers import pick


def norm_pullback(x, y, g):
    dx = np.zeros_like(x)
    i = int(np.argmax(np.abs(x)))
    dx[i] = np.sign(x[i]) * g
    return pick(dx, i)
"""
HELPERS = """\
import numpy as np


def pick(a, i):
    return a[i] * 2
"""
HELPERS_EDITED = """\
import numpy as np
from pkg.extra import deep


def pick(a, i):
    return deep(a, i) * 2
"""
EXTRA = """\
def deep(a, i):
    out = 0
    for k in range(a.shape[0]):
        out = out + a[k]
    return out
"""
OTHER = """\
import numpy as np


def other_pullback(x, g):
    i = int(np.argmax(x))
    return x[i] * g
"""


def _project(root: Path) -> Path:
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text(RULES)
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "extra.py").write_text(EXTRA)
    (pkg / "other.py").write_text(OTHER)
    return pkg


def _report(result: RunResult) -> list[dict]:
    """Everything a report shows, fixes included (``Diagnostic`` equality ignores fixes)."""
    return [d.to_json() for d in result.diagnostics] + [{"error": e.filename, "message": e.message} for e in result.errors]


def _run(pkg: Path, cache: Cache | None, jobs: int | None = 1) -> RunResult:
    return check_paths([pkg], Config(root=str(pkg.parent)), jobs=jobs, cache=cache)


def _cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "cache", Config(root=str(tmp_path)))


def test_warm_run_returns_the_cold_findings_and_computes_nothing(tmp_path: Path) -> None:
    pkg = _project(tmp_path)
    uncached = _report(_run(pkg, None))
    assert uncached, "the project must have findings for this test to mean something"

    cold = _run(pkg, _cache(tmp_path))
    assert _report(cold) == uncached
    assert cold.stats is not None and cold.stats.indexed == 5 and cold.stats.analysed > 0

    warm = _run(pkg, _cache(tmp_path))
    assert _report(warm) == uncached
    assert warm.stats is not None and (warm.stats.indexed, warm.stats.analysed) == (0, 0)
    assert warm.files_checked == cold.files_checked


def test_an_edited_helper_reanalyses_only_the_files_it_can_affect(tmp_path: Path) -> None:
    pkg = _project(tmp_path)
    _run(pkg, _cache(tmp_path))
    (pkg / "helpers.py").write_text(HELPERS_EDITED)  # now reaches pkg/extra.py's loop

    after = _run(pkg, _cache(tmp_path))
    assert after.stats is not None
    assert after.stats.indexed == 1  # only the edited file is read again
    assert sorted(Path(p).name for p in after.stats.analysed_paths) == ["extra.py", "helpers.py"]
    assert _report(after) == _report(_run(pkg, None))
    assert any(d.filename.endswith("extra.py") for d in after.diagnostics)


def test_jobs_and_cache_do_not_change_findings(tmp_path: Path) -> None:
    pkg = _project(tmp_path)
    for n in range(30):  # enough files for the worker pool
        (pkg / f"gen{n}.py").write_text(OTHER.replace("other_pullback", f"p{n}_pullback"))
    reports = [
        _report(_run(pkg, None, jobs=1)),
        _report(_run(pkg, None, jobs=2)),
        _report(_run(pkg, _cache(tmp_path), jobs=2)),
        _report(_run(pkg, _cache(tmp_path), jobs=1)),
    ]
    assert len(reports[0]) > 30
    assert all(r == reports[0] for r in reports)


def _entries(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and p.name != "CACHEDIR.TAG"]


@pytest.mark.parametrize("damage", ["truncate", "garble", "empty", "swap"])
def test_damaged_or_foreign_entries_are_ignored_and_rewritten(tmp_path: Path, damage: str) -> None:
    pkg = _project(tmp_path)
    expected = _report(_run(pkg, _cache(tmp_path)))
    entries = _entries(tmp_path / "cache")
    assert entries
    for n, entry in enumerate(entries):
        data = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(data[: len(data) // 2])
        elif damage == "garble":
            entry.write_bytes(data[:-20] + bytes(20))
        elif damage == "empty":
            entry.write_bytes(b"")
        else:  # an entry filed under another key: same format, wrong content
            entry.write_bytes(entries[(n + 1) % len(entries)].read_bytes())

    again = _run(pkg, _cache(tmp_path))
    assert _report(again) == expected
    assert again.stats is not None and again.stats.indexed == 5  # nothing was trusted
    healed = _run(pkg, _cache(tmp_path))
    assert _report(healed) == expected and healed.stats is not None and healed.stats.analysed == 0


class _Planted:
    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, ("touch planted-ran",))


def test_a_planted_entry_cannot_run_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pkg = _project(tmp_path)
    expected = _report(_run(pkg, _cache(tmp_path)))
    for entry in _entries(tmp_path / "cache"):
        key = entry.name
        entry.write_bytes(MAGIC + key.encode() + b"\n" + pickle.dumps((_Planted(), ())))
    assert _report(_run(pkg, _cache(tmp_path))) == expected
    assert not (tmp_path / "planted-ran").exists()


def test_a_changed_setting_or_declared_dependency_is_not_served_stale(tmp_path: Path) -> None:
    pkg = _project(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\ndependencies = []\n')
    _run(pkg, _cache(tmp_path))
    other = Cache(tmp_path / "cache", Config(root=str(tmp_path), select=("SL101",)))
    narrowed = check_paths([pkg], Config(root=str(tmp_path), select=("SL101",)), jobs=1, cache=other)
    assert {d.code for d in narrowed.diagnostics} == {"SL101"}

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\ndependencies = ["scalarlint"]\n')
    after = _run(pkg, _cache(tmp_path))
    assert after.stats is not None and after.stats.analysed > 0  # fixes may now import scalarlint
    assert _report(after) == _report(_run(pkg, None))


def test_an_updated_vendored_helper_is_not_served_stale(tmp_path: Path) -> None:
    """Which fixes import from the project's own helper depends on its version (``to_host``
    came with v2): after ``scalarlint vendor`` rewrites it, the findings are worked out again."""
    from scalarlint.config import config_from_table
    from scalarlint.vendored import template_text

    pkg = _project(tmp_path)
    helper = pkg / "_allow_scalar.py"
    helper.write_text(template_text().replace("def to_host(", "def _no_to_host("))
    config = config_from_table({"allow-scalar-import": "pkg._allow_scalar"}, str(tmp_path))
    check_paths([pkg], config, jobs=1, cache=Cache(tmp_path / "cache", config))
    warm = check_paths([pkg], config, jobs=1, cache=Cache(tmp_path / "cache", config))
    assert warm.stats is not None and warm.stats.analysed == 0
    helper.write_text(template_text())
    after = check_paths([pkg], config, jobs=1, cache=Cache(tmp_path / "cache", config))
    assert after.stats is not None and any(p.endswith("rules.py") for p in after.stats.analysed_paths)
    assert _report(after) == _report(check_paths([pkg], config, jobs=1, cache=None))


def _cli(*args: str, cwd: Path) -> tuple[int, str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)
    return result.exit_code, result.output


def test_cli_caches_under_xdg_and_no_cache_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _project(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    code, first = _cli("check", "--no-cache", "pkg", cwd=tmp_path)
    assert code == 1 and not (tmp_path / "xdg").exists()
    code, second = _cli("check", "pkg", cwd=tmp_path)
    assert code == 1 and second == first
    assert _entries(tmp_path / "xdg" / "scalarlint")
    assert (tmp_path / "xdg" / "scalarlint" / "CACHEDIR.TAG").is_file()

    code, output = _cli("clean", cwd=tmp_path)
    assert code == 0 and "Removed" in output and not (tmp_path / "xdg" / "scalarlint").exists()
    code, output = _cli("clean", cwd=tmp_path)
    assert code == 0 and "No cache" in output


def test_cache_dir_setting_and_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _project(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\ncache-dir = ".slcache"\n')
    assert _cli("check", "pkg", cwd=tmp_path)[0] == 1
    assert _entries(tmp_path / ".slcache") and not (tmp_path / "xdg").exists()
    assert _cli("check", "--cache-dir", "elsewhere", "pkg", cwd=tmp_path)[0] == 1
    assert _entries(tmp_path / "elsewhere")
    code, _ = _cli("clean", cwd=tmp_path)
    assert code == 0 and not (tmp_path / ".slcache").exists() and (tmp_path / "elsewhere").exists()


def test_clean_refuses_a_folder_that_is_not_a_cache(tmp_path: Path) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    code, output = _cli("clean", "--cache-dir", str(precious), cwd=tmp_path)
    assert code == 2 and "does not look like a scalarlint cache" in output
    assert (precious / "notes.txt").read_text() == "keep me"


@pytest.mark.slow
def test_concurrent_runs_share_a_cache_safely(tmp_path: Path) -> None:
    pkg = _project(tmp_path)
    for n in range(30):
        (pkg / f"gen{n}.py").write_text(OTHER.replace("other_pullback", f"p{n}_pullback"))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    command = [sys.executable, "-m", "scalarlint", "check", "--format", "json", "pkg"]
    runs = [subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [json.loads(run.communicate()[0]) for run in runs]
    assert all(o == outputs[0] for o in outputs) and len(outputs[0]) > 30
    root = tmp_path / "xdg" / "scalarlint"
    assert not [p for p in root.rglob(".tmp-*")], "no temporary file is left behind"
    warm = subprocess.run(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True, check=False)
    assert json.loads(warm.stdout) == outputs[0]
