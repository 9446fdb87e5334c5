"""Recall and precision of the default checks on labelled real AD code, and on the ChainRules corpus.

The labels live in ``benchmarks/recall/*.labels``, one file per code base, each pinned to a
release (see ``benchmarks/recall/SOURCES.md`` for where to get it and its sha256). They hold
line numbers, kinds and a short digest of each labelled line, never the code itself. This script
fetches nothing: give it a folder holding the unpacked releases, named as the ``project`` line of
each label file says (e.g. ``chainer-7.8.1``).

    python benchmarks/recall.py CHECKOUTS [--out benchmarks/results/recall.md] [--json FILE]
                                [--before FILE.json] [--show-misses] [--show-unlabelled]

What is counted (see ``../shared/LABELLING.md``):
- recall per kind: a true label (``scalar-get``, ``elem-loop``, ...) is found when the check of
  its kind reports on that line;
- near-miss false positives: near-miss lines (``near-tuple``, ``near-slab``, ...) with any finding;
- precision: of the findings inside the functions that were read whole (``scope`` lines), the
  share that lands on a true label of its code; ``debatable`` lines count neither way;
- per confidence level (``--confidence high|medium|low``): each code base is checked once at
  ``low`` and its findings kept at or above each level; the other tables are the default's
  (``medium``);
- whole-tree precision, for code bases whose every finding was read (``read-all`` in the label
  file): each finding is a true label, a near-miss or ``debatable`` label, or a ``finding`` line
  giving the verdict (``tp``, ``fp``, ``debatable``) of one read outside the labelled functions.
  A finding with no verdict is reported as unread.

``--stamp`` writes the digests of labels that have none (used once, when labelling).
The ChainRules corpus (``tests/chainrules_corpus``, ``# expect:`` comments on every line) is
measured the same way and reported alongside.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scalarlint.config import Config  # noqa: E402
from scalarlint.diagnostics import CONFIDENCE_LEVELS, Confidence  # noqa: E402
from scalarlint.engine import check_paths  # noqa: E402

LABELS = ROOT / "benchmarks" / "recall"
CORPUS = ROOT / "tests" / "chainrules_corpus"
KIND_CODE = {
    "scalar-get": "SL101",
    "scalar-set": "SL102",
    "search": "SL103",
    "elem-loop": "SL104",
    "elem-iter": "SL104",
    "host-conv": "SL105",
    "data-dep": "SL106",
}
EXPECT = re.compile(r"#\s*expect:\s*((?:SL\d{3}\s*)+)")


def digest(line: str) -> str:
    return hashlib.sha1(line.strip().encode("utf-8")).hexdigest()[:8]


@dataclass
class Label:
    path: str
    line: int
    kind: str
    digest: str = ""


@dataclass
class LabelFile:
    source: Path
    project: str = ""
    scopes: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    labels: list[Label] = field(default_factory=list)
    read_all: bool = False  # every finding on the whole tree was read: verdicts below
    verdicts: dict[tuple[str, int, str], str] = field(default_factory=dict)


def parse_labels(path: Path) -> LabelFile:
    out = LabelFile(source=path)
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "project":
            out.project = words[1]
        elif words[0] == "read-all":
            out.read_all = True
        elif words[0] == "finding":
            file, _, number = words[1].rpartition(":")
            out.verdicts[(file, int(number), words[2])] = words[3]
        elif words[0] == "scope":
            file, _, span = words[1].rpartition(":")
            first, _, last = span.partition("-")
            out.scopes[file].append((int(first), int(last)))
        else:
            file, _, number = words[0].rpartition(":")
            out.labels.append(Label(file, int(number), words[1], words[2] if len(words) > 2 else ""))
    return out


def stamp(label_file: LabelFile, checkout: Path) -> None:
    """Add the digest of each labelled line that has none (rewrites the label file)."""
    lines = label_file.source.read_text(encoding="utf-8").splitlines()
    cache: dict[str, list[str]] = {}
    out = []
    for raw in lines:
        words = raw.split()
        if len(words) == 2 and ":" in words[0] and not raw.startswith(("#", "scope", "project", "finding")):
            file, _, number = words[0].rpartition(":")
            text = cache.setdefault(file, (checkout / file).read_text(encoding="utf-8").splitlines())
            raw = f"{raw} {digest(text[int(number) - 1])}"
        out.append(raw)
    label_file.source.write_text("\n".join(out) + "\n", encoding="utf-8")


Spans = dict[tuple[str, int, str], int]  # (file, first row, code) -> last row of the finding
Levels = dict[tuple[str, int, str], Confidence]  # (file, first row, code) -> the surest finding's confidence


def findings_for(folder: Path, config: Config, levels: Levels | None = None) -> tuple[set[tuple[str, int, str]], float, Spans]:
    """The findings of a run on ``folder``; ``levels`` receives each one's confidence."""
    start = time.perf_counter()
    result = check_paths([folder], config)
    elapsed = time.perf_counter() - start
    found = set()
    spans: Spans = {}
    for d in result.diagnostics:
        rel = Path(d.filename).resolve().relative_to(folder.resolve()).as_posix()
        key = (rel, d.location.row, d.code)
        found.add(key)
        spans[key] = d.end_location.row
        if levels is not None and (key not in levels or d.confidence.rank > levels[key].rank):
            levels[key] = d.confidence
    return found, elapsed, spans


def at_level(found: set[tuple[str, int, str]], levels: Levels, level: str) -> set[tuple[str, int, str]]:
    return {key for key in found if levels[key].at_least(level)}


def align_to_labels(found: set[tuple[str, int, str]], spans: Spans, label_file: LabelFile) -> set[tuple[str, int, str]]:
    """A finding on an expression that spans lines (``f(\n...\n)[0]``) is reported at its first
    line; a labeller may have put the label on its last (where the ``[0]`` is). Such a finding
    counts on its last line when only that line carries a true label of its check."""
    true_at = {(label.path, label.line, KIND_CODE[label.kind]) for label in label_file.labels if label.kind in KIND_CODE}
    aligned = set()
    for file, row, code in found:
        end = spans.get((file, row, code), row)
        if (file, row, code) not in true_at and end != row and (file, end, code) in true_at:
            aligned.add((file, end, code))
        else:
            aligned.add((file, row, code))
    return aligned


@dataclass
class Score:
    true_by_kind: Counter = field(default_factory=Counter)
    hit_by_kind: Counter = field(default_factory=Counter)
    near: int = 0
    near_hit: int = 0
    findings_in_scope: int = 0
    findings_on_true: int = 0
    misses: list[str] = field(default_factory=list)
    unlabelled: list[str] = field(default_factory=list)
    near_hits: list[str] = field(default_factory=list)

    def add(self, other: "Score") -> None:
        self.true_by_kind.update(other.true_by_kind)
        self.hit_by_kind.update(other.hit_by_kind)
        for name in ("near", "near_hit", "findings_in_scope", "findings_on_true"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def recall(self) -> float:
        total = sum(self.true_by_kind.values())
        return sum(self.hit_by_kind.values()) / total if total else 1.0

    @property
    def precision(self) -> float:
        return self.findings_on_true / self.findings_in_scope if self.findings_in_scope else 1.0

    @property
    def near_rate(self) -> float:
        return self.near_hit / self.near if self.near else 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "true": dict(self.true_by_kind),
            "found": dict(self.hit_by_kind),
            "near": self.near,
            "near_hit": self.near_hit,
            "findings_in_scope": self.findings_in_scope,
            "findings_on_true": self.findings_on_true,
        }


def score(label_file: LabelFile, found: set[tuple[str, int, str]], checkout: Path) -> tuple[Score, list[str]]:
    s = Score()
    stale: list[str] = []
    texts: dict[str, list[str]] = {}
    true_codes: dict[tuple[str, int], set[str]] = defaultdict(set)
    skip: set[tuple[str, int]] = set()
    near_lines: set[tuple[str, int]] = set()
    codes_on_line: dict[tuple[str, int], set[str]] = defaultdict(set)
    for file, line, code in found:
        codes_on_line[(file, line)].add(code)
    for label in label_file.labels:
        text = texts.setdefault(label.path, (checkout / label.path).read_text(encoding="utf-8").splitlines())
        if label.digest and (label.line > len(text) or digest(text[label.line - 1]) != label.digest):
            stale.append(f"{label.path}:{label.line} {label.kind}: the line no longer matches its digest")
        where = (label.path, label.line)
        if label.kind in KIND_CODE:
            code = KIND_CODE[label.kind]
            true_codes[where].add(code)
            s.true_by_kind[label.kind] += 1
            if code in codes_on_line[where]:
                s.hit_by_kind[label.kind] += 1
            else:
                s.misses.append(f"{label.path}:{label.line} {label.kind} ({code})  {text[label.line - 1].strip()}")
        elif label.kind == "debatable":
            skip.add(where)
        elif label.kind.startswith("near-"):
            near_lines.add(where)
        else:
            raise SystemExit(f"{label_file.source}: unknown kind {label.kind!r}")
    for where in near_lines:
        if where in true_codes or where in skip:
            continue
        s.near += 1
        if codes_on_line[where]:
            s.near_hit += 1
            s.near_hits.append(f"{where[0]}:{where[1]} {sorted(codes_on_line[where])}  {texts[where[0]][where[1] - 1].strip()}")
    for file, line, code in sorted(found):
        if not any(a <= line <= b for a, b in label_file.scopes.get(file, [])) or (file, line) in skip:
            continue
        s.findings_in_scope += 1
        if code in true_codes[(file, line)]:
            s.findings_on_true += 1
        else:
            text = texts.get(file) or (checkout / file).read_text(encoding="utf-8").splitlines()
            s.unlabelled.append(f"{file}:{line} {code}  {text[line - 1].strip()}")
    return s, stale


@dataclass
class TreeReading:
    """Every finding on a whole tree, by verdict (labels first, then ``finding`` verdicts)."""

    tp: int = 0
    fp: int = 0
    debatable: int = 0
    unread: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0


def read_tree(label_file: LabelFile, found: set[tuple[str, int, str]], checkout: Path) -> TreeReading:
    reading = TreeReading()
    kinds: dict[tuple[str, int], set[str]] = defaultdict(set)
    for label in label_file.labels:
        kinds[(label.path, label.line)].add(label.kind)
    for file, line, code in sorted(found):
        labelled = kinds.get((file, line), set())
        verdict = label_file.verdicts.get((file, line, code))
        if any(KIND_CODE.get(k) == code for k in labelled):
            reading.tp += 1
        elif verdict is not None:
            setattr(reading, verdict, getattr(reading, verdict) + 1)
            if verdict == "fp":
                reading.wrong.append(f"{file}:{line} {code}")
        elif "debatable" in labelled:
            reading.debatable += 1
        elif labelled:  # a near-miss, or a true label of another check
            reading.fp += 1
            reading.wrong.append(f"{file}:{line} {code} (on a {'/'.join(sorted(labelled))} label)")
        else:
            text = (checkout / file).read_text(encoding="utf-8").splitlines()[line - 1].strip()
            reading.unread.append(f"{file}:{line} {code}  {text}")
    return reading


def corpus_score(corpus: Path) -> Score:
    """Every line of the ChainRules corpus is labelled: ``# expect:`` codes, or nothing."""
    s = Score()
    if not corpus.is_dir():
        return s
    found, _, _ = findings_for(corpus, Config(root=str(corpus)))
    by_line: dict[tuple[str, int], set[str]] = defaultdict(set)
    for file, line, code in found:
        by_line[(file, line)].add(code)
    for path in sorted(corpus.glob("*.py")):
        rel = path.relative_to(corpus).as_posix()
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = EXPECT.search(text)
            want = set(match.group(1).split()) if match else set()
            got = by_line.get((rel, number), set())
            for code in want:
                s.true_by_kind[code] += 1
                if code in got:
                    s.hit_by_kind[code] += 1
                else:
                    s.misses.append(f"{rel}:{number} {code}  {text.strip()}")
            for code in got:
                s.findings_in_scope += 1
                if code in want:
                    s.findings_on_true += 1
                else:
                    s.unlabelled.append(f"{rel}:{number} {code}  {text.strip()}")
    return s


def _pct(value: float) -> str:
    return f"{value:.2f}"


def level_table(by_level: dict[str, Score]) -> list[str]:
    """Recall, near-miss false positives and precision if only findings at or above each
    confidence level were reported (``--confidence LEVEL``)."""
    lines = ["## Per confidence level (`--confidence LEVEL`; all code bases)", ""]
    lines += ["| level | found | recall | near-miss FPs | FP rate | findings in scope | precision |", "|---|---|---|---|---|---|---|"]
    for level in CONFIDENCE_LEVELS:
        s = by_level[level]
        name = f"{level} (default)" if level == Config().confidence else level
        lines.append(
            f"| {name} | {sum(s.hit_by_kind.values())} | {_pct(s.recall)} | {s.near_hit} | {_pct(s.near_rate)} | "
            f"{s.findings_in_scope} | {_pct(s.precision)} |"
        )
    return lines + [""]


def report(per_project: dict[str, Score], total: Score, corpus: Score, times: dict[str, float], before: dict | None,
           readings: dict[str, TreeReading] | None = None, by_level: dict[str, Score] | None = None) -> str:
    lines = ["# Recall and precision on labelled real AD code", ""]
    lines.append("Produced by `python benchmarks/recall.py CHECKOUTS` (default scope, default checks).")
    lines.append("Labels: `benchmarks/recall/*.labels`; sources and checksums: `benchmarks/recall/SOURCES.md`.")
    lines.append("")
    lines.append("## Per kind (all code bases)")
    lines.append("")
    header = "| kind | check | labelled | found | recall |"
    if before:
        header += " recall before |"
    lines += [header, "|" + "---|" * (header.count("|") - 1)]
    for kind, code in KIND_CODE.items():
        n, k = total.true_by_kind[kind], total.hit_by_kind[kind]
        row = f"| {kind} | {code} | {n} | {k} | {_pct(k / n if n else 1)} |"
        if before:
            bn, bk = before["total"]["true"].get(kind, 0), before["total"]["found"].get(kind, 0)
            row += f" {_pct(bk / bn if bn else 1)} |"
        lines.append(row)
    n_all, k_all = sum(total.true_by_kind.values()), sum(total.hit_by_kind.values())
    row = f"| **all** | | {n_all} | {k_all} | **{_pct(total.recall)}** |"
    if before:
        b = before["total"]
        row += f" {_pct(sum(b['found'].values()) / max(1, sum(b['true'].values())))} |"
    lines.append(row)
    lines.append("")
    lines.append("## Per code base")
    lines.append("")
    header = "| code base | true | found | recall | near-misses | near-miss FPs | FP rate | findings in scope | precision | check time (s) |"
    lines += [header, "|" + "---|" * (header.count("|") - 1)]
    for name, s in sorted(per_project.items()):
        lines.append(
            f"| {name} | {sum(s.true_by_kind.values())} | {sum(s.hit_by_kind.values())} | {_pct(s.recall)} | {s.near} | "
            f"{s.near_hit} | {_pct(s.near_rate)} | {s.findings_in_scope} | {_pct(s.precision)} | {times[name]:.1f} |"
        )
    lines.append(
        f"| **all** | {n_all} | {k_all} | **{_pct(total.recall)}** | {total.near} | {total.near_hit} | **{_pct(total.near_rate)}** | "
        f"{total.findings_in_scope} | **{_pct(total.precision)}** | |"
    )
    if before:
        b = before["total"]
        lines.append(
            f"| before | {sum(b['true'].values())} | {sum(b['found'].values())} | "
            f"{_pct(sum(b['found'].values()) / max(1, sum(b['true'].values())))} | {b['near']} | {b['near_hit']} | "
            f"{_pct(b['near_hit'] / max(1, b['near']))} | {b['findings_in_scope']} | "
            f"{_pct(b['findings_on_true'] / b['findings_in_scope'] if b['findings_in_scope'] else 1)} | |"
        )
    lines.append("")
    if by_level:
        lines += level_table(by_level)
    if readings:
        lines.append("## Every finding read (whole trees, default scope)")
        lines.append("")
        lines += ["| code base | findings | true | false | debatable | unread | precision |", "|---|---|---|---|---|---|---|"]
        for name, r in sorted(readings.items()):
            total_found = r.tp + r.fp + r.debatable + len(r.unread)
            lines.append(f"| {name} | {total_found} | {r.tp} | {r.fp} | {r.debatable} | {len(r.unread)} | **{_pct(r.precision)}** |")
        wrong = [f"{name}: {w}" for name, r in sorted(readings.items()) for w in r.wrong]
        if wrong:
            lines += ["", "False positives read: " + "; ".join(f"`{w}`" for w in wrong) + "."]
        lines.append("")
    lines.append("## ChainRules corpus (`tests/chainrules_corpus`, every line labelled)")
    lines.append("")
    lines += ["| check | labelled | found | recall |", "|---|---|---|---|"]
    for code in sorted(corpus.true_by_kind):
        n, k = corpus.true_by_kind[code], corpus.hit_by_kind[code]
        lines.append(f"| {code} | {n} | {k} | {_pct(k / n)} |")
    lines.append(
        f"| **all** | {sum(corpus.true_by_kind.values())} | {sum(corpus.hit_by_kind.values())} | **{_pct(corpus.recall)}** |"
    )
    lines.append("")
    lines.append(f"Findings: {corpus.findings_in_scope}, on a label: {corpus.findings_on_true}, precision **{_pct(corpus.precision)}**.")
    if before and "corpus" in before:
        c = before["corpus"]
        lines.append(
            f"Before: recall {_pct(sum(c['found'].values()) / max(1, sum(c['true'].values())))}, "
            f"precision {_pct(c['findings_on_true'] / c['findings_in_scope'] if c['findings_in_scope'] else 1)}."
        )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", type=Path, help="folder with the unpacked releases named in the label files")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, help="write the Markdown table here")
    parser.add_argument("--json", type=Path, help="write the raw counts here (for --before of a later run)")
    parser.add_argument("--before", type=Path, help="counts of an earlier run to compare with")
    parser.add_argument("--before-note", default="", help="how the earlier counts were made (printed with them)")
    parser.add_argument("--stamp", action="store_true", help="add digests to labels that have none")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--show-unlabelled", action="store_true", help="findings in scope on no true label")
    args = parser.parse_args(argv)

    per_project: dict[str, Score] = {}
    readings: dict[str, TreeReading] = {}
    times: dict[str, float] = {}
    total = Score()
    by_level = {level: Score() for level in CONFIDENCE_LEVELS}
    problems: list[str] = []
    for path in sorted(args.labels.glob("*.labels")):
        label_file = parse_labels(path)
        checkout = args.checkouts / label_file.project
        if not checkout.is_dir():
            problems.append(f"{path.name}: no checkout at {checkout}")
            continue
        if args.stamp:
            stamp(label_file, checkout)
            label_file = parse_labels(path)
        levels: Levels = {}
        every, elapsed, spans = findings_for(checkout, Config(root=str(checkout), confidence="low"), levels)
        for level in CONFIDENCE_LEVELS:
            by_level[level].add(score(label_file, align_to_labels(at_level(every, levels, level), spans, label_file), checkout)[0])
        found = align_to_labels(at_level(every, levels, Config().confidence), spans, label_file)
        s, stale = score(label_file, found, checkout)
        problems += [f"{label_file.project}: {p}" for p in stale]
        per_project[label_file.project] = s
        times[label_file.project] = elapsed
        if label_file.read_all:
            readings[label_file.project] = reading = read_tree(label_file, found, checkout)
            if reading.unread:
                problems.append(f"{label_file.project}: {len(reading.unread)} findings without a verdict")
                if args.show_unlabelled:
                    print(f"\n## {label_file.project}: findings not read yet\n" + "\n".join(reading.unread))
        total.add(s)
        for title, rows in (("missed", s.misses if args.show_misses else []),
                            ("unlabelled findings", s.unlabelled if args.show_unlabelled else []),
                            ("near-miss findings", s.near_hits if args.show_unlabelled else [])):
            if rows:
                print(f"\n## {label_file.project}: {title}")
                print("\n".join(rows))
    corpus = corpus_score(args.corpus)
    if args.show_misses and corpus.misses:
        print("\n## corpus: missed\n" + "\n".join(corpus.misses))
    if args.show_unlabelled and corpus.unlabelled:
        print("\n## corpus: unlabelled findings\n" + "\n".join(corpus.unlabelled))
    before = json.loads(args.before.read_text()) if args.before else None
    text = report(per_project, total, corpus, times, before, readings, by_level)
    if before and args.before_note:
        text += f"\n\"before\": {args.before_note}\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if args.json:
        data = {"total": total.as_json(), "corpus": corpus.as_json(), "levels": {k: v.as_json() for k, v in by_level.items()},
                "projects": {k: v.as_json() for k, v in per_project.items()},
                "read": {k: {"tp": r.tp, "fp": r.fp, "debatable": r.debatable, "unread": len(r.unread)} for k, r in readings.items()}}
        args.json.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
