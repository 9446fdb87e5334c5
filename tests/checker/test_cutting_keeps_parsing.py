"""Cutting a file never changes what parses (issue 26, defect 1).

A long file's second pass runs in pruned copies (``group_analysis`` over ``analysis.pruning``) and a
large text is parsed in pieces (``analysis.piecewise_parse``). numpy's
``test_function_base.py`` was reported as a syntax error because a kept class's method whose
body starts with a decorated nested ``def`` lost its body but kept the decorator. Here: the
shapes of method bodies a pruned copy must blank whole, the whole-file fallback when a copy
does not parse anyway, and the differential test (``benchmarks/parse_differential.py``) on a
deterministic sample of the installed site-packages.
"""

from __future__ import annotations

import ast
import os
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

import scalarlint.group_analysis as group_analysis
from scalarlint.analysis.project import Project
from scalarlint.analysis.pruning import pruned
from scalarlint.analysis.sources import SourceFile
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.engine import (
    SPLIT_LINES,
    _analyze_source,
    check_paths,
    check_source,
    index_source,
)
from scalarlint.group_analysis import analyze_in_groups

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import parse_differential  # noqa: E402  (the benchmark's comparison, one file at a time)

ALL = Config(scope="all")

RULE = '''
def rule_uses_holder(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = x[i] * 2
    return out
'''

# Method bodies (class-level indentation) whose first line is not the first statement's
# ``lineno``, or that share a line with the signature.
METHODS = {
    "decorated nested def after a comment (numpy's test_function_base.py)": """
        def test_keywords4_ticket_2100(self):
            # Test vectorizing function with no positional args.
            @np.vectorize
            def f(**kw):
                res = 1.0
                for _k in kw:
                    res *= kw[_k]
                return res

            assert f(a=[1, 2], b=[3, 4]) is not None
        """,
    "decorated nested class": """
        def make(self):
            @dataclasses.dataclass
            class Point:
                x: int
            return Point
        """,
    "several decorators over several lines, async": """
        def test_cached(self):
            @functools.lru_cache(
                maxsize=None,
            )
            # between the decorators
            @ staticmethod
            async def f():
                return 1
            return f
        """,
    "docstring, then a decorated def": '''
        def m(self):
            """Docstring."""
            @np.vectorize
            def g(v):
                return v
            return g
        ''',
    "a one-line body that is a decorated def": """
        def m(self):
            @np.vectorize
            def g(v): return v
        """,
    "body on the def line": """
        def m(self): return 1
        """,
    "body after a signature over two lines": """
        def m(self,
              x): return x
        """,
    "non-ASCII default before a body on the def line": """
        def m(self, s="\u00e9\u00e9\u00e9"): return s
        """,
    "a nested class's decorated method body": """
        class Inner:
            def m(self):
                @np.vectorize
                def g(v):
                    return v
                return g
        """,
}


def _module(method: str) -> str:
    """The method in a class that a pruned copy for the rule keeps (the first statement after the
    imports stays), the rule after it, in another group (neither names the other)."""
    body = textwrap.indent(textwrap.dedent(method).strip("\n") + "\n", "    ")
    return f"import dataclasses\nimport functools\n\nimport numpy as np\n\n\nclass Holder:\n{body}\n{RULE}"


def _source(text: str, path: str = "cut_me.py") -> SourceFile:
    return SourceFile(path, text, "utf-8", text.encode())


def _report(found: list[Diagnostic] | FileError) -> object:
    return [d.to_json() for d in found] if isinstance(found, list) else found.message


def _targets(source: SourceFile, config: Config) -> dict:  # type: ignore[type-arg]
    index = index_source(source, config)
    assert index is not None and not isinstance(index, FileError)
    return Project([index], config).targets(scope_all=config.scope == "all").get(source.path, {})


@pytest.mark.parametrize("method", METHODS.values(), ids=list(METHODS))
def test_a_kept_class_keeps_parsing_when_its_method_bodies_are_cut(method: str) -> None:
    text = _module(method)
    tree = ast.parse(text)
    copy, _ = pruned(text, tree, {"rule_uses_holder": None})
    assert copy.count("\n") == text.count("\n")
    ast.parse(copy)  # raised SyntaxError on a decorated body: the decorator stayed, its def did not


@pytest.mark.parametrize("method", METHODS.values(), ids=list(METHODS))
def test_every_group_cut_alone_finds_what_the_whole_file_finds(method: str) -> None:
    source = _source(_module(method))
    targets = _targets(source, ALL)
    whole = _analyze_source(source, targets, ALL)
    assert isinstance(whole, list) and any(d.code == "SL102" for d in whole)
    cut = analyze_in_groups(source, targets, ALL, whole_file_fallback=False, batch_lines=1)
    assert _report(cut) == _report(whole)


def test_a_long_file_shaped_like_numpys_checks_without_a_syntax_error(tmp_path: Path) -> None:
    """Over ``SPLIT_LINES`` lines a run analyses the file in groups: numpy's shape of file
    exited 2 with ``expected one of @, ASYNC, class, def``."""
    filler = "".join(f"\n    def test_filler_{k}(self):\n        assert {k} + 1 > {k}\n" for k in range(SPLIT_LINES // 3 + 1))
    text = _module(next(iter(METHODS.values()))).replace("\n\ndef rule_uses_holder", filler + "\n\ndef rule_uses_holder")
    assert text.count("\n") > SPLIT_LINES
    path = tmp_path / "test_function_base.py"
    path.write_text(text)
    result = check_paths([path], ALL.with_overrides(root=str(tmp_path)), jobs=1)
    assert result.errors == []
    whole = check_source(_source(text, str(path)), ALL.with_overrides(root=str(tmp_path)))
    assert _report(result.diagnostics) == _report(whole) and whole


def test_a_copy_that_does_not_parse_falls_back_to_the_whole_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The file parses, so a copy that does not is the cutting's fault: the whole file is
    analysed instead (``whole_file_fallback=False`` shows the copy's error)."""
    real = group_analysis.Pruner.__call__

    def broken(self: group_analysis.Pruner, targets, module_code=True):  # type: ignore[no-untyped-def]
        text, keyed = real(self, targets, module_code)
        return text.replace("import numpy as np", "import numpy as (", 1), keyed

    monkeypatch.setattr(group_analysis.Pruner, "__call__", broken)
    source = _source(_module(METHODS["body on the def line"]))
    targets = _targets(source, ALL)
    whole = _analyze_source(source, targets, ALL)
    assert isinstance(whole, list) and whole
    assert isinstance(analyze_in_groups(source, targets, ALL, whole_file_fallback=False, batch_lines=1), FileError)
    assert _report(analyze_in_groups(source, targets, ALL, batch_lines=1)) == _report(whole)


# The differential test on the installed site-packages, bounded for CI: the files whose
# path hash falls in the sample, smallest hash first, up to SAMPLE_BYTES of source (files
# over MAX_FILE_BYTES are left to the benchmark, which runs every file of whole trees).
SAMPLE_BYTES = 2_500_000
MAX_FILE_BYTES = 150_000


def _sample(root: Path) -> list[Path]:
    """A deterministic sample of ``root``'s ``.py`` files: ordered by a hash of the path under
    ``root`` (so it spreads over every package), taken until ``SAMPLE_BYTES``."""
    files = parse_differential.python_files(root)
    ranked = sorted(files, key=lambda p: zlib.crc32(str(p.relative_to(root)).encode()))
    chosen, total = [], 0
    for path in ranked:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            continue
        if total + size > SAMPLE_BYTES:
            break
        chosen.append(path)
        total += size
    return sorted(chosen)


@pytest.mark.slow
def test_sampled_site_packages_parse_and_find_the_same_through_every_cut() -> None:
    root = parse_differential.site_packages()
    sample = _sample(root)
    assert len(sample) > 100
    outcomes = parse_differential.compare_files(sample, jobs=min(os.cpu_count() or 1, 4))
    compared = [o for o in outcomes if o.status != parse_differential.SKIPPED]
    assert len(compared) > 0.9 * len(sample)
    assert sum(o.findings for o in compared) > 0
    assert [f"{o.path}: {o.status}: {o.detail}" for o in outcomes if o.status not in (parse_differential.SAME, parse_differential.SKIPPED)] == []
