"""The built wheel works on its own: console script, and the folders mapped into the package."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        timeout=600,
    )
    (wheel,) = wheels.glob("scalarlint-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=900)

    probe = (
        "import scalarlint, scalarlint.rules, scalarlint.fixers, scalarlint.runtime;"
        "print(scalarlint.rules.__file__); print(scalarlint.fixers.__file__); print(len(scalarlint.rules.RULES))"
    )
    out = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert "site-packages" in out[0] and out[0].endswith("scalarlint/rules/__init__.py")
    assert "site-packages" in out[1] and out[1].endswith("scalarlint/fixers/__init__.py")
    assert int(out[2]) >= 25

    check = subprocess.run(
        [str(env_dir / "bin" / "scalarlint"), "check", str(ROOT / "examples" / "norm_inf_pullback.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 1, check.stderr
    assert "SL103" in check.stdout and "SL102" in check.stdout

    # the helper `scalarlint vendor` writes is in the wheel (a module of scalarlint.vendored)
    vendored = subprocess.run([str(env_dir / "bin" / "scalarlint"), "vendor"], cwd=tmp_path, capture_output=True, text=True)
    assert vendored.returncode == 0, vendored.stderr
    assert (tmp_path / "_allow_scalar.py").read_text().startswith("# scalarlint-vendored: allow_scalar v")
