"""Which of a project's test files test a changed source file, by the project's naming conventions.

``real_fixes.py`` runs exactly the tests of the files a fix changed: all of a project's tests
would take hours (chainer) and would hide, in thousands of results, the few that exercise the
change. Projects name their tests after the module they test, in a folder mirroring the
package (chainer: ``chainer/functions/pooling/roi_pooling_2d.py`` is tested by
``tests/chainer_tests/functions_tests/pooling_tests/test_roi_pooling_2d.py``); the rules below
are those conventions, tried in order, the first that names an existing file wins:

1. the changed file is itself a test file: it;
2. ``test_<module>.py`` in the mirrored test folder (a leading ``_`` of the module dropped),
   or ``test_<module>.py`` or ``<module>_test.py`` (pytest collects both) in a ``tests/``
   folder beside the module (didyprog);
3. ``test_<module>.py`` anywhere under the test root;
4. ``test_<prefix>.py`` anywhere, where ``<prefix>`` is the module's name cut at an ``_``
   (MyGrad's ``margin_ranking_loss.py`` is tested by ``test_margin_ranking.py``);
5. ``test_<folder>.py`` for the nearest folder of the module inside the package
   (``mygrad/math/misc/funcs.py``: ``test_misc.py``; ``xitorch/_impls/optimize/minimizer.py``:
   ``test_optimize.py``);
6. every test file in a test folder named after the module (MyGrad's ``tensor_base.py``:
   ``tests/tensor_base/``);
7. the project's explicit list (``Project.extra_map``), for modules no convention names, each
   checked by reading which test files exercise it.

A changed file none of these name has no test file; the report says so.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Protocol


class Conventions(Protocol):
    """The fields of ``real_fixes.Project`` the mapping reads."""

    package: str
    test_root: str
    dir_suffix: str
    extra_map: dict[str, tuple[str, ...]]


def _existing(tree: Path, paths: list[Path]) -> tuple[str, ...]:
    """The paths that are files in the tree, relative to it, sorted and without repeats."""
    return tuple(sorted({str(p.relative_to(tree)) for p in paths if p.is_file()}))


def test_files_for(tree: Path, changed: str, project: Conventions) -> tuple[str, ...]:
    """The test files of ``changed`` (relative to the tree) in the tree, by the rules above."""
    path = PurePosixPath(changed)
    root = tree / project.test_root
    if path.name.startswith("test_") or "tests" in path.parts[:-1] or "_tests" in path.parts[:-1]:
        return (changed,)
    inside = path.relative_to(project.package)
    stem = path.stem.lstrip("_") if path.stem != "__init__" else path.parent.name.lstrip("_")
    mirrored = root.joinpath(*[part + project.dir_suffix for part in inside.parent.parts])
    beside = tree / path.parent / "tests"
    found = _existing(tree, [mirrored / f"test_{stem}.py", beside / f"test_{stem}.py", beside / f"{stem}_test.py"])
    if not found:
        found = _existing(tree, list(root.rglob(f"test_{stem}.py")))
    if not found and "_" in stem:
        words = stem.split("_")
        for cut in range(len(words) - 1, 0, -1):
            found = _existing(tree, list(root.rglob(f"test_{'_'.join(words[:cut])}.py")))
            if found:
                break
    if not found:
        for folder in reversed(inside.parent.parts):
            found = _existing(tree, list(root.rglob(f"test_{folder.lstrip('_')}.py")))
            if found:
                break
    if not found:
        found = _existing(tree, [t for d in root.rglob(stem) if d.is_dir() for t in d.glob("test_*.py")])
    if not found:
        found = _existing(tree, [tree / t for t in project.extra_map.get(changed, ())])
    return found
