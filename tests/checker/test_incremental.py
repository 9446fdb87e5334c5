"""Incremental re-checks (``scalarlint.incremental``) give exactly what a whole-file check gives,
and analyse only what an edit can change; pruned copies (``analysis.pruning``) keep every
target's findings."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

from scalarlint.analysis.project import Project
from scalarlint.analysis.pruning import pruned, split_lines
from scalarlint.analysis.sources import SourceFile, read_source
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.engine import _analyze_source, check_source, index_source
from scalarlint.analysis.chunks import chunk_at, chunks_of, linked_closure, outside_text
from scalarlint.incremental import IncrementalChecker

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from lsp_latency import generate  # noqa: E402  (the editor benchmark's module of rules)

CONFIG = Config()


def _source(text: str, path: str = "module_under_edit.py") -> SourceFile:
    return SourceFile(path, text, "utf-8", text.encode())


def _report(found: list[Diagnostic] | FileError) -> object:
    return [d.to_json() for d in found] if isinstance(found, list) else found.message


def _random_edit(lines: list[str], rng: random.Random) -> list[str]:
    """Insert, delete or change one line inside a function body (the edits typing makes),
    keeping the module valid."""
    while True:
        edited = _any_edit(lines, rng)
        try:
            ast.parse("".join(edited))
        except SyntaxError:
            continue
        return edited


def _any_edit(lines: list[str], rng: random.Random) -> list[str]:
    while True:
        row = rng.randrange(len(lines))
        line = lines[row]
        if line.startswith("    ") and line.strip() and not line.lstrip().startswith(("def ", "class ", "@", '"""')):
            break
    indent = line[: len(line) - len(line.lstrip())]
    kind = rng.randrange(4)
    if kind == 0:
        return [*lines[:row], rng.choice([f"{indent}_t = x[0]\n", f"{indent}pass\n", f"{indent}y = x\n"]), *lines[row:]]
    if kind == 1:
        return [*lines[:row], *lines[row + 1 :]]
    if kind == 2:
        return [*lines[:row], line.replace("x", "z", 1), *lines[row + 1 :]]
    return [*lines[:row], f"{indent}for k in range(len(x)):\n", f"{indent}    x[k] = 0\n", *lines[row:]]


@pytest.mark.parametrize("seed", range(4))
def test_random_edits_give_the_whole_file_findings(seed: int) -> None:
    rng = random.Random(seed)
    lines = generate(500).splitlines(keepends=True)
    checker = IncrementalChecker()
    assert _report(checker.check(_source("".join(lines)), CONFIG)) == _report(check_source(_source("".join(lines)), CONFIG))
    partial = 0
    for _ in range(12):
        lines = _random_edit(lines, rng)
        text = "".join(lines)
        outcome = checker.check_outcome(_source(text), CONFIG)
        assert _report(outcome.diagnostics) == _report(check_source(_source(text), CONFIG))
        partial += outcome.redone is not None
    assert partial >= 9, "most one-line edits must not need the whole file"


HELPER_FIRST = """\
import numpy as np


def idx(x):
    return int(np.argmax(x))


def other_pullback(x, g):
    j = int(np.argmin(x))
    return x[j] * g


def f_pullback(x, g):
    i = idx(x)
    dx = np.zeros_like(x)
    dx[i] = g
    return dx
""" + "".join(
    f"\n\ndef unrelated_{n}_pullback(x, g):\n    k = int(np.argmax(x))\n    return x[k] * g\n" for n in range(4)
)


def test_an_edited_helper_redoes_its_callers_and_leaves_the_rest() -> None:
    checker = IncrementalChecker()
    checker.check(_source(HELPER_FIRST), CONFIG)
    edited = HELPER_FIRST.replace("return int(np.argmax(x))", "i = np.argmax(x)\n    return x[i]")
    outcome = checker.check_outcome(_source(edited), CONFIG)
    assert _report(outcome.diagnostics) == _report(check_source(_source(edited), CONFIG))
    assert outcome.redone == 2  # idx and f_pullback, which calls it; not the other pullbacks
    # the reused finding of other_pullback moved down with its chunk
    assert any(d.rule == "other_pullback" and d.location.row == 11 for d in outcome.diagnostics)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("import numpy as np", "import numpy as np\nimport math"),  # module level
        lambda t: t.replace("def other_pullback", "def another_pullback"),  # a renamed chunk
        lambda t: t + "\n\ndef g_pullback(x, g):\n    return x[int(g)]\n",  # a new chunk
        lambda t: t.replace("def idx(x):", "def idx(x):\n    global W"),  # a module name assigned
    ],
)
def test_edits_outside_one_function_check_the_whole_file(edit) -> None:  # type: ignore[no-untyped-def]
    checker = IncrementalChecker()
    checker.check(_source(HELPER_FIRST), CONFIG)
    edited = edit(HELPER_FIRST)
    outcome = checker.check_outcome(_source(edited), CONFIG)
    assert outcome.redone is None
    assert _report(outcome.diagnostics) == _report(check_source(_source(edited), CONFIG))


def test_a_syntax_error_then_a_fix_is_reported_like_a_whole_check() -> None:
    checker = IncrementalChecker()
    checker.check(_source(HELPER_FIRST), CONFIG)
    broken = HELPER_FIRST.replace("return dx", "return dx[")
    assert isinstance(checker.check(_source(broken), CONFIG), FileError)
    assert _report(checker.check(_source(HELPER_FIRST), CONFIG)) == _report(check_source(_source(HELPER_FIRST), CONFIG))


CORPUS = sorted(
    p for folder in ("tests/corpus", "tests/chainrules_corpus", "tests/fixers/corpus", "rules") for p in (ROOT / folder).rglob("*.py")
)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_pruned_copies_keep_every_finding(path: Path) -> None:
    """The targets of each top-level definition and the definitions linked to it, analysed alone
    in a pruned copy (as an incremental re-check does), find what the whole file finds there."""
    source = read_source(path)
    assert not isinstance(source, FileError)
    index = index_source(source, CONFIG)
    if index is None or isinstance(index, FileError):
        return
    targets = Project([index], CONFIG).targets().get(source.path, {})
    whole = _analyze_source(source, targets, CONFIG)
    assert isinstance(whole, list)
    tree = ast.parse(source.text)
    lines = split_lines(source.text)
    chunks = chunks_of(tree, lines)
    outside = outside_text(lines, chunks)
    for number, chunk in enumerate(chunks):
        group = linked_closure(chunks, outside, {number})
        chosen = {k: t for k, t in targets.items() if chunk_at(chunks, index.functions[k].line) in group}
        if not chosen:
            continue
        text, keyed = pruned(source.text, tree, chosen, module_code=None in group)
        alone = _analyze_source(SourceFile(source.path, text, source.encoding, source.raw), keyed, CONFIG)
        assert _report(alone) == _report([d for d in whole if chunk_at(chunks, d.location.row) in group]), chunk.name


def test_opening_a_file_reuses_the_cli_cache(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from scalarlint.cli import main

    module = tmp_path / "rules_mod.py"
    module.write_text(HELPER_FIRST)
    assert CliRunner().invoke(main, ["check", str(module)]).exit_code == 1  # writes the cache
    source = read_source(module)
    assert not isinstance(source, FileError)
    calls: list[object] = []
    import scalarlint.incremental as incremental

    original = incremental._analyze_source
    incremental._analyze_source = lambda *a, **k: calls.append(a) or original(*a, **k)  # type: ignore[assignment]
    try:
        opened = IncrementalChecker().check(source, CONFIG.with_overrides(root=str(tmp_path)))
    finally:
        incremental._analyze_source = original  # type: ignore[assignment]
    assert not calls, "the cached analysis was not reused"
    assert _report(opened) == _report(check_source(source, CONFIG))


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["rules", "all"])
def test_large_files_analysed_in_groups_give_the_whole_file_findings(scope: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``analyze_in_groups`` (what a run does for files over SPLIT_LINES lines) on every corpus
    file and the editor benchmark's module, in small batches so that every group is cut alone."""
    import scalarlint.group_analysis as group_analysis
    from scalarlint.group_analysis import analyze_in_groups

    monkeypatch.setattr(group_analysis, "BATCH_LINES", 1)
    config = Config(scope=scope)
    sources = [read_source(p) for p in CORPUS] + [_source(generate(600))]
    compared = 0
    for source in sources:
        assert not isinstance(source, FileError)
        index = index_source(source, config)
        if index is None or isinstance(index, FileError):
            continue
        targets = Project([index], config).targets(scope_all=scope == "all").get(source.path, {})
        whole = _analyze_source(source, targets, config)
        assert _report(analyze_in_groups(source, targets, config)) == _report(whole), source.path
        compared += len(whole) if isinstance(whole, list) else 0
    assert compared > 100


SAME_NAME_NESTED = """\
import numpy as np


def test_one():
    def fun(d):
        total = 0.0
        for k in sorted(d):
            total = total + np.sum(d[k])
        return total

    return fun


def test_two():
    def fun(d):
        return d

    return fun({"a": np.ones(3)})
"""


def test_calls_link_every_definition_of_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fun({...})`` in one test is a call site of every ``fun`` of the module for the
    inference, so the two tests are one group (found on autograd's tests/test_dict.py)."""
    import scalarlint.group_analysis as group_analysis
    from scalarlint.group_analysis import analyze_in_groups

    monkeypatch.setattr(group_analysis, "BATCH_LINES", 1)
    config = Config(scope="all")
    source = _source(SAME_NAME_NESTED)
    index = index_source(source, config)
    assert index is not None and not isinstance(index, FileError)
    targets = Project([index], config).targets(scope_all=True)[source.path]
    assert _report(analyze_in_groups(source, targets, config)) == _report(_analyze_source(source, targets, config))
    tree = ast.parse(SAME_NAME_NESTED)
    lines = split_lines(SAME_NAME_NESTED)
    chunks = chunks_of(tree, lines)
    assert linked_closure(chunks, outside_text(lines, chunks), {0}) == {0, 1}
