#!/usr/bin/env bash
# Download the wheels benchmarks/gpu_run.sh needs on the GPU machine into .gpu-wheels/ (ignored
# by .gitignore), for the device call's `carry`.
#
# The GPU machine has no network. Its image (Python 3.12, x86-64) already holds NumPy, PyTorch,
# CuPy, JAX, click, pytest, PyYAML, typing-extensions, setuptools and wheel; of scalarlint's
# dependencies it lacks libcst, astroid, pathspec and array-api-compat (the rules' namespaces),
# so those travel. Their own needs (libcst: PyYAML) are already there. The versions are the ones
# this checkout's environment runs, so the GPU run tests the same code. About 2.7 MB in all.
#
# Usage: bash benchmarks/gpu_wheels.sh [DEST]   (DEST relative to the repository root; default .gpu-wheels)
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-.gpu-wheels}"
# the environment whose versions are pinned: $PYTHON, else the checkout's .venv, else python3
python="${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}"

# name==version of each wheel: the installed one where this environment has it, else a default
pinned() {
    local name="$1" fallback="$2" version
    version="$("$python" -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)"
    echo "$name==${version:-$fallback}"
}

rm -rf "$dest"
mkdir -p "$dest"
"$python" -m pip download --quiet --no-deps --only-binary=:all: \
    --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux1_x86_64 \
    -d "$dest" \
    "$(pinned libcst 1.9.0)" "$(pinned astroid 4.4.0)" "$(pinned pathspec 1.1.1)" "$(pinned array-api-compat 1.16.0)"
ls -l "$dest"
du -sh "$dest"
