"""``scalarlint vendor``: write the ``allow_scalar`` helper into a project, and say how to use it.

Where it goes (the first that applies): ``--path`` (a file, or a package folder that gets
``_allow_scalar.py``); the file ``allow-scalar-import`` already names; ``_allow_scalar.py`` in
the project's single top-level package (``src/`` first); ``_allow_scalar.py`` in the project
root. The project root is the folder of the configuration file, else the current folder.

What it overwrites: an older, untouched copy (updated, and said so); with ``--force``, a copy
that was edited or that a newer scalarlint wrote. Never a file without the version line: that
is the user's own module. Then either the configuration already names the module, or
``--configure`` sets it, or the line to add is printed.

The command returns its messages instead of printing them, so the CLI stays a thin shell and
the tests call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scalarlint.config import Config, find_config
from scalarlint.output.github import display_path

from . import VERSION, State, inspect_copy, template_text
from scalarlint.atomic_text import write_text_atomic
from .configure import ConfigureError, set_allow_scalar_import
from .locate import DEFAULT_FILE, configured_file, default_target, module_name, planned_file, setting_module


class VendorError(Exception):
    """Nothing (more) was written; the message says why and what to do."""


@dataclass
class Outcome:
    """What ``scalarlint vendor`` did, as lines for the user."""

    messages: list[str] = field(default_factory=list)
    module: str = ""


def vendor(config: Config, path: Path | None, force: bool = False, configure: bool = False, config_file: Path | None = None) -> Outcome:
    """Write (or update) the helper and settle the ``allow-scalar-import`` setting."""
    root = Path(config.root)
    target = choose_target(config, path)
    outcome = Outcome([write_copy(target, force)])
    outcome.module = module_name(target, root)
    if not all(part.isidentifier() for part in outcome.module.split(".")):
        outcome.messages.append(f"warning: {_shown(target)} is not importable as a module ({outcome.module!r}); choose another --path")
        return outcome
    outcome.messages.extend(_setting_messages(config, outcome.module, configure, config_file))
    return outcome


def choose_target(config: Config, path: Path | None) -> Path:
    """The file to write (see the module docstring)."""
    root = Path(config.root)
    if path is not None:
        return path / DEFAULT_FILE if path.is_dir() else path
    if config.allow_scalar_import_configured:
        module = setting_module(config.allow_scalar_import)
        if module.split(".")[0] != "scalarlint":
            planned = planned_file(module, root)
            if planned is None:
                raise VendorError(
                    f"allow-scalar-import names {module}, which has no folder in this project ({_shown(root)}); "
                    "pass --path to say where the helper goes"
                )
            return planned
    return default_target(root)


def write_copy(target: Path, force: bool) -> str:
    """Write the current text to ``target`` unless that would lose someone's work; the line
    saying what happened."""
    shown = _shown(target)
    if target.is_dir():
        raise VendorError(f"{shown} is a folder")
    if not target.parent.is_dir():
        raise VendorError(f"cannot write {shown}: the folder {_shown(target.parent)} does not exist")
    found = inspect_copy(target) if target.exists() else None
    if target.exists() and found is None:
        raise VendorError(f"cannot read {shown}; not overwritten")
    if found is not None and found.state is State.FOREIGN:
        raise VendorError(
            f"refusing to overwrite {shown}: scalarlint did not write it (it has no `# scalarlint-vendored` line); "
            "remove it or choose another --path"
        )
    if found is not None and found.state is State.CURRENT:
        return f"{shown} is up to date (allow_scalar v{VERSION})."
    if found is not None and found.state in (State.EDITED, State.NEWER) and not force:
        why = "was edited (it is no release of its version)" if found.state is State.EDITED else f"was written by a newer scalarlint (v{found.version})"
        raise VendorError(f"{shown} {why}; not overwritten: pass --force to replace it with allow_scalar v{VERSION}")
    try:
        write_text_atomic(target, template_text())
    except OSError as exc:
        raise VendorError(f"cannot write {shown}: {exc.strerror or exc}") from exc
    if found is None:
        return f"Wrote {shown} (allow_scalar v{VERSION})."
    if found.state is State.OUTDATED:
        return f"Updated {shown} from allow_scalar v{found.version} to v{VERSION}."
    return f"Replaced {shown} ({found.state.value} allow_scalar v{found.version}) with allow_scalar v{VERSION}."


def _setting_messages(config: Config, module: str, configure: bool, config_file: Path | None) -> list[str]:
    if config.allow_scalar_import_configured and setting_module(config.allow_scalar_import) == module:
        return [f"allow-scalar-import already names {module}: the allow_scalar fix imports it."]
    line = f'allow-scalar-import = "{module}"'
    if configure:
        where = config_file or find_config(Path(config.root)) or Path(config.root) / "pyproject.toml"
        if where.is_file():
            try:
                set_allow_scalar_import(where, module)
            except ConfigureError as exc:
                return [f"warning: {exc}; add it yourself:", "", "[tool.scalarlint]", line]
            return [f"Set {line} in {_shown(where)}."]
        return [f"warning: no configuration file to write to ({_shown(where)} does not exist); add it yourself:", "", "[tool.scalarlint]", line]
    return [
        "Add this to pyproject.toml (or run again with --configure) so that the allow_scalar fix imports it:",
        "",
        "[tool.scalarlint]",
        line,
    ]


def stale_copy_note(config: Config) -> str | None:
    """A warning for ``scalarlint check`` when ``allow-scalar-import`` names a vendored copy
    that is older than this scalarlint's, or was edited; ``None`` otherwise (also for the
    user's own helper, and a copy a newer scalarlint wrote)."""
    path = configured_file(config)
    found = inspect_copy(path) if path is not None else None
    if found is None or found.state in (State.CURRENT, State.FOREIGN, State.NEWER):
        return None
    shown = _shown(found.path)
    if found.state is State.OUTDATED:
        return (
            f"warning: {shown} (allow-scalar-import) is allow_scalar v{found.version}, older than the "
            f"v{VERSION} this scalarlint writes: run `scalarlint vendor` to update it"
        )
    return (
        f"warning: {shown} (allow-scalar-import) differs from scalarlint's allow_scalar v{found.version} "
        "(edited or reformatted): `scalarlint vendor --force` restores it; remove its "
        "`# scalarlint-vendored` line to keep it as your own"
    )


def _shown(path: Path) -> str:
    """``path`` as the report writes paths (relative to the current folder below it)."""
    return display_path(str(path.resolve()))
