"""The options of ``scalarlint check``, as one typed object.

``cli`` declares the options (click hands them over as keywords); ``check_command`` and
``plain_check`` read them from here, so the command's many switches are named and typed once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CheckOptions:
    """Every option of ``scalarlint check``, under the names click gives its parameters."""

    paths: tuple[Path, ...]
    select: str | None
    extend_select: str | None
    ignore: str | None
    extend_exclude: str | None
    target_version: str | None
    scope: str | None
    output_format: str
    output_file: Path | None
    exit_zero: bool
    stdin_filename: str | None
    config_file: Path | None
    jobs: int | None
    color: bool | None
    fix: bool = False
    fix_only: bool = False
    exit_on_fix: bool = False
    add_noqa: bool = False
    baseline_file: Path | None = None
    update_baseline: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    show_fixes: bool = False
    fix_read_only: bool = False
    statistics: bool = False
    show_files: bool = False
    show_settings: bool = False
    file_time_limit: float | None = None
    confidence: str | None = None
    show_evidence: bool = False
    no_cache: bool = False
    cache_dir: Path | None = None
    verbose: bool = False
    runtime_record: Path | None = None
    runtime_findings: bool = False
    watch: bool = False
