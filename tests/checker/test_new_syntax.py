"""Python 3.12+ syntax is checked and fixed whatever interpreter runs scalarlint
(``scalarlint.analysis.syntax_versions``). CI runs these on its oldest interpreter, where
``ast`` cannot read the file itself."""

from __future__ import annotations

import re

import subprocess
import sys
from pathlib import Path

import pytest

from scalarlint.analysis.syntax_versions import ast_parse, downgraded

RULE = '''\
import array_api_compat

type Vector = list[float]


class Box[T]:
    item: T


def rrule_norm1[T](x):
    xp = array_api_compat.array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = xp.sum(xp.abs(x))
    label = f"{"norm"}-{'1'}"
    names = f"""{
        "multi"
    }"""

    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm1_pullback
'''


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scalarlint", *args], cwd=cwd, capture_output=True, text=True)


def test_new_syntax_is_checked_and_fixed(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(RULE, encoding="utf-8")
    checked = _run("check", "rule.py", cwd=tmp_path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "rule.py:22:13: SL102" in checked.stdout and "could not be checked" not in checked.stdout
    fixed = _run("check", "--fix", "--unsafe-fixes", "rule.py", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = (tmp_path / "rule.py").read_text(encoding="utf-8")
    assert "        dx[:len(x)] = xp.sign(x) * dy\n" in text
    assert "type Vector = list[float]\n" in text and "def rrule_norm1[T](x):" in text  # the new syntax is kept


def test_the_downgrade_keeps_every_line_and_name() -> None:
    older = downgraded(RULE)
    assert older is not None
    assert older.count("\n") == RULE.count("\n")
    assert "Vector = list[float]" in older and "class Box:" in older and "def rrule_norm1(x):" in older
    tree = ast_parse(RULE)  # parses on every supported interpreter
    names = {n.name for n in tree.body if hasattr(n, "name")}
    assert names == {"Box", "rrule_norm1"}


@pytest.mark.parametrize("text", ["def f(:\n    pass\n", "type = = 1\n", "x = f'{'\n"])
def test_a_file_no_grammar_accepts_is_still_a_syntax_error(tmp_path: Path, text: str) -> None:
    (tmp_path / "bad.py").write_text(text, encoding="utf-8")
    result = _run("check", "bad.py", cwd=tmp_path)
    assert result.returncode == 2 and re.search(r"bad.py:1:\d+: SL001 syntax error: ", result.stdout)


def test_the_first_pass_on_ordinary_code_does_not_import_libcst() -> None:
    code = (
        "import sys\n"
        "from scalarlint.analysis.syntax_versions import ast_parse\n"
        "ast_parse('def f(x):\\n    return x\\n')\n"
        "print('libcst' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
