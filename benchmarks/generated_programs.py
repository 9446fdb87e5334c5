"""Generated programs: the checker and the fixers on code nobody wrote by hand.

Two sources of programs:

* **mutants** of the corpus rules (``tests/fixers/corpus``, ``tests/chainrules_corpus``,
  ``tests/corpus``): renamed names (ASCII and Unicode), reordered functions, bodies wrapped
  in classes, ``for`` loops, ``with`` blocks and extra functions, and odd but valid
  formatting (comments inside subscripts, backslash continuations, semicolons, tab
  indentation). A mutant that does not compile is discarded and counted.
* **grammar programs** from hypothesmith (``from_grammar``): random but valid Python.

Properties checked on every program (``problems``):

1. checking it (``--scope all --select ALL`` and the default scope) raises nothing: a file
   is either checked or reported as a ``FileError``;
2. the fixed text (``--fix --unsafe-fixes``) compiles;
3. fixing the fixed text changes nothing (fixing twice equals fixing once);
4. a fix changes nothing outside the function holding its finding, apart from one added
   import line at module level;
5. a batch of programs gets the same findings with ``--jobs 1`` and with every core.

Usage (the long run; the test suite runs a small seeded sample of the same functions)::

    python benchmarks/generated_programs.py --count 10000 --seed 1 --out benchmarks/results/generated_programs.md
"""

from __future__ import annotations

import argparse
import ast
import os
import platform
import random
import re
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS_DIRS = ("tests/fixers/corpus", "tests/chainrules_corpus", "tests/corpus")

NEW_NAMES = ("n_1", "value_2", "δx", "grad_ü", "Σ", "arr_3", "i_k", "é")


# -- programs ------------------------------------------------------------------------------------
def corpus_sources() -> list[str]:
    """The corpus files, read once (sorted, so a seed means the same programs everywhere)."""
    out = []
    for folder in CORPUS_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            out.append(path.read_text(encoding="utf-8"))
    return out


def _functions(text: str) -> list[tuple[int, int, int]]:
    """(first line, last line, indentation) of each top-level ``def`` (0-based lines)."""
    tree = ast.parse(text)
    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            out.append((start, (node.end_lineno or node.lineno) - 1, node.col_offset))
    return out


def _indent(lines: list[str], unit: str = "    ") -> list[str]:
    return [unit + line if line.strip() else line for line in lines]


def rename(text: str, rng: random.Random) -> str:
    names = sorted({n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name) and len(n.id) <= 3 and n.id.isidentifier()})
    if not names:
        return text
    old = rng.choice(names)
    return re.sub(rf"(?<![\w.]){re.escape(old)}(?!\w)", rng.choice(NEW_NAMES), text)


def reorder(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    spans = _functions(text)
    if len(spans) < 2:
        return text
    k = rng.randrange(len(spans) - 1)
    (a0, a1, _), (b0, b1, _) = spans[k], spans[k + 1]
    return "\n".join(lines[:a0] + lines[b0 : b1 + 1] + lines[a1 + 1 : b0] + lines[a0 : a1 + 1] + lines[b1 + 1 :])


def wrap_function(text: str, rng: random.Random) -> str:
    """Wrap one top-level function in a class, a loop, a ``with`` block or another function."""
    lines = text.split("\n")
    spans = _functions(text)
    if not spans:
        return text
    start, end, _ = rng.choice(spans)
    header = rng.choice(["class Holder:", "for _repeat in range(1):", "with open(__file__) as _handle:", "def outer():", "if True:"])
    body = _indent(lines[start : end + 1])
    return "\n".join(lines[:start] + [header] + body + lines[end + 1 :])


def wrap_body(text: str, rng: random.Random) -> str:
    """Nest the body of a top-level function inside a loop or ``with`` block."""
    tree = ast.parse(text)
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.body]
    if not functions:
        return text
    node = rng.choice(functions)
    lines = text.split("\n")
    first, last = node.body[0].lineno - 1, (node.body[-1].end_lineno or node.body[-1].lineno) - 1
    if node.body[0].lineno == node.lineno:  # a one-line def
        return text
    indent = re.match(r"[ \t]*", lines[first]).group(0)  # type: ignore[union-attr]
    header = indent + rng.choice(["for _once in range(1):", "with open(__file__):", "while True:"])
    body = _indent(lines[first : last + 1])
    tail = [indent + "    break"] if header.endswith("while True:") else []
    return "\n".join(lines[:first] + [header] + body + tail + lines[last + 1 :])


def comment_in_subscript(text: str, rng: random.Random) -> str:
    matches = list(re.finditer(r"(\w)\[(\w+)\]", text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + f"{m.group(1)}[  # element\n    {m.group(2)}]" + text[m.end() :]


def continuation(text: str, rng: random.Random) -> str:
    matches = list(re.finditer(r"(?m)^([ \t]+\w+) = (\S)", text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + f"{m.group(1)} = \\\n        {m.group(2)}" + text[m.end() :]


def semicolons(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    candidates = [
        i for i in range(len(lines) - 1)
        if re.match(r"[ \t]+\w+ = [^#\n]*$", lines[i])
        and re.match(r"[ \t]+\w+ = [^#\n]*$", lines[i + 1])
        and _leading(lines[i]) == _leading(lines[i + 1])
        and not lines[i].rstrip().endswith(("(", "[", "{", ",", "\\"))
    ]
    if not candidates:
        return text
    i = rng.choice(candidates)
    return "\n".join(lines[:i] + [lines[i] + "; " + lines[i + 1].strip()] + lines[i + 2 :])


def tabs(text: str, rng: random.Random) -> str:
    def retab(match: re.Match[str]) -> str:
        spaces = match.group(0)
        return "\t" * (len(spaces) // 4) + " " * (len(spaces) % 4)

    return re.sub(r"(?m)^(?: {4})+", retab, text)


def _leading(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


MUTATIONS = (rename, reorder, wrap_function, wrap_body, comment_in_subscript, continuation, semicolons, tabs)


def mutant(sources: list[str], rng: random.Random) -> tuple[str, list[str]] | None:
    """A random corpus file with 1-4 mutations, or ``None`` if the result does not compile."""
    text = rng.choice(sources)
    applied = []
    for _ in range(rng.randint(1, 4)):
        mutation = rng.choice(MUTATIONS)
        try:
            text = mutation(text, rng)
        except SyntaxError:
            return None
        applied.append(mutation.__name__)
    try:
        compile(text, "mutant", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    return text, applied


def grammar_programs(count: int, seed: int) -> list[str]:
    """``count`` programs from hypothesmith's grammar strategy, reproducible for a seed."""
    import hypothesmith
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed

    found: list[str] = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar())
    def collect(source: str) -> None:
        found.append(source)

    collect()
    return found


# -- properties ------------------------------------------------------------------------------------
@dataclass
class Outcome:
    findings: int = 0
    fixed: bool = False
    problems: tuple[str, ...] = ()


def _config(scope: str):  # type: ignore[no-untyped-def]
    from scalarlint.config import ALL_CODES, Config

    return Config(select=tuple(ALL_CODES), scope=scope, root=".")


def _outermost_function(tree: ast.Module, row: int) -> tuple[int, int] | None:
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            end = node.end_lineno or node.lineno
            if node.lineno <= row <= end and (best is None or node.lineno < best[0] or end > best[1]):
                if best is None or (node.lineno <= best[0] and end >= best[1]):
                    best = (node.lineno, end)
    return best


def problems(text: str, name: str = "generated.py") -> Outcome:
    """Check and fix one program; every broken property is one entry of ``problems``."""
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.diagnostics import FileError
    from scalarlint.engine import check_source
    from scalarlint.fixers.engine import fix_source, select_fixes

    source = SourceFile(name, text, "utf-8", text.encode("utf-8", "surrogatepass"))
    found: list[str] = []
    outcome = Outcome()
    for scope in ("rules", "all"):
        config = _config(scope)
        try:
            checked = check_source(source, config)
        except Exception:
            found.append(f"crash while checking (scope {scope}):\n{traceback.format_exc(limit=4)}")
            continue
        if isinstance(checked, FileError):
            continue
        outcome.findings = max(outcome.findings, len(checked))
        tree = ast.parse(text)
        for diagnostic, fix in select_fixes(text, checked, unsafe=True):
            span = _outermost_function(tree, diagnostic.location.row)
            for edit in fix.edits:
                added_import = edit.location == edit.end_location and edit.content.lstrip().startswith(("from ", "import "))
                inside = span is not None and span[0] <= edit.location.row and edit.end_location.row <= span[1] + 1
                if not (added_import or inside):
                    found.append(f"{diagnostic.code} at {diagnostic.location.row}: edit at rows {edit.location.row}-{edit.end_location.row} outside its function {span}")
        try:
            first = fix_source(source, config, unsafe=True)
        except Exception:
            found.append(f"crash while fixing (scope {scope}):\n{traceback.format_exc(limit=4)}")
            continue
        if first.error is not None or first.text == text:
            continue
        outcome.fixed = True
        try:
            compile(first.text, name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            found.append(f"fixed text does not compile (scope {scope}): {exc}")
            continue
        second = fix_source(replace(source, text=first.text, raw=first.text.encode("utf-8", "surrogatepass")), config, unsafe=True)
        if second.text != first.text:
            found.append(f"fixing twice differs from fixing once (scope {scope})")
    outcome.problems = tuple(found)
    return outcome


def jobs_agree(texts: list[str]) -> str | None:
    """Check ``texts`` as files of one folder with ``--jobs 1`` and every core; ``None`` if the
    findings are the same, else what differs."""
    from scalarlint.engine import check_paths

    with tempfile.TemporaryDirectory() as folder:
        for k, text in enumerate(texts):
            Path(folder, f"program_{k:04d}.py").write_text(text, encoding="utf-8")
        config = replace(_config("all"), root=folder)
        serial = check_paths([Path(folder)], config, jobs=1)
        parallel = check_paths([Path(folder)], config, jobs=max(2, os.cpu_count() or 2))

    def key(result):  # type: ignore[no-untyped-def]
        return [d.to_json() for d in result.diagnostics], [e.to_json() for e in result.errors]

    return None if key(serial) == key(parallel) else "findings differ between --jobs 1 and every core"


# -- the long run ------------------------------------------------------------------------------------
def _run_one(item: tuple[str, str]) -> tuple[str, str, Outcome, float]:
    kind, text = item
    warnings.simplefilter("ignore", SyntaxWarning)  # generated code is odd on purpose
    started = time.perf_counter()
    outcome = problems(text)
    return kind, text if outcome.problems else "", outcome, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--grammar-share", type=float, default=0.3, help="share of hypothesmith programs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--failures", type=Path, default=Path("generated_failures"), help="where failing programs are saved")
    args = parser.parse_args()

    warnings.simplefilter("ignore", SyntaxWarning)
    rng = random.Random(args.seed)
    sources = corpus_sources()
    n_grammar = int(args.count * args.grammar_share)
    started = time.perf_counter()
    programs: list[tuple[str, str]] = [("grammar", p) for p in grammar_programs(n_grammar, args.seed)]
    discarded = Counter[str]()
    while len(programs) < args.count:
        made = mutant(sources, rng)
        if made is None:
            discarded["mutant did not compile"] += 1
            continue
        programs.append(("mutant", made[0]))
    generated = time.perf_counter() - started

    from multiprocessing import Pool

    totals: dict[str, Counter[str]] = {"mutant": Counter(), "grammar": Counter()}
    failures: list[tuple[str, str, tuple[str, ...]]] = []
    slowest = 0.0
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        for kind, text, outcome, seconds in pool.imap_unordered(_run_one, programs, chunksize=8):
            slowest = max(slowest, seconds)
            counts = totals[kind]
            counts["programs"] += 1
            counts["with findings"] += outcome.findings > 0
            counts["fixed"] += outcome.fixed
            for problem in outcome.problems:
                counts[_category(problem)] += 1
            if outcome.problems:
                failures.append((kind, text, outcome.problems))
    checked = time.perf_counter() - started
    batches = [[text for _, text in programs[i : i + 50]] for i in range(0, min(len(programs), 2_000), 50)]
    job_mismatches = sum(1 for batch in batches if jobs_agree(batch) is not None)

    if failures:
        args.failures.mkdir(exist_ok=True)
        for k, (kind, text, found) in enumerate(failures):
            (args.failures / f"failure_{k:04d}.py").write_text(text, encoding="utf-8")
            (args.failures / f"failure_{k:04d}.txt").write_text(f"{kind}\n" + "\n".join(found), encoding="utf-8")
    report = _table(args, totals, discarded, job_mismatches, len(batches), generated, checked, slowest)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    sys.exit(1 if failures or job_mismatches else 0)


def _category(problem: str) -> str:
    if problem.startswith("crash"):
        return "crashes"
    if "does not compile" in problem:
        return "non-compiling fixes"
    if "twice" in problem:
        return "non-idempotent fixes"
    return "edits outside the finding's function"


def _table(args, totals, discarded, mismatches, batches, generated, checked, slowest) -> str:  # type: ignore[no-untyped-def]
    rows = ["programs", "with findings", "fixed", "crashes", "non-compiling fixes", "non-idempotent fixes", "edits outside the finding's function"]
    lines = [
        "# Generated programs: checker and fixers on code nobody wrote",
        "",
        f"Command: `python benchmarks/generated_programs.py --count {args.count} --seed {args.seed} --out {args.out}`",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"generation {generated:.0f} s, checking and fixing {checked:.0f} s with {args.jobs} processes "
        f"(slowest program {slowest:.1f} s).",
        "",
        "| | mutants of the corpus | hypothesmith grammar | total |",
        "|---|---|---|---|",
    ]
    for row in rows:
        m, g = totals["mutant"][row], totals["grammar"][row]
        lines.append(f"| {row} | {m} | {g} | {m + g} |")
    lines += [
        "",
        f"Mutants discarded because they did not compile: {discarded['mutant did not compile']}.",
        f"`--jobs 1` against every core, {batches} batches of 50 programs: {mismatches} with different findings.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
