"""Module names and files of a project: where a vendored helper goes and how it is imported.

Plain file-system rules, as Python's import system sees a project checked out: a folder with
an ``__init__.py`` is a package, and a module's dotted name runs from the outermost such
folder. A project's import root is its root folder, or ``src/`` in a src layout (ruff's
default ``src = [".", "src"]`` makes the same choice). Standard library only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from . import NAME

if TYPE_CHECKING:
    from scalarlint.config import Config

__all__ = [
    "configured_file",
    "DEFAULT_FILE",
    "default_target",
    "module_file",
    "module_name",
    "setting_module",
]

DEFAULT_FILE = "_allow_scalar.py"
# Top-level packages that are not the distribution's code, never picked as the default home.
_NOT_THE_PACKAGE = frozenset({"tests", "test", "testing", "docs", "doc", "examples", "benchmarks", "scripts", "tools"})


def setting_module(value: str) -> str:
    """The module ``allow-scalar-import`` names: ``pkg._allow_scalar`` for both that and the
    dotted path of the function, ``pkg._allow_scalar.allow_scalar``."""
    module, _, last = value.rpartition(".")
    return module if module and last == NAME else value


def configured_file(config: Config) -> Path | None:
    """The file of the module ``allow-scalar-import`` names, where it is set and names a module
    of the project (the vendored helper, or the user's own); ``None`` otherwise."""
    if not config.allow_scalar_import_configured:
        return None
    return module_file(setting_module(config.allow_scalar_import), Path(config.root))


def module_name(path: Path, root: Path) -> str:
    """The dotted module name of the file ``path``: its package, then its stem; outside a
    package, its path below the import root (``root`` or ``root/src``), else its stem."""
    from scalarlint.analysis.project import module_name_for  # the first pass's own rule; imported when asked

    module, package = module_name_for(path)
    if package:
        return module
    resolved = path.resolve()
    for base in (root.resolve() / "src", root.resolve()):
        try:
            relative = resolved.relative_to(base)
        except ValueError:
            continue
        return ".".join([*relative.parent.parts, relative.stem])
    return path.stem


def module_file(module: str, root: Path) -> Path | None:
    """The file that holds ``module`` below the import root, if it exists."""
    parts = module.split(".")
    for base in (root, root / "src"):
        for candidate in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__init__.py")):
            if candidate.is_file():
                return candidate
    return None


def planned_file(module: str, root: Path) -> Path | None:
    """Where ``module`` would be written: its file if it exists, else a file in the existing
    package folder its name points to (``None`` when that folder does not exist)."""
    found = module_file(module, root)
    if found is not None:
        return found
    *package, stem = module.split(".")
    for base in (root, root / "src"):
        folder = base.joinpath(*package)
        if (not package or (folder / "__init__.py").is_file()) and folder.is_dir():
            return folder / f"{stem}.py"
    return None


def default_target(root: Path) -> Path:
    """``PKG/_allow_scalar.py`` for the project's single top-level package (in ``src/``
    first), else ``_allow_scalar.py`` in ``root``."""
    for base in (root / "src", root):
        packages = [
            child
            for child in sorted(base.iterdir() if base.is_dir() else ())
            if child.is_dir() and (child / "__init__.py").is_file() and child.name.isidentifier()
            and child.name not in _NOT_THE_PACKAGE and not child.name.startswith(("_", "."))
        ]
        if len(packages) == 1:
            return packages[0] / DEFAULT_FILE
        if packages:
            break  # several: no guess
    return root / DEFAULT_FILE
