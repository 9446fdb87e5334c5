"""Whether a fix may make a project import scalarlint at run time.

The ``allow_scalar`` fix adds ``from scalarlint.runtime import allow_scalar``. A project that
does not depend on scalarlint would then fail to import wherever scalarlint is not installed
(its users' machines, its CI): a linter's fix must not add a dependency behind the user's
back. So the import is added only when one of these holds:

* the project declares scalarlint: ``[project] dependencies`` or ``optional-dependencies``,
  Poetry's dependency tables, ``requirements*.txt``, ``setup.cfg`` ``install_requires`` or
  ``extras_require``, ``setup.py``'s ``install_requires``/``extras_require`` (the project
  folder is the nearest one above the file that has any of these files);
* the project *is* scalarlint;
* the module already imports scalarlint;
* the configuration names where ``allow_scalar`` comes from (``allow-scalar-import``: the
  project's own helper, or scalarlint's runtime on purpose).

Otherwise the fix is display-only: shown, never applied, and its message says how to enable it.
"""

from __future__ import annotations

import ast
import configparser
import functools
import re
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

PACKAGE = "scalarlint"
PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalized(name: str) -> str:
    """PEP 503 normalisation: ``Scalar_Lint`` and ``scalar-lint`` are one project."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(requirements: object) -> set[str]:
    """Project names of a list of requirement strings (PEP 508), ignoring anything else."""
    if isinstance(requirements, str):
        requirements = requirements.splitlines()
    if not isinstance(requirements, (list, tuple)):
        return set()
    out = set()
    for item in requirements:
        if isinstance(item, str):
            match = _REQUIREMENT_NAME.match(item.split("#", 1)[0])
            if match:
                out.add(normalized(match.group(1)))
    return out


def project_folder(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` with packaging metadata or requirements."""
    here = path.resolve()
    folders = [here] if here.is_dir() else []
    folders += list(here.parents)
    for folder in folders:
        if any((folder / name).is_file() for name in PROJECT_FILES) or any(folder.glob("requirements*.txt")):
            return folder
    return None


def declaration(folder: Path) -> str | None:
    """Where the project in ``folder`` declares (or is) scalarlint, or ``None``. Cached by the
    files' modification times, so an editor session sees a dependency added meanwhile."""
    stamps = []
    for path in [*(folder / name for name in PROJECT_FILES), *sorted(folder.glob("requirements*.txt"))]:
        try:
            stamps.append((path.name, path.stat().st_mtime_ns))
        except OSError:
            continue
    return _declaration(folder, tuple(stamps))


@functools.lru_cache(maxsize=256)
def _declaration(folder: Path, stamps: tuple[tuple[str, int], ...]) -> str | None:
    for check in (_pyproject, _requirements, _setup_cfg, _setup_py):
        found = check(folder)
        if found:
            return found
    return None


def _pyproject(folder: Path) -> str | None:
    path = folder / "pyproject.toml"
    if not path.is_file():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    if normalized(str(project.get("name", ""))) == PACKAGE:
        return "pyproject.toml: this project is scalarlint"
    if PACKAGE in _names(project.get("dependencies")):
        return "pyproject.toml [project] dependencies"
    extras = project.get("optional-dependencies", {})
    if isinstance(extras, dict) and any(PACKAGE in _names(v) for v in extras.values()):
        return "pyproject.toml [project.optional-dependencies]"
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    tables = [poetry.get("dependencies", {}), poetry.get("dev-dependencies", {})]
    tables += [g.get("dependencies", {}) for g in poetry.get("group", {}).values() if isinstance(g, dict)]
    if any(isinstance(t, dict) and PACKAGE in {normalized(k) for k in t} for t in tables):
        return "pyproject.toml [tool.poetry] dependencies"
    return None


def _requirements(folder: Path) -> str | None:
    for path in sorted(folder.glob("requirements*.txt")):
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        if PACKAGE in _names([line for line in lines if not line.lstrip().startswith("-")]):
            return path.name
    return None


def _setup_cfg(folder: Path) -> str | None:
    path = folder / "setup.cfg"
    if not path.is_file():
        return None
    parser = configparser.ConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    if PACKAGE in _names(parser.get("options", "install_requires", fallback="")):
        return "setup.cfg install_requires"
    if parser.has_section("options.extras_require"):
        if any(PACKAGE in _names(value) for _, value in parser.items("options.extras_require")):
            return "setup.cfg extras_require"
    return None


def _setup_py(folder: Path) -> str | None:
    path = folder / "setup.py"
    if not path.is_file():
        return None
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in ("install_requires", "extras_require"):
            strings = [n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            if PACKAGE in _names(strings):
                return f"setup.py {node.arg}"
    return None


def why_not(path: str, module_imports_scalarlint: bool, configured: bool) -> str | None:
    """``None`` when the fix may add a run-time import of scalarlint to the file at ``path``;
    else why not, and how to allow it."""
    if configured or module_imports_scalarlint:
        return None
    folder = project_folder(Path(path).parent if path else Path.cwd())
    if folder is not None and declaration(folder) is not None:
        return None
    return (
        "not applied: it would import scalarlint, which this project does not declare as a dependency; "
        "declare it, or set `allow-scalar-import` to your own helper (or to `scalarlint.runtime`) in [tool.scalarlint]"
    )
