"""Check your own AD rules the way scalarlint checks its reference rules.

The contract of an ``rrule``: ``rrule(*args, **kwargs)`` returns
``(y, pullback)``; ``pullback(dy)`` returns a tuple with one cotangent per
positional argument (``None`` for non-differentiable ones, e.g. integer
index arrays or a norm's ``p``). ``y`` may be a tuple (``findmax`` returns
``(value, index)``); then ``dy`` is a tuple with ``None`` for integer outputs.

* :func:`check_rule` - the rule agrees with itself on device arrays (the
  strict array always; CuPy and PyTorch when present) and does no scalar
  access there: mosquito-sized mistakes on a laptop that would be a sync per
  element on a GPU.
* :func:`check_rule_fd` - the pullback agrees with central finite
  differences in float64 on NumPy: the derivative itself is right.

Both raise ``AssertionError`` with messages that name the rule, the backend
and the argument, so they read well under pytest. Imports NumPy and the
runtime only (never the checker).
"""

from __future__ import annotations

import inspect
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, NoReturn, Sequence

import numpy as np

from .backends import Backend, BackendUnavailable, load_backend
from .runtime import ScalarIndexingError, StrictArray, disallow_scalar, to_host

__all__ = ["BackendUnavailable", "check_rule", "check_rule_fd", "KNOWN_BACKENDS"]

KNOWN_BACKENDS = ("strict", "cupy", "torch", "torch-cpu", "torch-strict")

# Deterministic cotangents: the same rule and inputs always meet the same dy.
_COTANGENT_SEED = 20240607
_CONVERTED_KINDS = "fciub"  # float, complex, integer (index arrays) and bool arrays


def _load_backend(name: str) -> Backend:
    """A backend ``check_rule`` can compare with NumPy; ``torch`` means PyTorch on CUDA (the GPU
    is what the check is for), ``torch-cpu`` PyTorch on the CPU, ``torch-strict`` PyTorch on
    the CPU with scalar access refused (no GPU needed)."""
    if name not in KNOWN_BACKENDS:
        raise ValueError(f"unknown backend {name!r}; known: {', '.join(KNOWN_BACKENDS)}")
    return load_backend("torch-cuda" if name == "torch" else name)


def _under_pytest() -> bool:
    return "pytest" in sys.modules and "PYTEST_CURRENT_TEST" in os.environ


def _unavailable(message: str) -> NoReturn:
    if _under_pytest():
        import pytest

        pytest.skip(message)
    raise BackendUnavailable(message)


# -- trees of arguments: arrays inside tuples and lists ---------------------------


def _map_tree(value: Any, leaf: Callable[[Any], Any]) -> Any:
    if isinstance(value, (tuple, list)):
        items = [_map_tree(v, leaf) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return leaf(value)


def _host_copy(value: Any) -> Any:
    if isinstance(value, StrictArray):
        return to_host(value)
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def _device_leaf(backend: Backend, *, scalars: bool) -> Callable[[Any], Any]:
    """Convert arrays (and, for cotangents, NumPy scalars) to ``backend``."""

    def convert(value: Any) -> Any:
        if isinstance(value, np.ndarray) and value.dtype.kind in _CONVERTED_KINDS:
            return backend.to_device(value)
        if scalars and isinstance(value, np.generic) and value.dtype.kind in _CONVERTED_KINDS:
            return backend.to_device(np.asarray(value))
        return value  # Python scalars, None, strings, callables stay on the host

    return convert


def _default_cotangent(y: Any, rng: np.random.Generator) -> Any:
    """A random cotangent shaped like ``y``: float outputs only, ``None`` for the rest."""
    if isinstance(y, (tuple, list)):
        return tuple(_default_cotangent(v, rng) for v in y)
    if isinstance(y, (float, complex)) and not isinstance(y, np.generic):
        value = rng.standard_normal()
        return complex(value, rng.standard_normal()) if isinstance(y, complex) else float(value)
    if not isinstance(y, (np.ndarray, np.generic)) or y.dtype.kind not in "fc":
        return None
    value = rng.standard_normal(y.shape)
    if y.dtype.kind == "c":
        value = value + 1j * rng.standard_normal(y.shape)
    value = value.astype(y.dtype)
    return y.dtype.type(value) if isinstance(y, np.generic) else value


# -- comparisons ---------------------------------------------------------------


def _difference(actual: Any, desired: Any, rtol: float, atol: float) -> str | None:
    """``None`` if close (NaNs and infinities equal where they match), else why not."""
    a, d = np.asarray(actual), np.asarray(desired)
    if a.shape != d.shape:
        return f"shape {a.shape} differs from the expected {d.shape}"
    if a.size == 0:
        return None
    if np.result_type(a, d).kind not in "fc":
        a, d = a.astype(np.float64), d.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        same = (a == d) | (np.isnan(a) & np.isnan(d))
        err = np.where(same, 0.0, np.abs(a - d))
        err = np.where(np.isnan(err), np.inf, err)
        bad = err > atol + rtol * np.abs(d)
        if not bad.any():
            return None
        rel = np.where(err == 0, 0.0, err / np.abs(d))
    worst = np.unravel_index(int(np.argmax(err)), err.shape)
    where = f" at index {tuple(int(i) for i in worst)}" if a.ndim else ""
    return (
        f"{int(bad.sum())} of {a.size} element(s) differ: max abs err {err.max():.3g}{where} "
        f"(got {a[worst].item()!r}, expected {d[worst].item()!r}), max rel err {np.nanmax(rel):.3g} "
        f"(rtol={rtol:g}, atol={atol:g})"
    )


def _describe(value: Any) -> str:
    if value is None:
        return "None"
    shape = getattr(value, "shape", None)
    kind = f"{type(value).__module__}.{type(value).__name__}".replace("builtins.", "")
    return f"a {kind} of shape {tuple(shape)}" if shape is not None else f"a {kind}"


def _rule_name(rrule: Callable[..., Any]) -> str:
    return getattr(rrule, "__qualname__", None) or repr(rrule)


def _arg_labels(rrule: Callable[..., Any], count: int) -> list[str]:
    """``0 ('x')``-style labels from the rule's signature, where it has one."""
    names: list[str] = []
    try:
        for parameter in inspect.signature(rrule).parameters.values():
            if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
                names.append(parameter.name)
            elif parameter.kind is parameter.VAR_POSITIONAL:
                names.extend(f"{parameter.name}[{k}]" for k in range(count - len(names)))
                break
    except (TypeError, ValueError):
        pass
    return [f"{i} ({names[i]!r})" if i < len(names) else str(i) for i in range(count)]


def _check_cotangent_tuple(dx: Any, count: int, where: str) -> Sequence[Any]:
    if not isinstance(dx, (tuple, list)):
        raise AssertionError(
            f"{where}: the pullback returned {type(dx).__name__}, expected a tuple with one "
            f"cotangent per positional argument ({count})"
        )
    if len(dx) != count:
        raise AssertionError(
            f"{where}: the pullback returned {len(dx)} cotangent(s) for {count} positional argument(s)"
        )
    return dx


@dataclass
class _Checker:
    """Comparison of one backend's results with the NumPy reference."""

    where: str
    backend: Backend
    rtol: float
    atol: float

    def _fail(self, what: str, problem: str) -> NoReturn:
        raise AssertionError(f"{self.where}: {what}: {problem}")

    def device_value(self, got: Any, host: Any, what: str, *, require_device: bool) -> None:
        if require_device:
            if not self.backend.is_device(got):
                self._fail(
                    what,
                    f"came back as {type(got).__module__}.{type(got).__name__}, expected a "
                    f"{self.backend.type_name}: a rule that returns a host value for a device "
                    "input would fail or sync on a GPU",
                )
            if tuple(got.shape) != np.shape(host):
                self._fail(what, f"shape {tuple(got.shape)} differs from the input's {np.shape(host)}")
        value = self.backend.to_host(got) if self.backend.is_device(got) else got
        problem = _difference(value, host, self.rtol, self.atol)
        if problem:
            self._fail(what, f"differs from NumPy: {problem}")

    def output(self, got: Any, ref: Any, what: str) -> None:
        if isinstance(ref, (tuple, list)):
            if not isinstance(got, (tuple, list)) or len(got) != len(ref):
                self._fail(
                    what, f"has structure {type(got).__name__}, expected {len(ref)} outputs like NumPy"
                )
            for k, (g, r) in enumerate(zip(got, ref)):
                self.output(g, r, f"{what}[{k}]")
            return
        is_array = isinstance(ref, (np.ndarray, np.generic))
        self.device_value(got, ref, what, require_device=is_array)

    def cotangent(self, got: Any, ref: Any, arg: Any, what: str) -> None:
        if ref is None or got is None:
            if ref is not got:
                self._fail(what, f"is {_describe(got)} here but {_describe(ref)} on NumPy")
            return
        if isinstance(arg, (tuple, list)):
            if not isinstance(got, (tuple, list)) or len(got) != len(arg):
                self._fail(what, f"should be a sequence of {len(arg)} cotangents like its argument")
            for k, (g, r, a) in enumerate(zip(got, ref, arg)):
                self.cotangent(g, r, a, f"{what}[{k}]")
            return
        is_array = isinstance(arg, np.ndarray)
        if is_array and np.shape(ref) != arg.shape:
            raise AssertionError(
                f"{self.where}: {what}: the NumPy reference has shape {np.shape(ref)}, "
                f"but its argument has shape {arg.shape}"
            )
        self.device_value(got, ref, what, require_device=is_array)


def _call(
    rrule: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    make_dy: Callable[[Any], Any],
    label: str,
) -> tuple[Any, Any]:
    """Run forward and pullback (``dy = make_dy(y)``), naming the rule and backend in any error."""
    phase = "forward pass"
    try:
        result = rrule(*args, **kwargs)
        if not (isinstance(result, tuple) and len(result) == 2 and callable(result[1])):
            raise AssertionError(f"{label}: the rule must return (y, pullback), got {type(result).__name__}")
        y, pullback = result
        phase = "pullback"
        return y, pullback(make_dy(y))
    except ScalarIndexingError as exc:
        raise ScalarIndexingError(
            f"{label}: scalar access during the {phase}:\n{exc}", operation=exc.operation, shape=exc.shape
        ) from exc
    except AssertionError:
        raise
    except Exception as exc:
        if hasattr(exc, "add_note"):
            exc.add_note(f"(raised by {label}, during the {phase})")
        raise


def _mutation_check(
    before: Sequence[Any],
    after: Sequence[Any],
    labels: list[str],
    where: str,
    backend: Backend | None,
) -> None:
    """Fail if an argument array changed (rules must not write into their inputs)."""
    for label, old, new in zip(labels, before, after):
        olds = old if isinstance(old, (tuple, list)) else (old,)
        news = new if isinstance(new, (tuple, list)) else (new,)
        for o, n in zip(olds, news):
            if not isinstance(o, np.ndarray):
                continue
            value = backend.to_host(n) if backend is not None and backend.is_device(n) else n
            if _difference(value, o, 0.0, 0.0):
                raise AssertionError(f"{where}: the rule modified its argument {label} in place")


def check_rule(
    rrule: Callable[..., Any],
    *args: Any,
    backends: Sequence[str] = ("strict",),
    rtol: float = 1e-7,
    atol: float = 1e-9,
    cotangent: Any = None,
    **kwargs: Any,
) -> None:
    """Check that ``rrule`` gives NumPy's results on device arrays, with no scalar access.

    Runs forward and pullback on NumPy (the reference) and on each backend in
    ``backends`` (``"strict"``, ``"cupy"``, ``"torch"`` on CUDA, ``"torch-cpu"``: PyTorch on
    the CPU, whose scalar access nothing can detect, so it checks agreement and devices only;
    see :mod:`scalarlint.backends`). On a backend, arrays
    with a float, complex, integer or bool dtype are converted to device
    arrays, also inside tuples and lists and in ``kwargs`` (an integer index
    array becomes a device index array); Python scalars, NumPy scalars and
    ``None`` stay on the host. The run happens inside ``disallow_scalar()``
    with the backend's sync detector armed, so scalar access raises
    :class:`ScalarIndexingError` (re-raised naming the rule, backend and
    phase).

    ``cotangent`` is the ``dy`` given to the pullback (host values; converted
    per backend). By default it is a deterministic random array shaped like
    ``y`` (for a tuple ``y``: a tuple, ``None`` for integer outputs).

    Asserts: the pullback returns one cotangent per positional argument; the
    outputs and each cotangent agree with NumPy within ``rtol``/``atol``;
    each output array and each cotangent of an array argument is a device
    array of the input's shape (a host NumPy array back from a device input
    is a bug); ``None`` cotangents stay ``None``; no argument is modified in
    place.

    Unavailable backends (library missing or no GPU) are checked last: under
    pytest the test is skipped with the reason, otherwise
    :class:`BackendUnavailable` is raised. Every available backend has been
    checked by then.
    """
    for name in backends:
        if name not in KNOWN_BACKENDS:
            raise ValueError(f"unknown backend {name!r}; known: {', '.join(KNOWN_BACKENDS)}")
    rule = _rule_name(rrule)
    labels = _arg_labels(rrule, len(args))
    host_args = [_map_tree(a, _host_copy) for a in args]
    host_kwargs = {k: _map_tree(v, _host_copy) for k, v in kwargs.items()}
    snapshot = [_map_tree(a, _host_copy) for a in host_args]
    dy_host = None if cotangent is None else _map_tree(cotangent, _host_copy)

    def reference_cotangent(y: Any) -> Any:
        nonlocal dy_host
        if dy_host is None:
            dy_host = _default_cotangent(y, np.random.default_rng(_COTANGENT_SEED))
        return dy_host

    where = f"check_rule({rule}) on NumPy"
    run_label = f"check_rule: rule {rule} on NumPy"
    y_ref, dx_ref = _call(rrule, host_args, host_kwargs, reference_cotangent, run_label)
    dx_ref = _check_cotangent_tuple(dx_ref, len(args), where)
    _mutation_check(snapshot, host_args, labels, where, None)

    unavailable: list[str] = []
    checked: list[str] = []
    for name in backends:
        try:
            backend = _load_backend(name)
        except BackendUnavailable as exc:
            unavailable.append(str(exc))
            continue
        where = f"check_rule({rule}) on backend {name!r}"
        to_device = _device_leaf(backend, scalars=False)
        dev_args = [_map_tree(a, to_device) for a in snapshot]
        dev_kwargs = {k: _map_tree(v, to_device) for k, v in host_kwargs.items()}
        dev_dy = _map_tree(dy_host, _device_leaf(backend, scalars=True))
        with disallow_scalar(backends=backend.policy):
            run_label = f"check_rule: rule {rule} on backend {name!r}"
            y, dx = _call(rrule, dev_args, dev_kwargs, lambda _: dev_dy, run_label)
        checker = _Checker(where, backend, rtol, atol)
        checker.output(y, y_ref, "output y")
        dx = _check_cotangent_tuple(dx, len(args), where)
        for label, got, ref, arg in zip(labels, dx, dx_ref, snapshot):
            checker.cotangent(got, ref, arg, f"cotangent of argument {label}")
        _mutation_check(snapshot, dev_args, labels, where, backend)
        checked.append(name)
    if unavailable:
        _unavailable(
            f"check_rule({rule}): backend(s) unavailable: {'; '.join(unavailable)} "
            f"(checked: {', '.join(checked) or 'none'})"
        )


# -- finite differences ----------------------------------------------------------


def _replace(args: list[Any], path: tuple[int, ...], value: Any) -> list[Any]:
    """A copy of ``args`` with the leaf at ``path`` replaced (tuples rebuilt)."""

    def put(container: Any, rest: tuple[int, ...]) -> Any:
        if not rest:
            return value
        items = list(container)
        items[rest[0]] = put(items[rest[0]], rest[1:])
        if isinstance(container, list):
            return items
        return type(container)(*items) if hasattr(container, "_fields") else type(container)(items)

    return put(args, path)


def _float_leaves(arg: Any, dx: Any, path: tuple[int, ...]) -> list[tuple[tuple[int, ...], Any, Any]]:
    """(path, value, cotangent) for every real float leaf with a cotangent."""
    if dx is None:
        return []
    if isinstance(arg, (tuple, list)):
        if not isinstance(dx, (tuple, list)) or len(dx) != len(arg):
            raise AssertionError(f"argument {path[0]}: cotangent should be a sequence of {len(arg)}")
        return [leaf for k, (a, d) in enumerate(zip(arg, dx)) for leaf in _float_leaves(a, d, (*path, k))]
    if isinstance(arg, np.ndarray) and arg.dtype.kind == "f":
        return [(path, arg, dx)]
    if isinstance(arg, float):
        return [(path, arg, dx)]
    return []


def _inner(dy: Any, y: Any) -> float:
    """``<dy, y>`` over the float outputs (``None`` cotangents skip an output)."""
    if dy is None:
        return 0.0
    if isinstance(dy, (tuple, list)):
        return sum(_inner(d, v) for d, v in zip(dy, y))
    return float(np.sum(np.asarray(dy, dtype=np.float64) * np.asarray(y, dtype=np.float64)))


def _to_float64(value: Any) -> Any:
    value = _host_copy(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return value.astype(np.float64)
    return value


def check_rule_fd(
    rrule: Callable[..., Any],
    *args: Any,
    eps: float = 1e-6,
    rtol: float = 1e-5,
    atol: float = 1e-7,
    **kwargs: Any,
) -> None:
    """Check the pullback of ``rrule`` against central finite differences.

    On NumPy in float64: with a deterministic random cotangent ``dy``, the
    vector-Jacobian product the pullback returns for each differentiable
    real float argument (an array, a Python float, or one inside a tuple or
    list) must match ``(<dy, f(x + eps e_j)> - <dy, f(x - eps e_j)>) / 2 eps``
    for every element ``j`` (two forward passes per element: keep the inputs
    small). Arguments whose cotangent is ``None`` are taken as
    non-differentiable and skipped; integer outputs do not contribute.
    Evaluate away from kinks and ties (e.g. a max with a repeated maximum).
    """
    rule = _rule_name(rrule)
    labels = _arg_labels(rrule, len(args))
    base = [_map_tree(a, _to_float64) for a in args]
    kwargs = {k: _map_tree(v, _host_copy) for k, v in kwargs.items()}
    rng = np.random.default_rng(_COTANGENT_SEED)
    where = f"check_rule_fd({rule})"
    holder: dict[str, Any] = {}

    def cotangent(y: Any) -> Any:
        holder["dy"] = _default_cotangent(y, rng)
        return holder["dy"]

    _, dx = _call(rrule, base, kwargs, cotangent, f"check_rule_fd: rule {rule} on NumPy")
    dx = _check_cotangent_tuple(dx, len(args), where)
    dy = holder["dy"]

    def objective(new_args: list[Any]) -> float:
        return _inner(dy, rrule(*new_args, **kwargs)[0])

    for i, (arg, d) in enumerate(zip(base, dx)):
        for path, leaf, grad in _float_leaves(arg, d, (i,)):
            label = labels[i] + "".join(f"[{k}]" for k in path[1:])
            got = to_host(grad) if isinstance(grad, StrictArray) else np.asarray(grad, dtype=np.float64)
            if got.shape != np.shape(leaf):
                raise AssertionError(
                    f"{where}: cotangent of argument {label} has shape {got.shape}, "
                    f"its argument {np.shape(leaf)}"
                )
            expected = np.empty(np.shape(leaf))
            for j in np.ndindex(*np.shape(leaf)):
                if isinstance(leaf, np.ndarray):
                    plus, minus = leaf.copy(), leaf.copy()
                    plus[j] += eps
                    minus[j] -= eps
                else:
                    plus, minus = leaf + eps, leaf - eps
                upper = objective(_replace(base, path, plus))
                lower = objective(_replace(base, path, minus))
                expected[j] = (upper - lower) / (2 * eps)
            problem = _difference(got, expected, rtol, atol)
            if problem:
                raise AssertionError(
                    f"{where}: cotangent of argument {label} disagrees with central finite "
                    f"differences (eps={eps:g}): {problem}\n"
                    f"  pullback:           {np.array2string(got, threshold=20)}\n"
                    f"  finite differences: {np.array2string(expected, threshold=20)}"
                )
