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
runtime only (never the checker). ``check_rule_fd`` lives in
``finite_differences``, what both share (calling a rule, walking its arguments,
comparing arrays) in ``rule_calls``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, NoReturn, Sequence

import numpy as np

from .backends import Backend, BackendUnavailable, load_backend
from .finite_differences import check_rule_fd
from .rule_calls import (
    COTANGENT_SEED,
    arg_labels,
    call_rule,
    check_cotangent_tuple,
    default_cotangent,
    describe,
    device_leaf,
    difference,
    host_copy,
    map_tree,
    mutation_check,
    rule_name,
)
from .runtime import disallow_scalar

__all__ = ["BackendUnavailable", "check_rule", "check_rule_fd", "KNOWN_BACKENDS"]

KNOWN_BACKENDS = ("strict", "cupy", "torch", "torch-cpu", "torch-strict")


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
        problem = difference(value, host, self.rtol, self.atol)
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
                self._fail(what, f"is {describe(got)} here but {describe(ref)} on NumPy")
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


@dataclass
class _Reference:
    """The NumPy run every backend's results are compared with."""

    rule: str  # the rule's name, for messages
    labels: list[str]  # the positional arguments' labels, for messages
    snapshot: list[Any]  # host copies of the positional arguments, as given
    kwargs: dict[str, Any]  # host copies of the keyword arguments
    dy: Any  # the cotangent given to the pullback (host values)
    y: Any
    dx: Sequence[Any]


def _run_reference(rrule: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any], cotangent: Any) -> _Reference:
    """Forward and pullback on host copies of the arguments (NumPy): the reference, checked for
    one cotangent per positional argument and for arguments left as they were."""
    rule = rule_name(rrule)
    labels = arg_labels(rrule, len(args))
    host_args = [map_tree(a, host_copy) for a in args]
    host_kwargs = {k: map_tree(v, host_copy) for k, v in kwargs.items()}
    snapshot = [map_tree(a, host_copy) for a in host_args]
    dy_host = None if cotangent is None else map_tree(cotangent, host_copy)

    def reference_cotangent(y: Any) -> Any:
        nonlocal dy_host
        if dy_host is None:
            dy_host = default_cotangent(y, np.random.default_rng(COTANGENT_SEED))
        return dy_host

    where = f"check_rule({rule}) on NumPy"
    run_label = f"check_rule: rule {rule} on NumPy"
    y_ref, dx_ref = call_rule(rrule, host_args, host_kwargs, reference_cotangent, run_label)
    dx_ref = check_cotangent_tuple(dx_ref, len(args), where)
    mutation_check(snapshot, host_args, labels, where, None)
    return _Reference(rule, labels, snapshot, host_kwargs, dy_host, y_ref, dx_ref)


def _check_backend(
    rrule: Callable[..., Any], name: str, backend: Backend, ref: _Reference, rtol: float, atol: float
) -> None:
    """The rule on ``backend``'s arrays, with scalar access refused: the reference's results,
    on the device, and the arguments left as they were."""
    where = f"check_rule({ref.rule}) on backend {name!r}"
    to_device = device_leaf(backend, scalars=False)
    dev_args = [map_tree(a, to_device) for a in ref.snapshot]
    dev_kwargs = {k: map_tree(v, to_device) for k, v in ref.kwargs.items()}
    dev_dy = map_tree(ref.dy, device_leaf(backend, scalars=True))
    with disallow_scalar(backends=backend.policy):
        run_label = f"check_rule: rule {ref.rule} on backend {name!r}"
        y, dx = call_rule(rrule, dev_args, dev_kwargs, lambda _: dev_dy, run_label)
    checker = _Checker(where, backend, rtol, atol)
    checker.output(y, ref.y, "output y")
    dx = check_cotangent_tuple(dx, len(ref.snapshot), where)
    for label, got, expected, arg in zip(ref.labels, dx, ref.dx, ref.snapshot):
        checker.cotangent(got, expected, arg, f"cotangent of argument {label}")
    mutation_check(ref.snapshot, dev_args, ref.labels, where, backend)


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
    ref = _run_reference(rrule, args, kwargs, cotangent)
    unavailable: list[str] = []
    checked: list[str] = []
    for name in backends:
        try:
            backend = _load_backend(name)
        except BackendUnavailable as exc:
            unavailable.append(str(exc))
            continue
        _check_backend(rrule, name, backend, ref, rtol, atol)
        checked.append(name)
    if unavailable:
        _unavailable(
            f"check_rule({ref.rule}): backend(s) unavailable: {'; '.join(unavailable)} "
            f"(checked: {', '.join(checked) or 'none'})"
        )
