"""Jupyter notebooks: checked cell by cell, fixed in the cell sources only, byte for byte elsewhere.

Notebooks are made with ``nbformat`` (what Jupyter itself writes), and the fixed files are read
back with it. The layout checks do not use scalarlint's own JSON scanner: a canonical notebook
must stay exactly what ``nbformat.writes`` gives for its new content, and a hand-laid-out one
may differ from the original only inside the fixed cell's ``source`` text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")

from scalarlint.notebooks import NotebookError, read_notebook  # noqa: E402

ELEMENT_LOOP = '''def rrule_norm1(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.sum(xp.abs(x))

    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm1_pullback'''

ONE_WRITE = '''def rrule_at(x, i):
    def at_pullback(dy):
        dx = np.zeros_like(x)
        k = int(np.argmax(x))
        dx[k] = dy
        return (dx, None)

    return x, at_pullback'''


# one element wanted on the host: only `allow_scalar` applies (a view would move the sync)
HOST_READ = '''def rrule_at(x, i):
    x = np.reshape(x, (-1,))

    def at_pullback(dy):
        scale = float(x[0])
        return (x * dy * scale, None)

    return x, at_pullback'''


def _scalarlint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scalarlint", *args], cwd=cwd, capture_output=True, text=True, check=False)


def _notebook(*cells: object) -> object:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = list(cells)
    return nb


def _norms_notebook() -> object:
    output = nbformat.v4.new_output("execute_result", data={"text/plain": "(3.0, <function>)"}, execution_count=4)
    return _notebook(
        nbformat.v4.new_markdown_cell("# Norms\nx[0] in markdown is not code"),
        nbformat.v4.new_code_cell("%matplotlib inline\nimport array_api_compat\nimport numpy as np"),
        nbformat.v4.new_code_cell("%%bash\nfor i in 1 2; do echo $i; done"),
        nbformat.v4.new_code_cell(ELEMENT_LOOP, execution_count=3),
        nbformat.v4.new_code_cell("!pip list\nrrule_norm1(np.ones(3))", execution_count=4, outputs=[output]),
    )


@pytest.fixture
def norms(tmp_path: Path) -> Path:
    path = tmp_path / "norms.ipynb"
    nbformat.write(_norms_notebook(), str(path))
    return path


def test_findings_name_the_cell_and_the_line_in_it(norms: Path) -> None:
    result = _scalarlint("check", norms.name, cwd=norms.parent)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("norms.ipynb:cell 4:7:18: SL104 element loop")
    assert lines[1].startswith("norms.ipynb:cell 4:8:13: SL102 scalar write to `dx[i]`")
    assert lines[2].startswith("norms.ipynb:cell 4:8:29: SL101 scalar read `x[i]`")
    assert len([line for line in lines if line.startswith("norms.ipynb:")]) == 3


def test_json_and_sarif_carry_the_cell(norms: Path) -> None:
    report = json.loads(_scalarlint("check", "--format", "json", norms.name, cwd=norms.parent).stdout)
    assert [(d["code"], d["cell"], d["location"]["row"]) for d in report] == [("SL104", 4, 7), ("SL102", 4, 8), ("SL101", 4, 8)]
    sarif = json.loads(_scalarlint("check", "--format", "sarif", norms.name, cwd=norms.parent).stdout)
    results = sarif["runs"][0]["results"]
    assert {r["properties"]["cell"] for r in results} == {4}
    assert all(r["message"]["text"].startswith("cell 4: ") for r in results)
    assert all("fixes" not in r for r in results)  # their edits apply to the joined cells


def test_fix_rewrites_only_the_fixed_cell_and_keeps_the_layout(norms: Path) -> None:
    original = norms.read_text(encoding="utf-8")
    result = _scalarlint("check", "--fix", "--unsafe-fixes", norms.name, cwd=norms.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    fixed_text = norms.read_text(encoding="utf-8")
    before, after = nbformat.reads(original, 4), nbformat.reads(fixed_text, 4)
    nbformat.validate(after)
    assert after.metadata == before.metadata
    changed = [k for k, (a, b) in enumerate(zip(before.cells, after.cells)) if a != b]
    assert changed == [3]
    assert {k for k in before.cells[3] if before.cells[3][k] != after.cells[3][k]} == {"source"}
    assert "for i in range" not in after.cells[3].source and "dx[:len(x)] = xp.sign(x) * dy" in after.cells[3].source
    assert after.cells[1].source == before.cells[1].source  # the magic line is back, unchanged
    assert after.cells[4].outputs == before.cells[4].outputs
    # nbformat's own layout, byte for byte, around the new source
    assert fixed_text == nbformat.writes(after) + "\n"  # nbformat.write adds the final newline
    assert original == nbformat.writes(before) + "\n"
    assert _scalarlint("check", "--fix", "--unsafe-fixes", norms.name, cwd=norms.parent).returncode == 0
    assert norms.read_text(encoding="utf-8") == fixed_text  # idempotent


def test_a_hand_laid_out_notebook_changes_only_inside_the_cell_source(tmp_path: Path) -> None:
    # Two-space indent, keys in another order, sources as single strings, non-ASCII escaped,
    # no final newline: none of it may change outside the fixed cell's source text.
    data = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"title": "Normen für Gradienten"},
        "cells": [
            {"source": "import array_api_compat  # Ünïcode", "cell_type": "code", "metadata": {},
             "execution_count": None, "outputs": [], "id": "a1"},
            {"id": "b2", "cell_type": "code", "source": ELEMENT_LOOP, "metadata": {"tags": ["x"]},
             "outputs": [], "execution_count": None},
        ],
    }
    text = json.dumps(data, indent=2, ensure_ascii=True)
    path = tmp_path / "laid_out.ipynb"
    path.write_text(text, encoding="utf-8")
    assert _scalarlint("check", "--fix", "--unsafe-fixes", path.name, cwd=tmp_path).returncode == 0
    fixed = path.read_text(encoding="utf-8")
    old_fragment = json.dumps(ELEMENT_LOOP, ensure_ascii=True)
    new_source = json.loads(fixed)["cells"][1]["source"]
    assert new_source != ELEMENT_LOOP and isinstance(new_source, str)
    assert fixed == text.replace(old_fragment, json.dumps(new_source, ensure_ascii=True))
    nbformat.validate(nbformat.reads(fixed, 4))


def test_allow_scalar_import_goes_into_the_first_code_cell(tmp_path: Path) -> None:
    nb = _notebook(
        nbformat.v4.new_markdown_cell("intro"),
        nbformat.v4.new_code_cell('"""Docstring."""\n%load_ext autoreload\nimport numpy as np'),
        nbformat.v4.new_code_cell(HOST_READ),
    )
    path = tmp_path / "one.ipynb"
    nbformat.write(nb, str(path))
    (tmp_path / "requirements.txt").write_text("scalarlint\n")  # the fix may import it
    assert _scalarlint("check", "--fix", "--unsafe-fixes", path.name, cwd=tmp_path).returncode == 0
    cells = nbformat.read(str(path), 4).cells
    # the magic line ends the import block as the checker sees it: a blank line follows the import
    assert cells[1].source == '"""Docstring."""\nfrom scalarlint.runtime import allow_scalar\n\n%load_ext autoreload\nimport numpy as np'
    assert "with allow_scalar():\n            scale = float(x[0])" in cells[2].source


def test_bad_notebooks_are_reported_one_by_one(tmp_path: Path) -> None:
    (tmp_path / "broken.ipynb").write_text("{ not json", encoding="utf-8")
    nb = _notebook(nbformat.v4.new_code_cell("import numpy as np"), nbformat.v4.new_code_cell("def f(:\n    pass"))
    nbformat.write(nb, str(tmp_path / "syntax.ipynb"))
    (tmp_path / "old.ipynb").write_text(json.dumps({"worksheets": []}), encoding="utf-8")
    nbformat.write(_norms_notebook(), str(tmp_path / "norms.ipynb"))
    result = _scalarlint("check", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "broken.ipynb:1:1: SL002 not a notebook: invalid JSON" in result.stdout
    assert "syntax.ipynb:cell 2:1:7: SL001 syntax error: " in result.stdout
    assert "old.ipynb:1:1: SL002 not a notebook: no 'cells' list" in result.stdout
    assert "norms.ipynb:cell 4:8:13: SL102" in result.stdout  # the good one is still checked


def test_folders_include_notebooks_but_not_checkpoints(tmp_path: Path) -> None:
    nbformat.write(_norms_notebook(), str(tmp_path / "norms.ipynb"))
    (tmp_path / ".ipynb_checkpoints").mkdir()
    nbformat.write(_norms_notebook(), str(tmp_path / ".ipynb_checkpoints" / "norms-checkpoint.ipynb"))
    result = _scalarlint("check", ".", cwd=tmp_path)
    assert "(1 file checked)" in result.stdout
    assert "checkpoint" not in result.stdout


def test_diff_of_a_notebook_applies_with_patch(norms: Path) -> None:
    diff = _scalarlint("check", "--diff", "--unsafe-fixes", norms.name, cwd=norms.parent)
    assert diff.returncode == 1
    fixed_copy = norms.parent / "copy"
    fixed_copy.mkdir()
    (fixed_copy / norms.name).write_bytes(norms.read_bytes())
    subprocess.run(["patch", "-p0", "--quiet"], input=diff.stdout, text=True, cwd=fixed_copy, check=True)
    assert _scalarlint("check", "--fix", "--unsafe-fixes", norms.name, cwd=norms.parent).returncode == 0
    assert (fixed_copy / norms.name).read_bytes() == norms.read_bytes()


# -- the joined text, directly --------------------------------------------------------------------
def test_a_fix_that_moves_code_across_cells_is_refused() -> None:
    written = nbformat.writes(_norms_notebook())
    text, notebook = read_notebook(written)
    assert text.count("# scalarlint: cell ") == 3  # the %%bash cell is left out
    with pytest.raises(NotebookError, match="across cells"):
        notebook.render(text.replace("# scalarlint: cell 4\n", ""))
    with pytest.raises(NotebookError, match="magic"):
        notebook.render(text.replace("pass  # scalarlint: magic 0", "pass"))
    assert notebook.render(text) == written


def test_magic_lines_become_placeholders_at_their_indentation() -> None:
    cell = "x = !ls\nfor f in x:\n    %time g(f)\nh?\nprint('a?')"
    text, notebook = read_notebook(nbformat.writes(_notebook(nbformat.v4.new_code_cell(cell))))
    assert text.splitlines()[1:] == [
        "pass  # scalarlint: magic 0",
        "for f in x:",
        "    pass  # scalarlint: magic 1",
        "pass  # scalarlint: magic 2",
        "print('a?')",
    ]
    compile(text, "joined", "exec")
