"""Closures that are AD rules because of how their maker returns them, whatever the maker is
called: thinc's ``forward`` and the ChainRules ``rrule`` return ``(Y, backprop)``; HIPS
autograd's vjp makers, numerical-gradient factories and hand-written engines return the
gradient closure itself (``def vjp(g): ...; return vjp``); micrograd-style engines store it on the node
they build (``out._backward = backward``); and a rule that obtains its gradient closure from a
factory of its module (``grad = _make_gradient(x); return y, grad``) makes that closure one."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scalarlint.analysis.module_index import ModuleIndex

MAKER_REASON = "returns a gradient closure"
# The op that builds a micrograd-style node and hooks its closure runs forward on the arrays the
# closure reads, so it is checked too; its parameters are nodes and settings (``kernel_size``),
# not arrays, so only their own uses (``x.data``) or callers vouch for them.
BUILDER_REASON = "builds a node with a gradient closure"
FACTORY_PRODUCT_REASON = "a gradient closure a rule obtains from a factory"
CLOSURE_WORDS = ("back", "vjp", "grad", "bwd", "adjoint", "pullback")
# Names a returned closure carries when it is the gradient itself (not a forward, not a setup).
GRADIENT_CLOSURE_NAMES = frozenset({"vjp", "jvp", "backward", "grad_fn", "gradfn", "bwd", "pullback", "backprop",
                                    "vjp_fun", "jvp_fun", "vjp_fn", "jvp_fn", "_backward", "grad_func"})

# Keywords under which a call is handed a gradient function (``apply(f, x, backward=backward)``,
# ``Node(value, grad_fn=vjp)``): the function named is a rule, whatever it is called.
GRADIENT_KEYWORDS = frozenset({"backward", "backward_fn", "grad_fn", "gradfn", "vjp", "vjp_fn", "bwd", "pullback",
                               "grad_func", "backward_func"})


def _direct_closures(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _own_returns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """The ``return`` statements of ``node`` itself, not of the functions nested in it."""
    found: list[ast.Return] = []
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Return):
            found.append(current)
        elif not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(current))
    return found


def returns_value_and_closure(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``return Y, backprop`` where ``backprop`` is defined in the function and named like a
    gradient (``backprop``, ``pullback``, ``*_vjp``, ``grad_fn``). Factories returning
    ``(cls, decorator)`` are not rules."""
    inner = {name for name in _direct_closures(node) if any(w in name.lower() for w in CLOSURE_WORDS)}
    if not inner:
        return False
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) == 2:
            last = stmt.value.elts[-1]
            if isinstance(last, ast.Name) and last.id in inner:
                return True
    return False


def returned_gradient_closures(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Closures of ``node`` named as a gradient (``vjp``, ``backward``, ``grad_fn``) that ``node``
    returns, alone or as the last item of a tuple: a vjp maker's product is a rule."""
    inner = [name for name in _direct_closures(node) if name.lower() in GRADIENT_CLOSURE_NAMES]
    if not inner:
        return []
    returned: set[str] = set()
    for stmt in _own_returns(node):
        value = stmt.value
        if isinstance(value, ast.Tuple) and value.elts:
            value = value.elts[-1]
        if isinstance(value, ast.Name):
            returned.add(value.id)
    return [name for name in inner if name in returned]


# Attributes an engine's node keeps its gradient closure in (micrograd's ``_backward``).
GRADIENT_HOOKS = frozenset({"_backward", "backward", "grad_fn", "_grad_fn", "backward_fn", "_backward_fn", "_vjp", "vjp"})


def is_gradient_hook(target: ast.expr) -> bool:
    """``out._backward = ...``, ``node.grad_fn = ...``: the value assigned is a node's gradient."""
    return isinstance(target, ast.Attribute) and target.attr in GRADIENT_HOOKS


def mark_gradient_products(index: ModuleIndex, factories: dict[str, str]) -> None:
    """``grad = _make_gradient(x, cache)`` in a rule that returns ``(y, grad)``: the closure a
    factory of the module builds and a rule obtains is the gradient the rule hands back, when
    it is named as one (``interferometer_gradient``, ``vjp``). It runs on the cotangents, so it
    is a rule itself, not a helper the rule calls."""
    for entry in list(index.functions.values()):
        if not entry.is_rule:
            continue
        for call in entry.calls:
            product = factories.get(index.top_level.get(call[0], "")) if len(call) == 1 else None
            made = index.functions.get(product or "")
            if made is not None and not made.is_rule and any(word in made.name.lower() for word in CLOSURE_WORDS):
                made.is_rule, made.reason = True, FACTORY_PRODUCT_REASON


def mark_hooked_gradients(index: ModuleIndex, hooks: Iterable[tuple[str, str]]) -> None:
    """``out._backward = backward`` in ``owner`` (``hooks``: owner and the function named): the
    hooked function is a node's gradient and its owner builds the node (a forward). A hooked
    name that is no closure of the owner but a function of the module or an imported one
    (``out.grad_fn = AddBackward``) is reached from the builder as a helper (the engine calls it)."""
    for owner, name in hooks:
        hooked = index.functions.get(f"{owner}.{name}")
        builder = index.functions.get(owner)
        named = name in index.top_level or name in index.imports or bool(index.star_imports)
        if hooked is None and builder is not None and named and name not in builder.keyword_params:
            builder.calls.append((name,))
            if not builder.is_rule:
                builder.is_rule, builder.reason = True, BUILDER_REASON
        if hooked is not None and not hooked.is_rule:
            hooked.is_rule, hooked.reason = True, "assigned as a node's gradient"
        if hooked is not None and builder is not None and not builder.is_rule:
            builder.is_rule, builder.reason = True, BUILDER_REASON
