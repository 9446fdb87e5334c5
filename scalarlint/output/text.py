"""Human output: ``path:line:col: SL101 message [rule: name]`` and a summary line."""

from __future__ import annotations

import click

from scalarlint.diagnostics import Diagnostic, FileError, Severity


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def render_text(
    diagnostics: list[Diagnostic], errors: list[FileError], files: int, color: bool, reasons: bool = False, evidence: bool = False
) -> str:
    """One line per finding, ruff's concise format; with ``reasons`` (``--show-fixes``), a
    finding without a fix is followed by an indented ``= no fix: ...`` line; with ``evidence``
    (``--show-evidence``), by ``= confidence: LEVEL`` and one ``- reason`` line per reason."""
    def style(text: str, **kw: object) -> str:
        return click.style(text, **kw) if color else text  # type: ignore[arg-type]

    lines: list[str] = []
    for d in diagnostics:
        code_color = "red" if d.severity is Severity.ERROR else "yellow"
        where = style(f"{d.filename}:{d.where}:", bold=True)
        rule = f" [rule: {d.rule}]" if d.rule else ""
        fix = style(" [*]", fg="cyan") if d.fixable else ""
        lines.append(f"{where} {style(d.code, fg=code_color, bold=True)}{fix} {d.message}{style(rule, dim=True)}")
        if reasons and d.no_fix_reason:
            lines.append(style(f"  = no fix: {d.no_fix_reason}", dim=True))
        if evidence:
            lines.append(style(f"  = confidence: {d.confidence.value}", dim=True))
            lines += [style(f"    - {reason}", dim=True) for reason in d.evidence]
    for e in errors:  # as a finding of its code (SL001-SL003): editors and CI jump to the place
        lines.append(f"{style(f'{e.filename}:{e.where}:', bold=True)} {style(e.code, fg='red', bold=True)} {e.message}")
    n_err = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    if diagnostics:
        fixable = sum(1 for d in diagnostics if d.fixable)
        summary = (
            f"Found {plural(len(diagnostics), 'finding')} ({plural(n_err, 'error')}, "
            f"{plural(len(diagnostics) - n_err, 'warning')}) in {plural(len({d.filename for d in diagnostics}), 'file')}"
            f" ({plural(files, 'file')} checked)."
        )
        if fixable:
            summary += f" {fixable} fixable with `--fix`."
        lines.append(style(summary, bold=True))
    elif not errors:
        lines.append(style(f"All checks passed! ({plural(files, 'file')} checked)", fg="green"))
    if errors:
        lines.append(style(f"{plural(len(errors), 'file')} could not be checked.", fg="red"))
    return "\n".join(lines) + "\n"
