"""One count of fixes for every message: what a report calls fixable is what a fix run fixes.

A report marks a finding ``[*]`` when it has a fix the run's settings may apply, and says
``N fixable with `--fix```. ``--diff`` and ``--fix`` used to count every finding that went
away instead, which also took in findings with no fix of their own that a neighbour's fix
removed (the element reads that used a search's index), and matched what was left against
what was there without regard to fixes: the report said 25 fixable and the fix run "Fixed 26".

Here the findings of a file before and after its fixes are split into:

* ``fixed``: findings the report marked fixable that are gone (the number every message
  uses: equal to the report's when every fix applies);
* ``carried``: findings without an applicable fix that went away with the others' fixes;
* ``raised``: findings of the fixed text beyond those of the original (a fix's own output).

Findings are matched by check and rule, as positions move under the edits; what is left is
matched first with findings of its own kind (still fixable or not), so a fixable finding is
counted as fixed only when fewer findings of its check and rule remain than there were.
No libcst here: the CLI's summary lines come from plain diagnostics.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from scalarlint.diagnostics import Diagnostic, visible_fixes


def applicable(diagnostic: Diagnostic, unsafe: bool) -> bool:
    """Whether a run with these settings may apply one of the diagnostic's fixes (what the
    report marks ``[*]``)."""
    return visible_fixes(diagnostic, unsafe).fixable


def unsafe_only(diagnostic: Diagnostic) -> bool:
    """Fixable with ``--unsafe-fixes`` and not without."""
    return applicable(diagnostic, True) and not applicable(diagnostic, False)


@dataclass
class FixTally:
    fixed: list[Diagnostic] = field(default_factory=list)
    carried: list[Diagnostic] = field(default_factory=list)
    raised: int = 0

    def add(self, other: "FixTally") -> None:
        self.fixed.extend(other.fixed)
        self.carried.extend(other.carried)
        self.raised += other.raised


def tally(original: Iterable[Diagnostic], remaining: Iterable[Diagnostic], unsafe: bool) -> FixTally:
    """Split one file's findings before (``original``) and after (``remaining``) its fixes."""
    before: dict[tuple[str, str | None], tuple[list[Diagnostic], list[Diagnostic]]] = defaultdict(lambda: ([], []))
    for d in original:
        with_fix, without = before[(d.code, d.rule)]
        (with_fix if applicable(d, unsafe) else without).append(d)
    after: dict[tuple[str, str | None], list[int]] = defaultdict(lambda: [0, 0])
    for d in remaining:
        after[(d.code, d.rule)][0 if applicable(d, unsafe) else 1] += 1
    result = FixTally()
    for key in before.keys() | after.keys():
        with_fix, without = before[key]
        left_with, left_without = after[key]
        kept_with, kept_without = min(left_with, len(with_fix)), min(left_without, len(without))
        spare = left_with - kept_with + left_without - kept_without
        # what is left beyond its own kind is taken to be the other kind, fixable first: a
        # finding is never claimed fixed while as many of its kind remain as there were
        extra_with = min(spare, len(with_fix) - kept_with)
        extra_without = min(spare - extra_with, len(without) - kept_without)
        result.fixed.extend(with_fix[kept_with + extra_with :])
        result.carried.extend(without[kept_without + extra_without :])
        result.raised += spare - extra_with - extra_without
    result.fixed.sort(key=Diagnostic.sort_key)
    result.carried.sort(key=Diagnostic.sort_key)
    return result


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else ('es' if word.endswith('x') else 's')}"


def unsafe_hint(n: int, more: bool = False) -> str:
    """ruff's wording for the fixes ``--diff`` leaves out because they are unsafe."""
    return f"{n}{' more' if more else ''} fix{'' if n == 1 else 'es'} available with `--unsafe-fixes`" if n else ""


def more_with_unsafe(n: int) -> str:
    """The line a report (plain or after ``--fix``) ends with when unsafe fixes were left out."""
    return f"{n} more fixable with `--fix --unsafe-fixes` (review those changes)."


def diff_summary(counts: FixTally, files: int, hidden: int) -> str:
    """``--diff``'s last line: ``Would fix N findings in M files.`` (N as the report counts
    them), what else would go away, and the unsafe fixes left out."""
    if not files:
        return f"No fixes available ({unsafe_hint(hidden)})." if hidden else "No fixes available."
    hint = unsafe_hint(hidden, more=True)
    head = f"Would fix {plural(len(counts.fixed), 'finding')} in {plural(files, 'file')}"
    notes = [note for note in (f"{len(counts.carried)} more would go away with them" if counts.carried else "", hint) if note]
    return head + (f" ({'; '.join(notes)})." if notes else ".")


def fix_summary(counts: FixTally, remaining: int, hidden: int, details: bool) -> str:
    """``Fixed N findings (M remaining).`` with N as the report counted them, then what went
    away without a fix of its own, what the fixes raised, the unsafe fixes left out and, with
    ``--show-fixes``, the fixed findings per file and check."""
    n = len(counts.fixed)
    lines = [f"Fixed {plural(n, 'finding')} ({remaining} remaining)."]
    if counts.carried:
        lines.append(f"{len(counts.carried)} more went away with those fixes.")
    if counts.raised:
        lines.append(f"The fixes raised {plural(counts.raised, 'new finding')} (among the remaining).")
    if hidden:
        lines.append(more_with_unsafe(hidden))
    if details and counts.fixed:
        by_file: dict[str, dict[tuple[str, str], int]] = {}
        for d in counts.fixed:
            per_code = by_file.setdefault(d.filename, {})
            per_code[(d.code, d.name)] = per_code.get((d.code, d.name), 0) + 1
        for filename, per_code in by_file.items():
            lines.append(f"{filename}:")
            lines.extend(f"    {count} x {code} ({name})" for (code, name), count in sorted(per_code.items()))
    return "\n".join(lines) + "\n"

