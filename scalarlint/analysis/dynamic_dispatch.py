"""Method calls through a receiver nobody can type: ``self.act_fn.grad(Z)`` where ``act_fn`` is
built by a factory, ``ctx.solver.integrate(ys)``, ``self.cell.backward(dy)``. Python dispatches on the object at run time; the
checker answers with every method of that name defined in a class of the caller's own package,
when there are few of them and the name is not one every container or layer has."""

from __future__ import annotations

from scalarlint.analysis.index import ModuleIndex

RECEIVER_OWNERS = frozenset({"self", "ctx", "cls"})  # self.act_fn.grad(...), ctx.solver.integrate(...)
MAX_CANDIDATES = 16  # beyond this a method name says nothing about the object
# Names too common to mean one protocol: containers, array methods, layers, autograd plumbing.
COMMON_METHODS = frozenset({
    "append", "extend", "insert", "pop", "get", "set", "update", "items", "keys", "values", "copy", "clear",
    "add", "remove", "reshape", "view", "sum", "mean", "max", "min", "to", "cpu", "cuda", "numpy", "item",
    "apply", "forward", "__call__", "__init__", "call", "run", "step", "reset", "build", "compile", "format",
    "join", "split", "read", "write", "close", "open", "send", "recv", "wait", "save", "load", "register",
    "save_for_backward", "mark_dirty", "mark_non_differentiable", "set_materialize_grads", "log", "info",
    "warning", "debug", "error", "flatten", "transpose", "astype", "tolist", "detach", "clone", "zero_",
})


class MethodTable:
    """Methods of the checked tree's classes by name, with the top-level package they live in."""

    def __init__(self, indexes: list[ModuleIndex]) -> None:
        self.by_name: dict[str, list[tuple[ModuleIndex, str]]] = {}
        for index in indexes:
            for key, entry in index.functions.items():
                if entry.class_name and entry.parent is None:
                    self.by_name.setdefault(entry.name, []).append((index, key))

    def candidates(self, caller: ModuleIndex, target: tuple[str, ...]) -> list[tuple[ModuleIndex, str]]:
        """The methods ``self.attr.method(...)`` (or ``ctx.attr.method(...)``) may run: an object
        the rule keeps on itself, whose class the index could not tell."""
        if len(target) != 3 or target[0] not in RECEIVER_OWNERS or target[-1] in COMMON_METHODS or target[-1].startswith("__"):
            return []  # a local name's methods are mostly an array's (x.dot, gy.fill): not followed
        package = caller.module.split(".", 1)[0]
        found = [(i, k) for i, k in self.by_name.get(target[-1], []) if i.module.split(".", 1)[0] == package]
        return found if len(found) <= MAX_CANDIDATES else []
