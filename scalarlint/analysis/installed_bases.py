"""Ancestors of base classes that live outside the checked tree, through astroid.

The first pass resolves base classes across the modules of the checked tree; a base imported
from an installed package (``from somelib.autograd import MyFunction``, itself a subclass of
``torch.autograd.Function``) stops it. astroid reads that package's source (never imports it)
and lists the class's ancestors by qualified name, so the framework conventions can match them.

astroid is the usual cause of slow lint runs, so it is asked only here, only for bases the tree
cannot resolve and no convention names, each module at most once, and under a per-run budget
of modules and seconds; what it costs is kept in ``COST`` for the benchmarks to report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from astroid import nodes

MAX_MODULES = 48  # distinct installed modules astroid may read in one run
MAX_SECONDS = 3.0  # and the time it may spend reading them
MAX_DEPTH = 8  # ancestors followed per class


@dataclass
class Cost:
    """What astroid cost this process: modules read, lookups answered, seconds spent."""

    modules: set[str] = field(default_factory=set)
    lookups: int = 0
    seconds: float = 0.0

    def exhausted(self) -> bool:
        return len(self.modules) >= MAX_MODULES or self.seconds >= MAX_SECONDS


COST = Cost()


def installed_ancestors(dotted: str, wanted: Callable[[str], bool] = lambda name: False) -> tuple[str, ...]:
    """Names of the ancestors of the installed class ``dotted`` (``pkg.mod.Class``), nearest
    first: each one's qualified name and its bases as written. The walk stops at the first name
    ``wanted`` accepts (a framework's base), so astroid never reads the framework itself; empty
    when astroid cannot find or read the class, or the budget is spent."""
    module, _, name = dotted.rpartition(".")
    if not module or not name[:1].isupper():
        return ()
    if module not in COST.modules and COST.exhausted():
        return ()
    return _ancestors(module, name, wanted)


@lru_cache(maxsize=None)
def _ancestors(module: str, name: str, wanted: Callable[[str], bool]) -> tuple[str, ...]:
    start = time.perf_counter()
    COST.lookups += 1
    try:
        names: list[str] = []
        todo = [(module, name)]
        for _ in range(MAX_DEPTH):
            if not todo or time.perf_counter() - start > MAX_SECONDS:
                break
            klass = _class(*todo.pop(0))
            if klass is None:
                continue
            bases = [_qualified(klass, base) for base in klass.basenames]
            names += [klass.qname(), *bases]
            if any(wanted(b) for b in bases):
                break
            todo += [tuple(b.rsplit(".", 1)) for b in bases if "." in b]  # type: ignore[misc]
        return tuple(dict.fromkeys(names))
    except Exception:  # not installed, unreadable: no evidence
        return ()
    finally:
        COST.seconds += time.perf_counter() - start


def _class(module: str, name: str, hops: int = 4) -> "nodes.ClassDef | None":
    """The class ``name`` of ``module``, following re-exports by name (no inference: astroid's
    inference and transforms would read every framework the package imports)."""
    import astroid  # imported on first need: most runs never ask
    from astroid import nodes
    from astroid.builder import AstroidBuilder
    from astroid.modutils import file_from_modpath

    if module not in COST.modules and COST.exhausted():
        return None
    COST.modules.add(module)
    path = file_from_modpath(module.split("."))
    tree = AstroidBuilder(astroid.MANAGER, apply_transforms=False).file_build(path, module)
    for node in tree.locals.get(name, []):
        if isinstance(node, nodes.ClassDef):
            return node
        if isinstance(node, nodes.ImportFrom) and hops:
            source = tree.relative_to_absolute_name(node.modname, node.level)
            original = next((real for real, alias in node.names if (alias or real) == name), name)
            return _class(source, original, hops - 1)
    return None


def _qualified(klass: "nodes.ClassDef", base: str) -> str:
    """``torch.autograd.Function`` as written, or ``Function`` of ``from torch.autograd import
    Function`` made whole through the module's imports."""
    from astroid import nodes

    head, _, rest = base.partition(".")
    tree = klass.root()
    for node in tree.locals.get(head, []):
        if isinstance(node, nodes.ImportFrom):
            source = tree.relative_to_absolute_name(node.modname, node.level)
            real = next((r for r, alias in node.names if (alias or r) == head), head)
            return ".".join(p for p in (source, real, rest) if p)
        if isinstance(node, nodes.Import):
            real = next((r for r, alias in node.names if (alias or r) == head), head)
            return ".".join(p for p in (real, rest) if p)
        if isinstance(node, nodes.ClassDef):
            return f"{tree.name}.{base}"
    return base
