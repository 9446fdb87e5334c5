"""Every rule against central finite differences in float64 (NumPy).

For each case where the function is differentiable at the input (``case.fd``),
``<dy, J dx>`` is estimated by perturbing each input element by ``±h`` and must
match the rule's pullback. Non-differentiable arguments (index arrays, ``p``,
boolean conditions, Python-number bounds) must get ``None``, and there must be
exactly one cotangent per positional argument.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from scalarlint.rules import RULES
import rule_cases as cases  # tests/rules is on sys.path (pytest's default import mode)


def _is_float_array(v: Any) -> bool:
    return isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.floating)


def _is_differentiable(arg: Any) -> bool:
    if _is_float_array(arg):
        return True
    return isinstance(arg, (list, tuple)) and len(arg) > 0 and all(_is_float_array(a) for a in arg)


def _seed_for(case: Any, y: Any) -> tuple[Any, Any]:
    """A random cotangent for the output, and the array that pairs with it."""
    out = np.asarray(case.output(y), dtype=np.float64)
    dy = np.random.default_rng(123).standard_normal(out.shape)
    if case.rule in ("findmax", "findmin"):
        return (dy, None), dy  # the output is (value, index): seed (dvalue, dindex)
    return dy, dy


def _objective(case: Any, args: tuple[Any, ...], dy: np.ndarray) -> float:
    y, _ = RULES[case.rule](*args, **case.kwargs)
    out = np.asarray(case.output(y), dtype=np.float64)
    finite = np.isfinite(out)
    # -inf outputs (logsumexp of an all -inf slice) stay -inf under perturbation
    return float(np.sum(np.where(finite, dy * np.where(finite, out, 0.0), 0.0)))


def _fd_array(case: Any, args: tuple[Any, ...], pos: int, sub: int | None, dy: np.ndarray) -> np.ndarray:
    """Central differences of the objective w.r.t. one array argument."""
    base = args[pos] if sub is None else args[pos][sub]
    grad = np.zeros_like(base)
    for i in np.ndindex(base.shape):
        h = 1e-6 * max(1.0, abs(base[i])) if np.isfinite(base[i]) else 0.0
        if h == 0.0:
            continue  # an infinite input: no perturbation can move it
        values = []
        for sign in (1.0, -1.0):
            moved = base.copy()
            moved[i] += sign * h
            if sub is None:
                new_args = args[:pos] + (moved,) + args[pos + 1 :]
            else:
                seq = list(args[pos])
                seq[sub] = moved
                new_args = args[:pos] + (type(args[pos])(seq),) + args[pos + 1 :]
            values.append(_objective(case, new_args, dy))
        grad[i] = (values[0] - values[1]) / (2 * h)
    return grad


FD_CASES = [c for c in cases.ALL_CASES if c.fd]


@pytest.mark.parametrize("case", FD_CASES, ids=[c.id for c in FD_CASES])
def test_pullback_matches_finite_differences(case: Any) -> None:
    args = case.make_args()
    y, pullback = RULES[case.rule](*args, **case.kwargs)
    seed, dy = _seed_for(case, y)
    cotangents = pullback(seed)
    assert isinstance(cotangents, tuple)
    assert len(cotangents) == len(args), "one cotangent per positional argument"
    for pos, (arg, ct) in enumerate(zip(args, cotangents)):
        if not _is_differentiable(arg):
            assert ct is None, f"argument {pos} is not differentiable, expected None"
            continue
        if isinstance(arg, (list, tuple)):
            assert isinstance(ct, tuple) and len(ct) == len(arg)
            pairs = [(np.asarray(c), _fd_array(case, args, pos, k, dy)) for k, c in enumerate(ct)]
        else:
            pairs = [(np.asarray(ct), _fd_array(case, args, pos, None, dy))]
        for got, want in pairs:
            assert got.shape == want.shape
            scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6 * scale)


@pytest.mark.parametrize("case", cases.ALL_CASES, ids=[c.id for c in cases.ALL_CASES])
def test_forward_matches_numpy_reference(case: Any) -> None:
    """The forward value must be what NumPy (or the documented convention) gives."""
    args = case.make_args()
    y, _ = RULES[case.rule](*args, **case.kwargs)
    want = _numpy_reference(case, args)
    got = case.output(y)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


def _numpy_reference(case: Any, args: tuple[Any, ...]) -> Any:
    kw = case.kwargs
    name = case.rule
    x = args[0]
    if name in ("sum", "mean", "prod"):
        return getattr(np, name)(x, axis=kw.get("axis"))
    if name in ("maximum", "minimum"):
        return getattr(np, "max" if name == "maximum" else "min")(x, axis=kw.get("axis"))
    if name in ("findmax", "findmin"):
        return getattr(np, "max" if name == "findmax" else "min")(x, axis=kw.get("axis"))
    if name in ("cumsum", "cumprod"):
        return getattr(np, name)(x, axis=kw.get("axis", 0))
    if name == "norm":
        p = args[1] if len(args) > 1 else kw.get("p", 2)
        flat = x.reshape(-1)
        if flat.size == 0:
            return 0.0
        if p == 0:
            return float(np.count_nonzero(flat))
        with np.errstate(divide="ignore"):
            return np.linalg.norm(flat, ord=p)
    if name == "normalize":
        n = np.linalg.norm(x)
        return x / n if n else np.zeros_like(x)
    if name == "getindex":
        return x[args[1]]
    if name == "take":
        return np.take(x, args[1], axis=kw.get("axis"))
    if name == "sort":
        return np.sort(x, axis=kw.get("axis", -1))
    if name == "logsumexp":
        axis = kw.get("axis")
        with np.errstate(divide="ignore", invalid="ignore"):
            m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
            m = np.where(np.isfinite(m), m, 0.0)
            return np.squeeze(m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)), axis=axis)
    if name == "softmax":
        axis = kw.get("axis", -1)
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)
    if name == "trace":
        return np.trace(x, axis1=-2, axis2=-1)
    if name == "det":
        return np.linalg.det(x)
    if name == "logdet":
        with np.errstate(invalid="ignore"):
            return np.log(np.linalg.det(x))
    if name == "concatenate":
        return np.concatenate(x, axis=kw.get("axis", 0))
    if name == "repeat":
        return np.repeat(x, args[1], axis=kw.get("axis"))
    if name == "clip":
        lo = args[1] if len(args) > 1 else kw.get("lo")
        hi = args[2] if len(args) > 2 else kw.get("hi")
        return np.minimum(np.maximum(x, lo), hi) if hi is not None else np.maximum(x, lo)
    if name == "abs":
        return np.abs(x)
    if name == "where":
        return np.where(*args)
    if name == "matmul":
        return np.matmul(*args)
    if name == "median":
        return np.median(x)
    if name == "evalpoly":
        return np.polynomial.polynomial.polyval(x, args[1]) if len(args[1]) else np.zeros_like(x)
    if name == "cholesky":
        return np.linalg.cholesky(x)
    if name == "svdvals":
        return np.linalg.svd(x, compute_uv=False)
    if name == "eigvalsh":
        return np.linalg.eigvalsh(x)
    if name == "hermitian_part":
        return (x + np.conj(np.swapaxes(x, -1, -2))) / 2
    raise AssertionError(f"no reference for {name}")
