"""Running an AD rule and comparing what it gives, for ``check_rule`` and ``check_rule_fd``
(``scalarlint.testing``).

Both call the rule the same way (forward, then the pullback, errors naming the rule and
where it ran), walk its arguments the same way (arrays inside tuples and lists) and compare
arrays the same way (NaNs and infinities equal where they match). Imports NumPy and the
runtime only (never the checker).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

import numpy as np

from .backends import Backend
from .runtime import ScalarIndexingError, StrictArray, to_host

# Deterministic cotangents: the same rule and inputs always meet the same dy.
COTANGENT_SEED = 20240607
CONVERTED_KINDS = "fciub"  # float, complex, integer (index arrays) and bool arrays


# -- trees of arguments: arrays inside tuples and lists ---------------------------


def map_tree(value: Any, leaf: Callable[[Any], Any]) -> Any:
    if isinstance(value, (tuple, list)):
        items = [map_tree(v, leaf) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return leaf(value)


def host_copy(value: Any) -> Any:
    if isinstance(value, StrictArray):
        return to_host(value)
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def device_leaf(backend: Backend, *, scalars: bool) -> Callable[[Any], Any]:
    """Convert arrays (and, for cotangents, NumPy scalars) to ``backend``."""

    def convert(value: Any) -> Any:
        if isinstance(value, np.ndarray) and value.dtype.kind in CONVERTED_KINDS:
            return backend.to_device(value)
        if scalars and isinstance(value, np.generic) and value.dtype.kind in CONVERTED_KINDS:
            return backend.to_device(np.asarray(value))
        return value  # Python scalars, None, strings, callables stay on the host

    return convert


def default_cotangent(y: Any, rng: np.random.Generator) -> Any:
    """A random cotangent shaped like ``y``: float outputs only, ``None`` for the rest."""
    if isinstance(y, (tuple, list)):
        return tuple(default_cotangent(v, rng) for v in y)
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


def difference(actual: Any, desired: Any, rtol: float, atol: float) -> str | None:
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


def describe(value: Any) -> str:
    if value is None:
        return "None"
    shape = getattr(value, "shape", None)
    kind = f"{type(value).__module__}.{type(value).__name__}".replace("builtins.", "")
    return f"a {kind} of shape {tuple(shape)}" if shape is not None else f"a {kind}"


def rule_name(rrule: Callable[..., Any]) -> str:
    return getattr(rrule, "__qualname__", None) or repr(rrule)


def arg_labels(rrule: Callable[..., Any], count: int) -> list[str]:
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


def check_cotangent_tuple(dx: Any, count: int, where: str) -> Sequence[Any]:
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


def call_rule(
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


def mutation_check(
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
            if difference(value, o, 0.0, 0.0):
                raise AssertionError(f"{where}: the rule modified its argument {label} in place")

