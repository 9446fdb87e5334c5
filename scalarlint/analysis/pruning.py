"""Cut the bodies of functions an analysis of some targets cannot need, keeping every line.

The editor re-analyses only the functions an edit can change (``scalarlint.lsp.incremental``).
libcst's parse and scope analysis cost in proportion to the text they get, so those functions
are analysed in a copy of the file where every other body is replaced by ``pass`` and blank
lines: every kept line keeps its row and column, so findings, fixes and suppressions come out
at the same places as in the whole file.

A body is cut only when nothing the analysis reads across functions (``module_facts``) can
come from it:

* it is not a target, inside one, or around one, and its class has no target method (a method
  may store on ``self`` what a rule reads);
* it calls no function or class of the module, by name or on ``self``/``cls`` (a caller's
  arguments give a helper's parameters their kinds, and the number of call sites counts), and
  registers nothing (``defvjp`` & co name forwards and rules);
* at module level, its name appears nowhere else in the file (not passed, aliased or
  registered);
* it holds no lambda (lambdas are keyed by their order in the file), no ``global`` or
  ``nonlocal`` (its assignments would reach the module's names), and its body starts on a line
  of its own.

``tests/checker/test_pruning.py`` checks that the targets' findings do not change.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Mapping

from scalarlint.analysis.frameworks import REGISTRATION_METHODS, REGISTRATIONS

LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_REGISTRATIONS = frozenset(REGISTRATIONS) | frozenset(REGISTRATION_METHODS)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_WORD = re.compile(r"\w+")


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split where Python's parser splits them (not on form feeds)."""
    lines = [m.group(0) for m in LINES.finditer(text)]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def pruned_text(text: str, tree: ast.Module, targets: Mapping[str, object]) -> str:
    """``text`` (whose ``ast`` tree is ``tree``) with the bodies of functions the targets cannot
    depend on cut (see above); ``text`` itself when nothing can be cut. A module-level function
    or class that nothing names goes whole (a ``def`` left behind still costs the scope
    analysis); a method keeps its ``def`` line and gets ``pass`` for a body."""
    defined = {n.name for n in ast.walk(tree) if isinstance(n, (*_FUNCTIONS, ast.ClassDef))}
    lines = split_lines(text)
    words = Counter(_WORD.findall(text))
    cuts: list[tuple[int, int, str | None]] = []  # rows, and the indentation of ``pass`` (None: blank all)
    whole_classes = {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.ClassDef) and _class_removable(node, targets, defined, lines, words)
    }
    for node in whole_classes.values():
        cuts.append((_first_row(node), node.end_lineno or node.lineno, None))
    for node, key, class_key in definitions(tree.body):
        if class_key is not None and class_key.split(".")[0] in whole_classes:
            continue
        if _needed(node, key, class_key, targets, defined, lines, words):
            continue
        if node in tree.body:  # module level and named nowhere else: the whole definition goes
            cuts.append((_first_row(node), node.end_lineno or node.lineno, None))
            continue
        first = node.body[0]
        head = lines[first.lineno - 1][: first.col_offset]
        if head.strip():  # ``def f(): return x`` on one line: nothing worth cutting
            continue
        cuts.append((first.lineno, node.end_lineno or first.lineno, head))
    if not cuts:
        return text
    for start, end, indent in cuts:
        for row in range(start, end + 1):
            line = lines[row - 1]
            ending = line[len(line.rstrip("\r\n")) :]
            lines[row - 1] = (indent + "pass" if row == start and indent is not None else "") + ending
    return "".join(lines)


def _first_row(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    return node.decorator_list[0].lineno if node.decorator_list else node.lineno


def _class_removable(
    node: ast.ClassDef, targets: Mapping[str, object], defined: set[str], lines: list[str], words: Counter[str]
) -> bool:
    """A module-level class with no target, named nowhere else, whose methods are all cut."""
    if any(t.startswith(node.name + ".") for t in targets):
        return False
    inside = Counter(_WORD.findall("".join(lines[_first_row(node) - 1 : node.end_lineno or node.lineno])))
    if inside["lambda"] or inside["global"] or inside["nonlocal"] or words[node.name] != inside[node.name]:
        return False
    return not any(
        _needed(method, f"{node.name}.{method.name}", node.name, targets, defined, lines, words)
        for method, _, _ in definitions(node.body, (node.name,), node.name)
    )


def definitions(
    body: Iterable[ast.stmt], prefix: tuple[str, ...] = (), class_key: str | None = None
) -> Iterable[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, str | None]]:
    """Functions at module level and in classes (at any depth of classes), with their keys
    (the first pass's dotted names) and the key of the class they are methods of."""
    for node in body:
        if isinstance(node, _FUNCTIONS):
            yield node, ".".join((*prefix, node.name)), class_key
        elif isinstance(node, ast.ClassDef):
            yield from definitions(node.body, (*prefix, node.name), ".".join((*prefix, node.name)))
        elif isinstance(node, (ast.If, ast.Try, ast.With)):  # conditional definitions
            for block in _blocks(node):
                yield from definitions(block, prefix, class_key)


def _blocks(node: ast.If | ast.Try | ast.With) -> list[list[ast.stmt]]:
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    if isinstance(node, ast.Try):
        return [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]
    return [node.body]


def _needed(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    key: str,
    class_key: str | None,
    targets: Mapping[str, object],
    defined: set[str],
    lines: list[str],
    words: Counter[str],
) -> bool:
    if key in targets or any(t.startswith(key + ".") for t in targets):
        return True
    if class_key is not None and any(t.startswith(class_key + ".") for t in targets):
        return True
    if any(isinstance(sub, ast.Call) and _reaches_module(sub.func, defined) for sub in ast.walk(node)):
        return True
    start = (node.decorator_list[0].lineno if node.decorator_list else node.lineno) - 1
    inside = Counter(_WORD.findall("".join(lines[start : node.end_lineno or node.lineno])))
    if inside["lambda"] or inside["global"] or inside["nonlocal"]:
        return True
    # a module-level function named elsewhere may be passed, aliased or registered; a method is
    # reached by name only through ``self.name(...)``, which the calls above keep
    return class_key is None and words[node.name] != inside[node.name]


def _reaches_module(func: ast.expr, defined: set[str]) -> bool:
    """A call that may give a function of this module its arguments, or register one."""
    if isinstance(func, ast.Name):
        return func.id in defined or func.id in _REGISTRATIONS
    if isinstance(func, ast.Attribute):
        if func.attr in _REGISTRATIONS:
            return True
        return isinstance(func.value, ast.Name) and func.value.id in ("self", "cls") and func.attr in defined
    return False
