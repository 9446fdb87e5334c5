"""``scalarlint check --add-noqa``: every finding marked where the suppression reads it, and
nothing else in the file touched, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_samples import (  # tests/checker is on sys.path (pytest's default import mode)
    BAD_RULE,
    run_cli,
)

SCALAR_LINE = "        dx[n - 1] = dy * x[n - 1]"  # BAD_RULE's row 10: SL102 at column 9, SL101 at 26


def _bad_rule(newline: str = "\n", on_line_10: str = "") -> str:
    return BAD_RULE.replace(SCALAR_LINE, SCALAR_LINE + on_line_10).replace("\n", newline)


def _marked_twice_is_clean(project: Path, name: str) -> None:
    """The next check reports nothing, and a second ``--add-noqa`` changes nothing."""
    before = (project / name).read_bytes()
    code, out, _ = run_cli(["check", name], project)
    assert (code, out.splitlines()[0]) == (0, "All checks passed! (1 file checked)")
    code, out, err = run_cli(["check", "--add-noqa", name], project)
    assert (code, out, err) == (0, "Added 0 noqa directives.\n", "")
    assert (project / name).read_bytes() == before


def test_crlf_file_keeps_every_other_byte(tmp_path: Path) -> None:
    # trailing blanks on another line and no newline at the end must survive as they are
    text = _bad_rule("\r\n").replace("n = len(x)", "n = len(x)  \t").rstrip("\r\n")
    (tmp_path / "crlf.py").write_bytes(text.encode())
    code, out, err = run_cli(["check", "--add-noqa", "crlf.py"], tmp_path)
    assert (code, out, err) == (0, "Added 1 noqa directive.\n", "")
    expected = text.replace(SCALAR_LINE + "\r\n", SCALAR_LINE + "  # noqa: SL101, SL102\r\n")
    assert (tmp_path / "crlf.py").read_bytes() == expected.encode()
    _marked_twice_is_clean(tmp_path, "crlf.py")


@pytest.mark.parametrize(
    ("comment", "marked"),
    [
        ("  # noqa: SL101", "  # noqa: SL101, SL102"),
        ("  # NOQA:SL102,E501 keep this", "  # NOQA:E501, SL101, SL102 keep this"),
        ("   # the last index   ", "   # the last index  # noqa: SL101, SL102"),
        ("  # scalarlint: ignore[SL101]", "  # scalarlint: ignore[SL101]  # noqa: SL102"),
    ],
)
def test_an_existing_comment_is_extended_or_kept(tmp_path: Path, comment: str, marked: str) -> None:
    (tmp_path / "rule.py").write_text(_bad_rule(on_line_10=comment), encoding="utf-8")
    code, out, _ = run_cli(["check", "--add-noqa", "rule.py"], tmp_path)
    assert (code, out) == (0, "Added 1 noqa directive.\n")
    assert (tmp_path / "rule.py").read_text(encoding="utf-8") == _bad_rule(on_line_10=marked)
    _marked_twice_is_clean(tmp_path, "rule.py")


@pytest.mark.parametrize(
    ("head", "encoding"),
    [("# -*- coding: latin-1 -*-\n# caf\xe9\n", "latin-1"), ("", "utf-8-sig")],
)
def test_encoding_cookie_and_bom_are_kept(tmp_path: Path, head: str, encoding: str) -> None:
    (tmp_path / "enc.py").write_bytes((head + BAD_RULE).encode(encoding))
    code, _, _ = run_cli(["check", "--add-noqa", "enc.py"], tmp_path)
    assert code == 0
    expected = (head + _bad_rule(on_line_10="  # noqa: SL101, SL102")).encode(encoding)
    assert (tmp_path / "enc.py").read_bytes() == expected
    _marked_twice_is_clean(tmp_path, "enc.py")


STRING_AND_CONTINUATIONS = '''\
from array_api_compat import array_namespace


def rrule_last(x):
    xp = array_namespace(x)
    n = len(x)

    def pullback(dy):
        dx = xp.zeros_like(x)
        dx[n - 1] = dy * x[n - 1] * len("""
        """)
        dx[n \\
- 1] = dy
        dx[n - 1] = dy * \\
            x[n - 1]
        return (dx,)

    return x, pullback
'''


def test_lines_ending_in_a_string_or_a_backslash_are_not_broken(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(STRING_AND_CONTINUATIONS, encoding="utf-8")
    code, out, err = run_cli(["check", "--add-noqa", "rule.py"], tmp_path)
    assert (code, out) == (0, "Added 2 noqa directives.\n")
    assert err.splitlines() == [
        "rule.py:10:9: SL102 not marked: its line ends inside a multi-line string; add the directive by hand",
        "rule.py:10:26: SL101 not marked: its line ends inside a multi-line string; add the directive by hand",
        "rule.py:14:9: SL102 not marked: its line continues with a backslash; add the directive by hand",
    ]
    # the write that spans rows 12-13 is marked on its last row, which the suppression also reads
    expected = STRING_AND_CONTINUATIONS.replace("- 1] = dy\n", "- 1] = dy  # noqa: SL102\n").replace(
        "            x[n - 1]\n", "            x[n - 1]  # noqa: SL101\n"
    )
    assert (tmp_path / "rule.py").read_text(encoding="utf-8") == expected
    compile(expected, "rule.py", "exec")
    code, out, _ = run_cli(["check", "--output-format", "json", "rule.py"], tmp_path)
    assert code == 1 and out.count('"code"') == 3  # only the three findings left alone remain


def test_notebook_cell_source_is_edited_and_the_rest_of_the_json_kept(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
    output = nbformat.v4.new_output("execute_result", data={"text/plain": "(3.0, <function>)"}, execution_count=2)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Last element\nx[0] in markdown is not code"),
        nbformat.v4.new_code_cell("%matplotlib inline\nimport numpy as np\nfrom array_api_compat import array_namespace"),
        nbformat.v4.new_code_cell(BAD_RULE.split("\n", 3)[3].rstrip("\n"), execution_count=2, outputs=[output]),
    ]
    path = tmp_path / "last.ipynb"
    nbformat.write(nb, str(path))
    before = path.read_text(encoding="utf-8")
    assert before.count(f'"{SCALAR_LINE}\\n"') == 1
    code, out, err = run_cli(["check", "--add-noqa", "last.ipynb"], tmp_path)
    assert (code, out, err) == (0, "Added 1 noqa directive.\n", "")
    expected = before.replace(f'"{SCALAR_LINE}\\n"', f'"{SCALAR_LINE}  # noqa: SL101, SL102\\n"')
    assert path.read_text(encoding="utf-8") == expected
    nbformat.validate(nbformat.read(str(path), as_version=4))
    _marked_twice_is_clean(tmp_path, "last.ipynb")


def test_a_folder_is_marked_file_by_file(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(BAD_RULE, encoding="utf-8")
    (tmp_path / "pkg" / "b.py").write_text(_bad_rule(on_line_10="  # noqa: SL102"), encoding="utf-8")
    code, out, _ = run_cli(["check", "--add-noqa"], tmp_path)
    assert (code, out) == (0, "Added 2 noqa directives.\n")
    for name in ("a.py", "b.py"):
        assert (tmp_path / "pkg" / name).read_text(encoding="utf-8") == _bad_rule(on_line_10="  # noqa: SL101, SL102")
    assert run_cli(["check"], tmp_path)[0] == 0


@pytest.mark.parametrize("other", [["-"], ["--fix"], ["--fix-only"], ["--diff"]])
def test_add_noqa_refuses_stdin_and_fixing(tmp_path: Path, other: list[str]) -> None:
    (tmp_path / "rule.py").write_text(BAD_RULE, encoding="utf-8")
    code, _, err = run_cli(["check", "--add-noqa", "rule.py", *other], tmp_path)
    assert code == 2 and "--add-noqa writes the files it checks" in err
    assert (tmp_path / "rule.py").read_text(encoding="utf-8") == BAD_RULE


def test_a_file_that_cannot_be_checked_makes_the_exit_2(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(BAD_RULE, encoding="utf-8")
    (tmp_path / "broken.py").write_text("def rrule(x:\n", encoding="utf-8")
    code, out, err = run_cli(["check", "--add-noqa", "."], tmp_path)
    assert (code, out) == (2, "Added 1 noqa directive.\n")
    assert "broken.py:1:10: SL001 syntax error" in err
    assert (tmp_path / "rule.py").read_text(encoding="utf-8") == _bad_rule(on_line_10="  # noqa: SL101, SL102")
