"""Project-wide rule discovery: which methods are AD rules because of the classes they live in.

Base classes are resolved across the modules of the checked tree through each module's imports
(the first pass already has them), so ``class Max(Operation)`` is found when ``Operation`` is
MyGrad's, defined three modules away, and ``class Sin(Function)`` when the project's own
``Function`` defines ``forward`` and ``backward``. A class matches a convention of
``scalarlint.analysis.frameworks`` when a resolved ancestor names one of its bases, or (for the
generic convention) when an ancestor of the tree is ``Function``-like. Resolution is bounded:
at most ``MAX_DEPTH`` ancestors deep, cycles cut.
"""

from __future__ import annotations

import functools

from scalarlint.analysis.frameworks import CLASS_CONVENTIONS, FUNCTION_BASES, FUNCTION_LIKE, LAYER_BASES, STRUCTURAL, ClassConvention
from scalarlint.analysis.index import propagate_closures
from scalarlint.analysis.module_index import FORWARD_REASON, ClassEntry, ModuleIndex
from scalarlint.analysis.installed_bases import installed_ancestors
from scalarlint.config import Config

MAX_DEPTH = 12
RULE_METHODS = frozenset(m for c in (*CLASS_CONVENTIONS, STRUCTURAL) for m in c.rule_methods)
RULE_REASON = "(rule)"  # a method a framework's class convention calls with cotangents


class ClassTable:
    """Every class of the checked tree by its dotted name (``module.Qual``)."""

    def __init__(self, indexes: list[ModuleIndex]) -> None:
        self.classes: dict[str, tuple[ModuleIndex, ClassEntry]] = {}
        self.by_module = {index.module: index for index in indexes}
        for index in indexes:
            for qual, entry in index.classes.items():
                self.classes.setdefault(f"{index.module}.{qual}" if index.module else qual, (index, entry))

    def resolve_base(self, index: ModuleIndex, base: str) -> str:
        """The dotted name a base expression of ``index`` refers to."""
        head, _, rest = base.partition(".")
        if head in index.imports:
            return index.imports[head] + (f".{rest}" if rest else "")
        local = f"{index.module}.{base}" if index.module else base
        return local if local in self.classes else base

    def lookup(self, dotted: str) -> tuple[ModuleIndex, ClassEntry] | None:
        found = self.classes.get(dotted)
        if found is not None:
            return found
        # ``pkg.Class`` re-exported by ``pkg/__init__.py`` from ``pkg.module``.
        module, _, name = dotted.rpartition(".")
        package = self.by_module.get(module)
        if package is not None and name in package.imports and package.imports[name] != dotted:
            return self.classes.get(package.imports[name])
        return None

    def find(self, index: ModuleIndex, name: str) -> tuple[ModuleIndex, str] | None:
        """The module and qualified name of the class ``name`` means in ``index`` (its own, an
        imported one, or one a package re-exports)."""
        found = self.lookup(self.resolve_base(index, name))
        if found is None:
            return None
        owner, entry = found
        return next(((owner, qual) for qual, e in owner.classes.items() if e is entry), None)

    def ancestors(self, index: ModuleIndex, entry: ClassEntry) -> list[tuple[str, ClassEntry | None]]:
        """(dotted name, entry if in the tree) for every ancestor, nearest first."""
        out: list[tuple[str, ClassEntry | None]] = []
        seen: set[str] = set()
        frontier = [(index, b) for b in entry.bases]
        while frontier and len(out) < MAX_DEPTH:
            owner, base = frontier.pop(0)
            dotted = self.resolve_base(owner, base)
            if dotted in seen:
                continue
            seen.add(dotted)
            found = self.lookup(dotted)
            out.append((dotted, found[1] if found else None))
            if found is not None:
                frontier.extend((found[0], b) for b in found[1].bases)
        return out


def subclass_table(indexes: list[ModuleIndex]) -> dict[str, list[tuple[ModuleIndex, str]]]:
    """Dotted class name -> the tree's classes that inherit from it (directly or not)."""
    table = ClassTable(indexes)
    out: dict[str, list[tuple[ModuleIndex, str]]] = {}
    for index in indexes:
        for qual, entry in index.classes.items():
            for dotted, ancestor in table.ancestors(index, entry):
                if ancestor is not None:
                    out.setdefault(dotted, []).append((index, qual))
    return out


def _names(dotted: str, wanted: str) -> bool:
    return dotted == wanted or dotted.endswith("." + wanted) or wanted.endswith("." + dotted)


@functools.lru_cache(maxsize=1 << 16)
def names_one_of(dotted: str, wanted: tuple[str, ...]) -> bool:
    """Whether ``dotted`` names one of ``wanted`` (``_names``). Asked for every class of the
    tree, ancestor by ancestor and convention by convention: the same few ancestors
    (``chainer.FunctionNode``) come back for hundreds of classes, so each answer is kept."""
    return any(_names(dotted, name) for name in wanted)


def lineage_of(table: ClassTable, index: ModuleIndex, qual: str, entry: ClassEntry) -> list[tuple[str, ClassEntry | None]]:
    """The class itself (it may be the framework's own base class) and its ancestors, nearest first."""
    return [(f"{index.module}.{qual}" if index.module else qual, None), *table.ancestors(index, entry)]


def convention_for(entry: ClassEntry, lineage: list[tuple[str, ClassEntry | None]], config: Config) -> ClassConvention | None:
    """The convention a class with this ``lineage`` (``lineage_of``) follows, if any."""
    user = ClassConvention(bases=tuple(config.rule_base_classes), rule_methods=tuple(config.rule_methods))
    # a layer or a model (torch.nn.Module): its backward(loss) drives the engine, so only a
    # framework's own rule convention (MindSpore's Cell.bprop) makes it a rule
    layer = any(names_one_of(dotted, LAYER_BASES) for dotted, _ in lineage)
    for dotted, ancestor in lineage:
        for convention in (user, *CLASS_CONVENTIONS):
            if names_one_of(dotted, convention.bases):
                if convention.needs_rule_method and not _defines_rule_method(entry, lineage, convention):
                    continue
                return convention
        if layer:
            continue
        if FUNCTION_BASES and ancestor is not None and "forward" in ancestor.methods and "backward" in ancestor.methods:
            return FUNCTION_LIKE
    if layer:
        return None
    installed = _installed_convention(entry, lineage, user)
    if installed is not None:
        return installed
    if _defines_rule_method(entry, lineage, STRUCTURAL) and _defines_forward(entry, lineage, STRUCTURAL):
        return STRUCTURAL
    return None


def _framework_base(name: str) -> bool:
    return any(_names(name, wanted) for c in CLASS_CONVENTIONS for wanted in c.bases if "." in wanted)



def _installed_convention(entry: ClassEntry, lineage: list[tuple[str, ClassEntry | None]], user: ClassConvention) -> ClassConvention | None:
    """A base that neither the tree nor a convention resolves (``from somelib import MyFunction``):
    its ancestors in the installed package, read by astroid, may name a framework's base. Asked
    only for classes that define a method some convention calls a rule."""
    if not _lineage_methods(entry, lineage) & RULE_METHODS:
        return None
    for dotted, ancestor in lineage[1:]:
        if ancestor is not None or "." not in dotted:
            continue
        for qualified in installed_ancestors(dotted, _framework_base):
            for convention in (user, *CLASS_CONVENTIONS):
                if any(_names(qualified, wanted) for wanted in convention.bases if "." in wanted):
                    return convention
    return None


def _lineage_methods(entry: ClassEntry, lineage: list[tuple[str, ClassEntry | None]]) -> set[str]:
    methods = set(entry.methods)
    for _, ancestor in lineage:
        if ancestor is not None:
            methods.update(ancestor.methods)
    return methods


def _defines_rule_method(entry: ClassEntry, lineage: list[tuple[str, ClassEntry | None]], convention: ClassConvention) -> bool:
    return bool(_lineage_methods(entry, lineage) & set(convention.rule_methods))


def _defines_forward(entry: ClassEntry, lineage: list[tuple[str, ClassEntry | None]], convention: ClassConvention) -> bool:
    return bool(_lineage_methods(entry, lineage) & set(convention.forward_methods))


def mark_rule_methods(indexes: list[ModuleIndex], config: Config) -> None:
    """Mark the rule and forward methods of every class that follows a framework convention."""
    table = ClassTable(indexes)
    for index in indexes:
        for qual, entry in index.classes.items():
            lineage = lineage_of(table, index, qual, entry)
            convention = convention_for(entry, lineage, config)
            if convention is None:
                _mark_forward_of_named_rule(index, qual, entry)
                _mark_call_methods(index, qual, entry, lineage)
                continue
            for method in entry.methods:
                function = index.functions.get(f"{qual}.{method}")
                if function is None:
                    continue
                prefixes = convention.rule_method_prefixes
                is_rule = method in convention.rule_methods or bool(prefixes) and method.startswith(prefixes)
                partner = any(p + method in entry.methods for p in prefixes)  # reduce_max of backprop_reduce_max
                if not is_rule and method not in convention.forward_methods and not partner:
                    continue
                function.param_roles = convention.params.get(method, ())
                if not function.is_rule:
                    function.is_rule = True
                    function.reason = f"{method} of {qual} " + (RULE_REASON if is_rule else FORWARD_REASON)
        propagate_closures(index)


def _mark_call_methods(index: ModuleIndex, qual: str, entry: ClassEntry, lineage: list[tuple[str, ClassEntry | None]]) -> None:
    """A framework class that holds no rule but whose instances a rule may call (a PyTensor
    ``Op`` without ``grad``, built in another op's ``grad``): note the methods such a call
    runs, with the parameter roles the framework gives them, for the reach (``project``)."""
    for dotted, _ in lineage:
        for convention in CLASS_CONVENTIONS:
            if not convention.call_methods or not names_one_of(dotted, convention.bases):
                continue
            for method in convention.call_methods:
                function = index.functions.get(f"{qual}.{method}")
                if function is not None:
                    entry.call_methods.append(method)
                    function.param_roles = convention.params.get(method, ())
            return


def _mark_forward_of_named_rule(index: ModuleIndex, qual: str, entry: ClassEntry) -> None:
    """A class no convention matches whose backward is a rule by its name (an own engine's
    ``Amin`` with ``forward`` and ``_backward``): its ``forward`` computes what the rule
    differentiates, on the same arrays, and is checked as that rule's forward."""
    methods = {m: index.functions.get(f"{qual}.{m}") for m in entry.methods}
    if not any(f is not None and f.is_rule and f.reason == "name" for f in methods.values()):
        return
    for method in STRUCTURAL.forward_methods:
        function = methods.get(method)
        if function is not None and not function.is_rule:
            function.is_rule, function.reason = True, f"{method} of {qual} {FORWARD_REASON}"
