"""``scalarlint check --runtime FILE``: static findings joined with a record of a test run.

A record (``pytest --scalarlint-record FILE``, see :mod:`scalarlint.runtime_record`) lists
every scalar access the project's tests made, at the caller's line. Each one inside an AD
rule or a helper the checker follows is a true instance that nobody had to label, so:

* a finding whose lines hold a recorded access is ``confirmed`` (for a loop finding, SL103
  and SL104, the loop's whole body counts: the accesses happen inside it);
* a finding on a line that ran under the strict policy without any access is ``ran clean``
  (a false positive, or a path the tests' data did not take);
* a finding no test reached is ``not run``;
* a recorded access with no finding on its line is ``seen at runtime, not reported``: a miss
  of the checker (``--runtime-findings`` reports these as findings). The share of recorded
  sites inside rules that the checker reported is a recall estimate on this project.
"""

from __future__ import annotations

import ast
import dataclasses
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from scalarlint.diagnostics import Diagnostic, Location, Severity

__all__ = ["RuntimeRecord", "Joined", "load_record", "join", "summary_line", "RecordError"]

_LOOP_CODES = frozenset({"SL103", "SL104"})
_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class RecordError(Exception):
    """The record file cannot be read (missing, not JSON, another version)."""


@dataclass
class Site:
    """The accesses recorded at one line (all its operations together)."""

    path: str  # absolute
    line: int
    function: str
    operations: list[str]
    codes: list[str]
    count: int
    tests: list[str]
    in_rule: bool = True


@dataclass
class RuntimeRecord:
    root: Path
    tests: int
    lines_traced: bool
    sites: dict[tuple[str, int], Site]
    lines_run: dict[str, set[int]]


@dataclass
class Joined:
    """The join: a status per finding (same order) and the sites no finding covers."""

    statuses: list[str]
    unreported: list[Site] = field(default_factory=list)
    outside_rules: list[Site] = field(default_factory=list)
    sites_in_rules: int = 0
    tests: int = 0


def load_record(path: Path) -> RuntimeRecord:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"cannot read the runtime record {path}: {exc}") from exc
    if not isinstance(data, dict) or data.get("version") != 1:
        raise RecordError(f"{path} is not a scalarlint runtime record (version 1); write one with pytest --scalarlint-record")
    root = Path(data["root"])
    sites: dict[tuple[str, int], Site] = {}
    for raw in data.get("sites", []):
        where = (str(root / raw["path"]), int(raw["line"]))
        site = sites.setdefault(where, Site(where[0], where[1], raw.get("function", ""), [], [], 0, []))
        site.operations.append(raw.get("operation", ""))
        if raw.get("code") and raw["code"] not in site.codes:
            site.codes.append(raw["code"])
        site.count += int(raw.get("count", 1))
        site.tests += [t for t in raw.get("tests", []) if t not in site.tests]
    lines_run = {str(root / p): set(lines) for p, lines in data.get("lines_run", {}).items()}
    return RuntimeRecord(root, int(data.get("tests", 0)), bool(data.get("lines_traced")), sites, lines_run)


@lru_cache(maxsize=256)
def _loop_ends(path: str) -> dict[int, int]:
    """First line of each loop in ``path`` -> its last line (the body's)."""
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return {}
    ends: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, _LOOPS):
            ends[node.lineno] = max(ends.get(node.lineno, 0), node.end_lineno or node.lineno)
    return ends


def _span(diagnostic: Diagnostic, path: str) -> range:
    first, last = diagnostic.location.row, diagnostic.end_location.row
    if diagnostic.code in _LOOP_CODES:
        last = max(last, _loop_ends(path).get(first, last))
    return range(first, last + 1)


def _rule_functions(paths: list[str], config: Any) -> dict[str, set[str]]:
    """Per file: the qualified names of the functions the checker checks (rules, helpers)."""
    from scalarlint.analysis.project import Project, module_names
    from scalarlint.analysis.sources import decode_source
    from scalarlint.diagnostics import FileError
    from scalarlint.engine import index_source

    names = module_names(paths)
    indexes = []
    for path in paths:
        try:
            source = decode_source(Path(path).read_bytes(), path)
        except OSError:
            continue
        if isinstance(source, FileError):
            continue
        index = index_source(source, config, *names[path])
        if index is not None and not isinstance(index, FileError):
            indexes.append(index)
    targets = Project(indexes, config).targets(scope_all=config.scope == "all")
    return {str(Path(path).resolve()): set(keys) for path, keys in targets.items()}


def _function_key(qualname: str) -> str:
    return qualname.replace(".<locals>", "")


def join(diagnostics: list[Diagnostic], record: RuntimeRecord, checked: list[str], config: Any) -> Joined:
    """Mark each finding and collect the recorded sites that no finding covers."""
    covered: set[tuple[str, int]] = set()
    statuses = []
    for d in diagnostics:
        path = str(Path(d.filename).resolve())
        span = _span(d, path)
        hits = [(path, line) for line in span if (path, line) in record.sites]
        covered.update(hits)
        if hits:
            statuses.append("confirmed")
        elif record.lines_traced and any(line in record.lines_run.get(path, ()) for line in span):
            statuses.append("ran clean")
        else:
            statuses.append("not run")
    checked_set = {str(Path(p).resolve()) for p in checked}
    in_checked = [s for s in record.sites.values() if s.path in checked_set]
    rules = _rule_functions(sorted({s.path for s in in_checked} | set(checked_set)), config) if in_checked else {}
    joined = Joined(statuses, tests=record.tests)
    for site in sorted(in_checked, key=lambda s: (s.path, s.line)):
        site.in_rule = _function_key(site.function) in rules.get(site.path, set())
        if not site.in_rule:
            joined.outside_rules.append(site)
            continue
        joined.sites_in_rules += 1
        if (site.path, site.line) not in covered:
            joined.unreported.append(site)
    return joined


def site_findings(sites: list[Site], cwd: Path) -> list[Diagnostic]:
    """The sites no finding covers, as findings (``--runtime-findings``)."""
    out = []
    for site in sites:
        code = site.codes[0] if site.codes else "SL101"
        tests = ", ".join(site.tests[:3]) + (" ..." if len(site.tests) > 3 else "")
        out.append(Diagnostic(
            code=code, name="seen-at-runtime",
            message=f"seen at runtime, not reported: {'; '.join(sorted(set(site.operations)))} "
                    f"({site.count}x; tests: {tests or '?'})",
            filename=_shown(site.path, cwd), location=Location(site.line, 1), end_location=Location(site.line, 1),
            severity=Severity.WARNING, rule=site.function,
        ))
    return out


def _shown(path: str, cwd: Path) -> str:
    try:
        return str(Path(path).relative_to(cwd))
    except ValueError:
        return path


def summary_line(joined: Joined) -> str:
    reported = joined.sites_in_rules - len(joined.unreported)
    recall = f"{reported / joined.sites_in_rules:.0%}" if joined.sites_in_rules else "n/a"
    counts = {s: joined.statuses.count(s) for s in ("confirmed", "ran clean", "not run")}
    return (
        f"Runtime ({joined.tests} tests): {joined.sites_in_rules} scalar-access sites in rules, "
        f"{reported} reported by the checker (recall estimate {recall}); "
        f"{len(joined.outside_rules)} more outside rules; findings: {counts['confirmed']} confirmed, "
        f"{counts['ran clean']} on lines that ran strict without scalar access, {counts['not run']} not run."
    )


def unreported_lines(joined: Joined, cwd: Path) -> list[str]:
    lines = []
    for site in joined.unreported:
        ops = "; ".join(sorted(set(site.operations)))
        lines.append(f"{_shown(site.path, cwd)}:{site.line}: seen at runtime, not reported: {ops} "
                     f"[{', '.join(site.codes)}] ({site.count}x in {site.function}; tests: {', '.join(site.tests)})")
    return lines


def marked(diagnostics: list[Diagnostic], statuses: list[str]) -> list[Diagnostic]:
    """Text output: the status appended to each message."""
    return [dataclasses.replace(d, message=f"{d.message} [runtime: {s}]") for d, s in zip(diagnostics, statuses)]


def _decorate_json(text: str, statuses: list[str], sarif: bool) -> str:
    """JSON: ``"runtime": status`` on each finding; SARIF: ``properties.runtime`` on each result."""
    data = json.loads(text)
    results = data["runs"][0]["results"] if sarif else data
    for result, status in zip(results, statuses):
        if sarif:
            result.setdefault("properties", {})["runtime"] = status
        else:
            result["runtime"] = status
    return json.dumps(data, indent=2) + "\n"


def run_check(paths: list[Path], config: Any, jobs: int | None, record_path: Path, as_findings: bool,
              output_format: str, output_file: Path | None, exit_zero: bool) -> int:
    """The whole ``check --runtime`` run: check, join, report; returns the exit code."""
    import click

    from scalarlint.engine import check_paths
    from scalarlint.files import discover
    from scalarlint.output import FORMATS

    try:
        record = load_record(record_path)
    except RecordError as exc:
        raise click.UsageError(str(exc)) from exc
    run = check_paths(paths, config, jobs, None)
    files, _ = discover(paths, config)
    joined = join(run.diagnostics, record, [str(f) for f in files], config)
    cwd = Path.cwd()
    extra = site_findings(joined.unreported, cwd) if as_findings else []
    diagnostics = run.diagnostics + extra
    statuses = joined.statuses + ["seen at runtime, not reported"] * len(extra)
    notes = ([] if as_findings else unreported_lines(joined, cwd)) + [summary_line(joined)]
    render = FORMATS[output_format]
    if output_format in ("json", "sarif"):
        report = _decorate_json(render(diagnostics, run.errors, run.files_checked, False), statuses, output_format == "sarif")
    else:
        from scalarlint.diagnostics import visible_fixes

        shown = [visible_fixes(d, unsafe=False) for d in marked(diagnostics, statuses)]
        report = render(shown, run.errors, run.files_checked, False)
    if output_format == "text" and output_file is None:
        report += "".join(f"{line}\n" for line in notes)
        notes = []
    if output_file is not None:
        output_file.write_text(report, encoding="utf-8")
    else:
        click.echo(report, nl=False)
    for line in notes:
        click.echo(line, err=True)
    for error in run.errors:
        if output_format != "text" or output_file is not None:
            click.echo(f"{error.filename}: error: {error.message}", err=True)
    if run.errors:
        return 2
    return 1 if diagnostics and not exit_zero else 0
