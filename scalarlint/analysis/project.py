"""Project-wide reach: which functions of the checked tree a rule calls, directly or not.

Calls are resolved by name through each module's imports (relative imports and one level of
re-export included), which is exact for the helper calls AD code makes and costs nothing
compared with parsing. A helper remembers the first rule (in a deterministic order) that
reaches it, so its findings can say why it was checked.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path

from scalarlint.analysis.discovery import FORWARD_REASON, RULE_REASON, ClassTable, mark_rule_methods, subclass_table
from scalarlint.analysis.dynamic_dispatch import MethodTable
from scalarlint.analysis.gradient_closures import BUILDER_REASON
from scalarlint.analysis.frameworks import RECEIVERS
from scalarlint.analysis.index import ModuleIndex
from scalarlint.analysis.module_index import REGISTERED_REASON, FunctionEntry
from scalarlint.config import Config


@dataclass(frozen=True)
class Target:
    """A function the second pass checks, and the AD rule that puts it in scope."""

    rule: str  # display name of the rule, e.g. "rrule_norm.pullback" or "mod:Norm.backward"
    is_helper: bool
    registered: bool = False  # found through defvjp & co: its parameters may be tuples
    param_roles: tuple[str, ...] = ()  # what a framework passes to its positional parameters
    forward: bool = False  # the forward of a class rule: its parameters mix arrays and settings
    # another method of a rule's class, checked because it sits beside the rule: nobody
    # vouches for its parameters, so only its callers' arguments tell what they hold
    beside_rule: bool = False
    # calls of this function that run a function of another module returning an array
    # (``reindex.flm_2d_to_1d_fast(flm, L)``), as dotted names: the second pass sees one file
    array_calls: tuple[str, ...] = ()
    # the same for helpers returning a tuple: dotted name -> what each part holds (``c, a, bsol =
    # construct_rk4(dtype)``); for a method, also the calls of its class's other methods, which
    # set the attributes it reads (``self.tableau = construct_rk4(dtype)`` in ``__init__``)
    part_calls: tuple[tuple[str, tuple[str, ...]], ...] = ()
    host_callback: bool = False  # handed to jax.pure_callback & co: its parameters are host copies


def module_name_for(path: Path) -> tuple[str, str]:
    """Dotted module name and package of a file, found by walking up ``__init__.py`` folders."""
    return module_names([str(path)])[str(path)]


def module_names(paths: list[str]) -> dict[str, tuple[str, str]]:
    """``module_name_for`` of many files, walking each folder's ``__init__.py`` chain once."""
    packages: dict[Path, tuple[str, ...] | None] = {}

    def package_parts(folder: Path) -> tuple[str, ...]:
        known = packages.get(folder)
        if known is not None:
            return known
        regular = (folder / "__init__.py").is_file()
        if folder.parent == folder:
            parts: tuple[str, ...] = ()
        elif regular:
            parts = (*package_parts(folder.parent), folder.name)
        else:
            # A folder without ``__init__.py`` inside a package is a namespace subpackage
            # (``torchdyn/numerics/solvers/``: imported as ``torchdyn.numerics.solvers.ode``);
            # one that is not inside a package (``src/``, a checkout) starts the names.
            above = package_parts(folder.parent) if (folder.parent / "__init__.py").is_file() else ()
            parts = (*above, folder.name) if above else ()
        packages[folder] = parts
        return parts

    out: dict[str, tuple[str, str]] = {}
    for path in paths:
        resolved = Path(os.path.abspath(path))
        folder_parts = package_parts(resolved.parent)
        parts = [*folder_parts] if resolved.stem == "__init__" else [*folder_parts, resolved.stem]
        module = ".".join(parts)
        out[path] = (module, module if resolved.stem == "__init__" else ".".join(parts[:-1]))
    return out


def display_key(index: ModuleIndex, key: str) -> str:
    if key.startswith("<lambda>#"):
        return f"<lambda at line {index.functions[key].line}>"
    return key


# Methods of a rule class that do no array work: construction and input validation
# (chainer's ``check_type_forward`` compares type descriptions, not arrays).
MAX_OVERRIDES = 64  # a base method calling self.m(): the subclasses that define m (pydynet has ~40 operators)
NOT_ARRAY_WORK = ("__init__", "check_type", "_check", "validate", "__repr__", "__str__")


def _work_constructor(index: ModuleIndex, class_name: str) -> tuple[ModuleIndex, str] | None:
    """``__init__`` of a class a rule builds (a workspace, an index helper): it runs in the rule.
    Not that of a class holding rules itself (a chainer ``Function`` built with its settings),
    whose constructor stores configuration (``NOT_ARRAY_WORK``)."""
    key = f"{class_name}.__init__"
    if key not in index.functions:
        return None
    if any(index.functions[f"{class_name}.{m}"].is_rule for m in index.classes[class_name].methods if f"{class_name}.{m}" in index.functions):
        return None
    return index, key


def _picked_from_a_table(index: ModuleIndex, caller: str, call: tuple[str, ...]) -> list[tuple[ModuleIndex, str]]:
    """``op = operators[name]`` and then ``op.max(x)``, with ``operators`` a module-level table
    of the module's classes: the call runs one of those classes' ``max``. The table names the
    candidates, so even a name every array has (``max``) is resolved."""
    if len(call) != 2:
        return []
    entry = index.functions[caller]
    scope: FunctionEntry | None = entry
    table = None
    while scope is not None and table is None:  # a closure sees its maker's picks
        table = scope.picked.get(call[0])
        scope = index.functions.get(scope.parent) if scope.parent else None
    classes = index.registries.get(table or "", [])
    return [(index, f"{name}.{call[1]}") for name in classes if name in index.classes and f"{name}.{call[1]}" in index.functions]


class Project:
    def __init__(self, indexes: list[ModuleIndex], config: Config | None = None) -> None:
        mark_rule_methods(indexes, config or Config())
        self.array_modules = frozenset((config or Config()).array_modules)  # xp.array(...) is no method of the tree
        self.by_module: dict[str, ModuleIndex] = {}
        for index in indexes:
            self.by_module.setdefault(index.module, index)
        self.indexes = indexes
        self._methods: MethodTable | None = None  # built on the first call no index resolves
        self._subclasses: dict[str, list[tuple[ModuleIndex, str]]] | None = None  # built on the first self.m() call
        self._classes: ClassTable | None = None  # built on first use (``_class_table``)
        self._returning: dict[tuple[str, str], tuple[dict[str, None], dict[str, tuple[str, ...]]]] = {}
        self._resolved: dict[tuple[str, str], list[tuple[tuple[str, ...], tuple[ModuleIndex, str] | None]]] = {}
        self._local_names: dict[str, frozenset[str]] = {}  # per module path (``_names_of``)

    def _dispatched(self, index: ModuleIndex, caller: str, call: tuple[str, ...]) -> list[tuple[ModuleIndex, str]]:
        """An unresolved ``receiver.method(...)``: the methods of that name it may run."""
        if len(call) < 2 or call[0] in index.imports or call[0] in self.array_modules:
            return []  # a module's function that is not in the tree (np.sum, torch.exp, xp.array)
        picked = _picked_from_a_table(index, caller, call)
        if picked:
            return picked
        if self._methods is None:
            self._methods = MethodTable(self.indexes, self.resolve_dotted, self._class_table)
        return self._methods.candidates(index, call, index.functions[caller].call_keywords.get(".".join(call), ()))

    def _overrides(self, index: ModuleIndex, caller: str, call: tuple[str, ...]) -> list[tuple[ModuleIndex, str]]:
        """``self.forward_(x)`` in a base class's method runs the subclass's ``forward_``: the
        overrides of that method in the tree's subclasses of the caller's class (when few)."""
        owner = index.functions[caller].class_name
        if len(call) != 2 or call[0] != "self" or owner is None:
            return []
        if self._subclasses is None:
            self._subclasses = subclass_table(self.indexes)
        dotted = f"{index.module}.{owner}" if index.module else owner
        found = [(i, f"{qual}.{call[1]}") for i, qual in self._subclasses.get(dotted, []) if f"{qual}.{call[1]}" in i.functions]
        return found if len(found) <= MAX_OVERRIDES else []

    def resolve_dotted(self, dotted: str, depth: int = 0) -> tuple[ModuleIndex, str] | None:
        if depth > 3:
            return None
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            index = self.by_module.get(".".join(parts[:cut]))
            if index is None:
                continue
            rest = ".".join(parts[cut:])
            if rest in index.functions:
                return index, rest
            if rest in index.top_level and index.top_level[rest] in index.functions:  # an alias, a factory's product
                return index, index.top_level[rest]
            if cut == len(parts) - 1 and parts[-1] in index.imports:  # re-exported helper
                return self.resolve_dotted(index.imports[parts[-1]], depth + 1)
            if cut == len(parts) - 1:  # re-exported by ``from .ops import *``
                for star in index.star_imports:
                    found = self.resolve_dotted(f"{star}.{parts[-1]}", depth + 1)
                    if found is not None:
                        return found
        return None

    def _names_of(self, index: ModuleIndex) -> frozenset[str]:
        """Every name a one-name call in ``index`` can resolve through (function and class
        names, module-level bindings, imports, aliases and instances bound in a function):
        a call of any other name (``len``, ``range``, ``isinstance``: most calls) resolves to
        nothing, which ``resolve_call`` then answers without walking the caller's scopes."""
        found = self._local_names.get(index.path)
        if found is None:
            names: set[str] = {*index.top_level, *index.classes, *index.imports}
            for key, entry in index.functions.items():
                names.update((entry.name, key.rpartition(".")[2]))
                names.update(entry.aliases)
                names.update(entry.instances)
            found = self._local_names[index.path] = frozenset(names)
        return found

    def resolve_call(self, index: ModuleIndex, caller: str, target: tuple[str, ...]) -> tuple[ModuleIndex, str] | None:
        entry = index.functions[caller]
        head = target[0]
        if len(target) == 1 and not index.star_imports and head not in self._names_of(index):
            return None
        if len(target) == 1:
            scope = caller
            while scope:  # nested functions visible from the caller, innermost first
                candidate = f"{scope}.{head}"
                if candidate in index.functions and scope not in index.classes:  # methods do not see class names
                    return index, candidate
                enclosing = index.functions.get(scope)
                if scope != caller and enclosing is not None and head in enclosing.aliases:
                    return self._alias_target(index, scope, enclosing.aliases[head])
                scope = scope.rpartition(".")[0]
            if head in index.top_level:
                return index, index.top_level[head]
            # a class handed to a call (super(Cls, self), isinstance(x, Cls)) is not called
            constructed = head not in entry.passed
            if constructed and head in index.classes:  # Meta(T, U, log_probs): the constructor runs __init__
                return _work_constructor(index, head)
            if head in index.imports:
                found = self.resolve_dotted(index.imports[head])
                if found is None and constructed and (owner := self.resolve_dotted(f"{index.imports[head]}.__init__")) is not None:
                    found = _work_constructor(owner[0], owner[1].rpartition(".")[0])
                return found
            for star in index.star_imports:  # from .grad_fn import *
                found = self.resolve_dotted(f"{star}.{head}")
                if found is not None:
                    return found
            instance = self._instance_class(index, caller, (head, "__call__"))
            if instance is not None:  # idx = Index(...); idx(t, u): the instance's __call__
                return self.resolve_call(index, caller, (*instance, "__call__"))
            return None
        if target[-1] == "__call__" and (called := self._called_instance(index, target[:-1])) is not None:
            return called  # Index(...)(t, u), or an Op built and called in a rule: what the call runs
        if head in ("self", "cls") and entry.class_name and len(target) == 2:
            key = f"{entry.class_name}.{target[1]}"
            return (index, key) if key in index.functions else None
        instance = self._instance_class(index, caller, target)
        if instance is not None:  # w = Solver(...); w.run() / self.solver.run()
            return self.resolve_call(index, caller, (*instance, target[-1]))
        local = ".".join(target)
        if local in index.functions:  # Class.staticmethod(...)
            return index, local
        if len(target) >= 2 and target[-2] in RECEIVERS:  # model.ops.reduce_max(...): thinc's Ops
            for owner in RECEIVERS[target[-2]]:
                found = self.resolve_dotted(f"{owner}.{target[-1]}")
                if found is not None:
                    return found
        if head in index.imports:
            return self.resolve_dotted(".".join([index.imports[head], *target[1:]]))
        return None

    def _called_instance(self, index: ModuleIndex, built: tuple[str, ...]) -> tuple[ModuleIndex, str] | None:
        """What calling an instance of class ``built`` (as the caller names it) runs: the
        class's ``__call__``, else the methods a framework convention says a call runs
        (``ClassEntry.call_methods``). The class is the module's own, one it imports or one a
        package re-exports (``ClassTable.find``)."""
        found = self._class_table().find(index, ".".join(built))
        if found is None:
            return None
        owner, qual = found
        for method in ("__call__", *owner.classes[qual].call_methods):
            if f"{qual}.{method}" in owner.functions:
                return owner, f"{qual}.{method}"
        return None

    def _class_table(self) -> ClassTable:
        """The tree's classes, built on first use (a built instance's call, a dispatched method)."""
        if self._classes is None:
            self._classes = ClassTable(self.indexes)
        return self._classes

    def _alias_target(self, index: ModuleIndex, scope: str, targets: list[tuple[str, ...]]) -> tuple[ModuleIndex, str] | None:
        """A closure's call of a name its enclosing function bound to a function (``mask_ =
        _njit_mask`` in a factory, ``mask_(...)`` in the function it returns): the first of the
        bound functions that resolves, from the enclosing function's point of view."""
        for target in targets:
            if target[0] in index.functions[scope].aliases:
                continue  # mask_ = mask_: no cycle
            found = self.resolve_call(index, scope, target)
            if found is not None:
                return found
        return None

    def _instance_class(self, index: ModuleIndex, caller: str, target: tuple[str, ...]) -> tuple[str, ...] | None:
        """The constructor a receiver was built with: ``w`` of ``w.run()`` from the caller or a
        function around it, ``self.solver`` of ``self.solver.run()`` (and ``ctx.solver``) from the caller's class."""
        if len(target) == 2:
            scope: str | None = caller
            while scope:
                entry = index.functions.get(scope)
                if entry is not None and target[0] in entry.instances:
                    return entry.instances[target[0]]
                scope = entry.parent if entry is not None else None
            return None
        if len(target) == 3 and target[0] in ("self", "ctx"):
            owner = index.functions[caller].class_name
            klass = index.classes.get(owner) if owner else None
            return klass.instances.get(target[1]) if klass is not None else None
        return None

    @staticmethod
    def _rule_class_methods(index: ModuleIndex, chosen: dict[str, Target]) -> list[tuple[str, str]]:
        """The other methods of a class that holds a rule (``_sparse_matmul.load_balance`` beside
        its ``forward``/``backward``): the rule's own code, whoever calls it. Each is labelled
        with the class's first rule method."""
        found: list[tuple[str, str]] = []
        owners = {e.class_name for k in chosen if (e := index.functions[k]).class_name and e.reason.endswith(RULE_REASON)}
        for owner in sorted(owners):  # type: ignore[type-var]
            rules = [k for k in chosen if index.functions[k].class_name == owner]
            for key, entry in index.functions.items():
                if entry.class_name == owner and key not in chosen and entry.parent is None and not entry.name.startswith(NOT_ARRAY_WORK):
                    found.append((key, display_key(index, rules[0])))
        return found

    def targets(self, scope_all: bool = False) -> dict[str, dict[str, Target]]:
        """Per file path: the function keys to check and why."""
        out: dict[str, dict[str, Target]] = {index.path: {} for index in self.indexes}
        queue: deque[tuple[ModuleIndex, str, str, str]] = deque()
        for index in sorted(self.indexes, key=lambda i: i.path):
            for key in index.rule_keys():
                label = display_key(index, key)
                entry = index.functions[key]
                registered = entry.reason == REGISTERED_REASON
                out[index.path][key] = Target(
                    rule=label, is_helper=False, registered=registered, param_roles=entry.param_roles,
                    forward=entry.reason.endswith(FORWARD_REASON), beside_rule=entry.reason == BUILDER_REASON,
                )
                queue.append((index, key, label, index.module))
            for key, label in self._rule_class_methods(index, out[index.path]):
                out[index.path][key] = Target(rule=label, is_helper=True, beside_rule=True)
                queue.append((index, key, label, index.module))
        if scope_all:
            for index in self.indexes:
                for key, entry in index.functions.items():
                    out[index.path].setdefault(key, Target(rule="", is_helper=True, param_roles=entry.param_roles))
        while queue:
            index, key, label, rule_module = queue.popleft()
            array_calls, part_calls = self._returned_arrays(index, key)
            for call, found in self._resolved_calls(index, key):
                overrides = self._overrides(index, key, call)
                callees = [found, *overrides] if found is not None else overrides or self._dispatched(index, key, call)
                for callee_index, callee in callees:
                    seen = out[callee_index.path]
                    if callee in seen and (seen[callee].rule or not seen[callee].is_helper):
                        continue
                    shown = label if callee_index.module == rule_module else f"{rule_module}:{label}"
                    function = callee_index.functions[callee]
                    seen[callee] = Target(rule=shown, is_helper=True, host_callback=function.host_callback, param_roles=function.param_roles)
                    queue.append((callee_index, callee, label, rule_module))
            if array_calls or part_calls:
                out[index.path][key] = replace(out[index.path][key], array_calls=array_calls, part_calls=part_calls)
        return out

    def _returned_arrays(self, index: ModuleIndex, key: str) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
        """The calls of function ``key`` that run another module's function returning an array,
        and those (for a method, also in its class's other methods) returning a tuple holding arrays."""
        entry = index.functions[key]
        whole, parts = self._calls_returning_arrays(index, key)
        klass = index.classes.get(entry.class_name) if entry.class_name and entry.parent is None else None
        for method in klass.methods if klass is not None else ():
            other = f"{entry.class_name}.{method}"
            if other != key and other in index.functions:
                parts = {**self._calls_returning_arrays(index, other)[1], **parts}
        return tuple(whole), tuple(parts.items())

    def _calls_returning_arrays(self, index: ModuleIndex, key: str) -> tuple[dict[str, None], dict[str, tuple[str, ...]]]:
        cached = self._returning.get((index.path, key))
        if cached is not None:
            return cached
        whole: dict[str, None] = {}
        parts: dict[str, tuple[str, ...]] = {}
        for call, found in self._resolved_calls(index, key):
            if found is None or found[0] is index:
                continue
            callee = found[0].functions[found[1]]
            if callee.returns_array:
                whole[".".join(call)] = None
            elif callee.return_parts:
                parts.setdefault(".".join(call), callee.return_parts)
        self._returning[(index.path, key)] = (whole, parts)
        return whole, parts

    def _resolved_calls(self, index: ModuleIndex, key: str) -> list[tuple[tuple[str, ...], tuple[ModuleIndex, str] | None]]:
        """Each call of function ``key`` with what it resolves to, worked out once per function."""
        found = self._resolved.get((index.path, key))
        if found is None:
            found = self._resolved[(index.path, key)] = [(call, self.resolve_call(index, key, call)) for call in index.functions[key].calls]
        return found
