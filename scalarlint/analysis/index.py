"""The cheap first pass: which functions of a module are AD rules, and what they call.

It runs on Python's own ``ast`` (about ten times faster to parse than libcst), on every file
of the run, so that libcst and its metadata are paid for only in files that hold a rule or a
helper reached from one. Functions are named by *keys* that the libcst pass computes the same
way (see ``function_keys``): dotted qualified names for ``def``s, ``<lambda>@LINE#K`` for the
K-th lambda starting on a line.
"""

from __future__ import annotations

import ast

from scalarlint.analysis.array_returns import ReturnedArrays, annotated_array
from scalarlint.analysis.ast_names import call_target, handed_functions, resolve_relative
from scalarlint.analysis.rule_decorators import dotted_name, registration_decorator, rule_decorator
from scalarlint.analysis.gradient_closures import GRADIENT_KEYWORDS, MAKER_REASON, is_gradient_hook, mark_gradient_products, mark_hooked_gradients, returned_gradient_closures, returns_value_and_closure
from scalarlint.analysis.frameworks import HOST_CALLBACKS, REGISTRATION_METHODS, REGISTRATIONS, RETURNS_CLOSURE_RULES, RULE_CONTEXTS
from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.factory_products import returned_function
from scalarlint.analysis.module_index import FORWARD_REASON, REGISTERED_REASON, ClassEntry, FunctionEntry, ModuleIndex, lambda_key, lambda_ordinals
from scalarlint.config import Config


# Nodes with nothing below them that the index reads: the walk does not descend into them.
_LEAVES = (ast.Name, ast.Constant, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
_DESCEND = kinds(ast.AST) - kinds(*_LEAVES)  # ``isinstance(x, ast.AST) and not isinstance(x, _LEAVES)``


class _Indexer(ast.NodeVisitor):
    """One walk of the module in source order (pre-order, as ``ast.NodeVisitor``), with a
    dispatch table and no descent into leaves: this pass runs on every file of a run."""

    def __init__(self, index: ModuleIndex, config: Config) -> None:
        self.index = index
        self.config = config
        self.stack: list[str] = []  # qualified-name parts (classes and functions)
        self.func_stack: list[FunctionEntry] = []
        self.class_stack: list[str] = []
        self.notes_registrations = True
        self.rule_lambdas: set[tuple[int, int]] = set()
        self.rule_names_passed: set[str] = set()
        self.gradient_hooks: set[tuple[str, str]] = set()  # (function key, closure name): out._backward = backward
        self.primitives: set[str] = set()  # functions given their own rules: defvjp(f, maker)
        self.lambdas: list[tuple[int, int, FunctionEntry]] = []  # keyed once the walk has seen them all
        self.returned: dict[int, ReturnedArrays] = {}  # id(entry) -> its names bound to arrays, what it returns
        self.host_callbacks: set[str] = set()  # names handed to jax.pure_callback(f, ...) & co
        self.wrapped_rules: dict[str, str] = {}  # f of custom_gradient(f): name -> the rule decorator
        self.factories: dict[str, str] = {}  # function key -> key of the nested function it returns

    def visit(self, node: ast.AST) -> None:
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            handler(self, node)
        else:
            self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        """The children but ``_LEAVES``, in field order, dispatched inline (``visit``'s table):
        about a third of the walk's calls went to ``visit`` alone."""
        descend, handlers = _DESCEND, _HANDLERS
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if type(item) in descend:
                        handler = handlers.get(type(item))
                        if handler is not None:
                            handler(self, item)
                        else:
                            self.generic_visit(item)
            elif type(value) in descend:
                handler = handlers.get(type(value))
                if handler is not None:
                    handler(self, value)
                else:
                    self.generic_visit(value)

    # -- imports -----------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.index.imports[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                self.index.imports[head] = head

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = resolve_relative(self.index.package, node.module, node.level)
        for alias in node.names:
            if alias.name == "*":
                if base and not self.func_stack:
                    self.index.star_imports.append(base)
                continue
            self.index.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name

    def visit_Assign(self, node: ast.Assign) -> None:
        """Module-level aliases (``_Base = function_node.FunctionNode``, ``grad = _grad_impl``):
        followed like imports when resolving base classes and calls."""
        self.generic_visit(node)
        if self.func_stack:
            for target in node.targets:
                self._returned().note_assignment(target, node.value)
        if self.func_stack and len(node.targets) == 1 and isinstance(node.value, ast.Call):
            self._note_instance(node.targets[0], node.value)
        if self.func_stack and len(node.targets) == 1 and isinstance(node.value, ast.Name) and is_gradient_hook(node.targets[0]):
            self.gradient_hooks.add((self.func_stack[-1].key, node.value.id))
        if self.func_stack:  # loss = rnnt.loss_gpu if cuda else rnnt.loss_cpu; loss(...)
            choices = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value]
            for choice in choices:
                target = call_target(choice) if isinstance(choice, (ast.Name, ast.Attribute)) else None
                if target:
                    self.func_stack[-1].calls.append(target)
                    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                        self.func_stack[-1].aliases.setdefault(node.targets[0].id, []).append(target)
        if self.func_stack and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, ast.Subscript) and isinstance(node.value.value, ast.Name):
                self.func_stack[-1].picked[node.targets[0].id] = node.value.value.id  # op = operators[name]
        if self.func_stack or self.class_stack or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return
        if isinstance(node.value, ast.Dict) and len(node.value.values) >= 2 and all(isinstance(v, ast.Name) for v in node.value.values):
            self.index.registries[node.targets[0].id] = [v.id for v in node.value.values]  # type: ignore[attr-defined]
            return
        made = self._made_by_factory(node.value)
        if made is not None:  # _grad = _make_grad(torch): the function the factory returns
            self.index.top_level[node.targets[0].id] = made
            return
        dotted = dotted_name(node.value)
        if not dotted:
            return
        alias = node.targets[0].id
        head, _, rest = dotted.partition(".")
        if head in self.index.imports:
            self.index.imports[alias] = self.index.imports[head] + (f".{rest}" if rest else "")
        elif not rest and head in self.index.top_level:
            self.index.top_level[alias] = self.index.top_level[head]
        elif not rest and head in self.index.classes:
            self.index.imports[alias] = f"{self.index.module}.{head}" if self.index.module else head

    def _note_instance(self, target: ast.expr, value: ast.Call) -> None:
        """``w = Solver(...)`` in a function, ``self.solver = Solver(...)`` or
        ``ctx.solver = Solver(...)`` in a method (a Function's ``ctx`` carries state from its
        forward to its backward): calls of ``w.run()``, ``self.solver.run()`` and
        ``ctx.solver.run()`` then reach ``Solver.run`` (resolved later, like any call, through
        the module's imports)."""
        constructor = call_target(value.func)
        if not constructor or not constructor[-1][:1].isupper():
            return
        if isinstance(target, ast.Name):
            self.func_stack[-1].instances[target.id] = constructor
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id in ("self", "ctx") and self.class_stack:
            self.index.classes[self.class_stack[-1]].instances[target.attr] = constructor

    # -- definitions -----------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        qual = ".".join([*self.stack, node.name])
        entry = ClassEntry(bases=[n for n in (dotted_name(b) for b in node.bases) if n])
        entry.methods = [s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        self.index.classes[qual] = entry
        for deco in node.decorator_list:
            self.visit(deco)
        self.stack.append(node.name)
        self.class_stack.append(qual)
        for stmt in node.body:
            self.visit(stmt)
        self.class_stack.pop()
        self.stack.pop()

    def _enter_function(self, key: str, name: str, line: int, in_class: str | None) -> FunctionEntry:
        parent = self.func_stack[-1] if self.func_stack else None
        entry = FunctionEntry(key=key, name=name, line=line, parent=parent.key if parent else None, class_name=in_class)
        if parent is not None and parent.is_rule:
            entry.is_rule, entry.reason = True, f"defined inside rule {parent.key}"
        elif self.config.is_rule_name(name):
            entry.is_rule, entry.reason = True, "name"
        self.index.functions[key] = entry
        return entry

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for deco in node.decorator_list:
            self.visit(deco)
        self.visit(node.args)
        if node.returns:
            self.visit(node.returns)
        key = ".".join([*self.stack, node.name])
        in_class = self.class_stack[-1] if self.class_stack and self.stack and self.stack[-1] == self.class_stack[-1].split(".")[-1] else None
        entry = self._enter_function(key, node.name, node.lineno, in_class)
        entry.keyword_params = tuple(a.arg for a in [*node.args.args, *node.args.kwonlyargs])
        if not self.func_stack and not self.class_stack:
            self.index.top_level[node.name] = key
        if not entry.is_rule and RETURNS_CLOSURE_RULES and returns_value_and_closure(node):
            entry.is_rule, entry.reason = True, "returns (Y, backprop)"
        if any(registration_decorator(d) for d in node.decorator_list) and not entry.is_rule:
            entry.is_rule, entry.reason = True, REGISTERED_REASON
        decorator = next((d for d in map(rule_decorator, node.decorator_list) if d), None)
        if decorator and not entry.is_rule:
            entry.is_rule, entry.reason = True, f"decorated with @{decorator}"
        self.func_stack.append(entry)
        self.stack.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        if returned_gradient_closures(node) and not entry.is_rule:
            # a vjp maker (``def maker(ans, *args): def vjp(g): ...; return vjp``): it runs in
            # the forward pass on the rule's inputs and its closure is the rule; both are checked
            entry.is_rule, entry.reason = True, MAKER_REASON
        annotation = dotted_name(node.returns) if node.returns else ""
        returned = self.returned.pop(id(entry), None)
        entry.returns_array = annotated_array(annotation) or (returned is not None and returned.whole_array())
        entry.return_parts = returned.tuple_parts() if returned is not None else ()
        made = returned_function(key, returned.returned if returned is not None else [], self.index.functions)
        if made is not None:
            self.factories[key] = made
        self.stack.pop()
        self.func_stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def _made_by_factory(self, value: ast.expr) -> str | None:
        """``_grad = _make_grad(torch)`` at module level, with ``_make_grad`` a function of the
        module that returns one of its nested functions: the key of that nested function."""
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return None
        return self.factories.get(self.index.top_level.get(value.func.id, ""))

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.visit(node.args)
        entry = self._enter_function(f"<lambda>@{node.lineno}:{node.col_offset}", "<lambda>", node.lineno, None)
        self.lambdas.append((node.lineno, node.col_offset, entry))
        self.func_stack.append(entry)
        self.visit(node.body)
        self.func_stack.pop()

    def key_lambdas(self) -> None:
        """Give lambdas their ordinal keys (source order, see ``lambda_key``) and mark the ones
        registered with defvjp & co, now that every lambda and registration has been seen."""
        if not self.lambdas:
            return
        ordinal = lambda_ordinals([(line, col) for line, col, _ in self.lambdas])
        renamed = {entry.key: lambda_key(ordinal[(line, col)]) for line, col, entry in self.lambdas}
        for line, col, entry in self.lambdas:
            if (line, col) in self.rule_lambdas and not entry.is_rule:
                entry.is_rule, entry.reason = True, REGISTERED_REASON
        functions = self.index.functions
        self.index.functions = {}
        for key, entry in functions.items():
            entry.key = renamed.get(key, key)
            if entry.parent in renamed:
                if entry.reason == f"defined inside rule {entry.parent}":
                    entry.reason = f"defined inside rule {renamed[entry.parent]}"
                entry.parent = renamed[entry.parent]
            self.index.functions[entry.key] = entry

    def visit_Dict(self, node: ast.Dict) -> None:
        """``methods = {"rk4": rk4_ivp, "euler": euler_ivp}`` in a rule: a dispatch table whose
        functions the rule goes on to call (``get_method(methods, name)(...)``)."""
        if self.func_stack:
            self.func_stack[-1].calls.extend((value.id,) for value in node.values if isinstance(value, ast.Name))
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        """Notes whether the function around returns an array package's result (``returns_array``)."""
        if self.func_stack:
            self._returned().note_return(node.value)
        self.generic_visit(node)

    def _returned(self) -> ReturnedArrays:
        key = id(self.func_stack[-1])
        found = self.returned.get(key)
        if found is None:
            found = self.returned[key] = ReturnedArrays(self.index.imports)
        return found

    # -- calls -----------------------------------------------------------------------
    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        """``with g.gradient_override_map({...}):`` (``Framework.rule_contexts``): the function
        holding the block builds an op whose gradient a registered rule replaces, its forward."""
        entry = self.func_stack[-1] if self.func_stack else None
        if entry is not None and not entry.is_rule:
            for item in node.items:
                called = dotted_name(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else ""
                if called.rsplit(".", 1)[-1] in RULE_CONTEXTS:
                    entry.is_rule, entry.reason = True, f"builds an op under {called} {FORWARD_REASON}"
                    break
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if self.notes_registrations:
            self._note_defvjp(node)
        if self.func_stack:
            target = call_target(node.func)
            if isinstance(node.func, ast.Call) and (built := call_target(node.func.func)):
                self.func_stack[-1].calls.append((*built, "__call__"))  # EvalRhs(solver)(x): the instance is called
            if target:
                self.func_stack[-1].calls.append(target)
                named = [k.arg for k in node.keywords if k.arg]
                if len(target) >= 2 and named:
                    known = self.func_stack[-1].call_keywords.get(".".join(target), ())
                    self.func_stack[-1].call_keywords[".".join(target)] = tuple(dict.fromkeys([*known, *named]))
            # functions passed along (map(helper, ...), tf.py_function(func=helper, ...)) are reached too
            self._note_gradient_keywords(node)
            for arg in [*node.args, *(kw.value for kw in node.keywords)]:
                if isinstance(arg, ast.Name):
                    self.func_stack[-1].calls.append((arg.id,))
                    self.func_stack[-1].passed.append(arg.id)
        if isinstance(node.func, ast.Attribute) and node.func.attr in HOST_CALLBACKS and node.args and isinstance(node.args[0], ast.Name):
            self.host_callbacks.add(node.args[0].id)
        if node.args and isinstance(node.args[0], ast.Name) and (decorator := rule_decorator(node.func)):
            self.wrapped_rules[node.args[0].id] = decorator  # f = tf.custom_gradient(f): a decorator applied by a call
        for keyword in node.keywords:
            if keyword.arg:
                for name in handed_functions(keyword.value):
                    self.index.keyword_functions.setdefault(keyword.arg, []).append(name)
        self.generic_visit(node)

    def _note_gradient_keywords(self, node: ast.Call) -> None:
        """``ops.apply(forward, x, w, backward=backward)``: a hand-written engine's op given its
        gradient under a keyword that names it as one; that function is a registered rule."""
        for keyword in node.keywords:
            if keyword.arg in GRADIENT_KEYWORDS and isinstance(keyword.value, ast.Name):
                self.rule_names_passed.add(keyword.value.id)

    def _note_defvjp(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in REGISTRATIONS and name not in REGISTRATION_METHODS:
            return
        args = list(node.args)
        # The imports as this used to see them: registrations were noted before the module's
        # imports were read, so none counted (kept as is: a speed change must not move findings).
        receiver_is_module = False
        if name == "register_autograd":
            args = args[1:2] + [kw.value for kw in node.keywords if kw.arg in ("backward", "setup_context")]
        elif isinstance(func, ast.Name) or receiver_is_module:
            if args and isinstance(args[0], ast.Name):
                self.primitives.add(args[0].id)  # defvjp(my_primitive, ...): its forward runs on the rule's inputs
            args = args[1:]  # autograd style: defvjp(primitive, vjp_maker, ...)
        elif name not in REGISTRATION_METHODS:
            return
        for arg in args:
            if isinstance(arg, ast.Lambda):
                self.rule_lambdas.add((arg.lineno, arg.col_offset))
            elif isinstance(arg, ast.Name):
                self.rule_names_passed.add(arg.id)
            elif isinstance(arg, ast.Attribute):
                self.rule_names_passed.add(arg.attr)


_REGISTRATION_WORDS = tuple(sorted(set(REGISTRATIONS) | set(REGISTRATION_METHODS)))


def build_index(tree: ast.Module, path: str, module: str, package: str, config: Config, text: str | None = None) -> ModuleIndex:
    index = ModuleIndex(path=path, module=module, package=package)
    indexer = _Indexer(index, config)
    # defvjp calls can precede or follow the lambdas/functions they name: noted during the walk,
    # applied after it. Files that name no registration skip the noting.
    indexer.notes_registrations = any(name in text for name in _REGISTRATION_WORDS) if text is not None else True
    indexer.visit(tree)
    indexer.key_lambdas()
    mark_hooked_gradients(index, indexer.gradient_hooks)
    for entry in index.functions.values():
        if entry.name in indexer.primitives and entry.parent is None and not entry.is_rule:
            entry.is_rule, entry.reason = True, f"primitive given a vjp {FORWARD_REASON}"
        if entry.name in indexer.rule_names_passed and (not entry.is_rule or entry.reason == MAKER_REASON):
            entry.is_rule, entry.reason = True, REGISTERED_REASON  # a registration says what its parameters hold
        if entry.name in indexer.wrapped_rules and not entry.is_rule:
            entry.is_rule, entry.reason = True, f"wrapped with {indexer.wrapped_rules[entry.name]}()"
        entry.host_callback = entry.name in indexer.host_callbacks
    mark_gradient_products(index, indexer.factories)
    propagate_closures(index)
    return index


def propagate_closures(index: ModuleIndex) -> None:
    """Functions defined inside a rule are rules; parents precede children in the dict."""
    for entry in index.functions.values():
        parent = index.functions.get(entry.parent) if entry.parent else None
        if parent is not None and parent.is_rule and not entry.is_rule:
            entry.is_rule, entry.reason = True, f"defined inside rule {parent.key}"


_HANDLERS = {
    ast.Import: _Indexer.visit_Import,
    ast.ImportFrom: _Indexer.visit_ImportFrom,
    ast.Assign: _Indexer.visit_Assign,
    ast.ClassDef: _Indexer.visit_ClassDef,
    ast.FunctionDef: _Indexer.visit_FunctionDef,
    ast.AsyncFunctionDef: _Indexer.visit_FunctionDef,
    ast.Lambda: _Indexer.visit_Lambda,
    ast.Call: _Indexer.visit_Call,
    ast.With: _Indexer.visit_With,
    ast.AsyncWith: _Indexer.visit_With,
    ast.Return: _Indexer.visit_Return,
    ast.Dict: _Indexer.visit_Dict,
}
