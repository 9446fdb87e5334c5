"""The error raised when host code touches single elements of a device array.

The message follows GPUArrays' "Scalar indexing is disallowed": it names the
operation, the array's shape, why it hurts on a GPU, and the ways out, because
the person reading it is usually looking at a rule they did not write.
"""

from __future__ import annotations

__all__ = ["ScalarIndexingError", "scalar_error", "CHECK_CODES"]

# The static check that reports each kind of operation at its source line (docs/checks.md).
# A search loop (SL103) shows up at run time as the element reads inside it (SL101).
CHECK_CODES: dict[str, str] = {
    "getindex": "SL101",
    "setindex": "SL102",
    "iteration": "SL104",
    "conversion": "SL105",
    "slice-bound": "SL105",
    "data-dependent": "SL106",
}

# Why each kind of operation is slow on a GPU, and the ways out specific to it.
# Every message also offers the generic ways out (vectorize, size-1 slice,
# allow_scalar), so these only add what is particular to the kind.
_KINDS: dict[str, tuple[str, str]] = {
    "getindex": (
        "reads one element: on CuPy/PyTorch it is a 0-d device view whose every "
        "host use is a device-to-host sync, and in a loop one launch and sync per element",
        "",
    ),
    "setindex": (
        "writes one element: one kernel launch per element, and a loop of them is "
        "orders of magnitude slower than one vectorized write",
        "write with a device integer index (`dx[i_dev] = v`) or a one-hot "
        "`xp.where(xp.arange(n) == i_dev, v, dx)`",
    ),
    "iteration": (
        "iterates the array from Python: one view (and usually one sync) per element",
        "use whole-array operations (xp.sum, xp.max, xp.where, xp.cumsum, ...) "
        "instead of a Python loop",
    ),
    "conversion": (
        "copies a value from the device to the host: a device-to-host synchronization",
        "keep the value on the device as a 0-d array (branch with xp.where instead of "
        "`if`)",
    ),
    "data-dependent": (
        "has an output size that depends on the data, so the host must wait for "
        "the device to learn it (a sync)",
        "keep shapes static: xp.where(mask, a, b) instead of masking, "
        "xp.argmax(mask) for the first match, `n - 1 - xp.argmax(xp.flip(mask))` "
        "for the last",
    ),
    "slice-bound": (
        "uses a device scalar as a slice bound: turning it into a host int (`__index__`) "
        "is a device-to-host sync",
        "index with the device integer itself (`x[i_dev]` gathers, `dx[i_dev] = v` "
        "scatters) or use a one-hot `xp.where(xp.arange(n) == i_dev, v, 0)`",
    ),
}

_GENERIC_WAYS_OUT = (
    "vectorize the computation, use a size-1 slice `x[i:i+1]` with a host index, "
    "or, if this single access is intended, wrap it in `with allow_scalar():` "
    "(from scalarlint.runtime)"
)


class ScalarIndexingError(RuntimeError):
    """Scalar access to a device array outside ``allow_scalar()``.

    A ``RuntimeError`` like Julia's ``error("Scalar indexing is disallowed")``:
    it signals a performance bug (a host-device round trip, often one per
    element), not a wrong value, so it is deliberately not a ``TypeError``.

    Attributes:
        operation: what was attempted (``"getindex"``, ``"float()"``,
            ``"nonzero()"``, ...), or ``None`` for a re-raised, annotated error.
        shape: the shape of the array involved, when known.
        kind: the kind of access (a key of ``CHECK_CODES``), when known.
        location: ``(path, line)`` of the code that made the access (the
            innermost frame outside scalarlint's runtime and the array
            library), when known.
    """

    def __init__(
        self,
        message: str,
        *,
        operation: str | None = None,
        shape: tuple[int, ...] | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(message)
        self.operation = operation
        self.shape = shape
        self.kind = kind
        self.location: tuple[str, int] | None = None

    @property
    def code(self) -> str | None:
        """The static check (``SL101`` ... ``SL106``) that reports this kind of access."""
        return CHECK_CODES.get(self.kind or "")


def scalar_error(
    operation: str,
    shape: tuple[int, ...] | None,
    kind: str,
    *,
    detail: str = "",
    array: str = "a StrictArray",
) -> ScalarIndexingError:
    """Build the error for ``operation`` of ``kind`` (a key of ``_KINDS``).

    Returned, not raised, so call sites read ``raise scalar_error(...)`` and
    the traceback ends at the offending operation.
    """
    cost, specific = _KINDS[kind]
    where = "a device array" if shape is None else f"{array} of shape {shape}"
    ways = f"{specific}; or {_GENERIC_WAYS_OUT}" if specific else _GENERIC_WAYS_OUT
    message = (
        f"Scalar indexing is disallowed: {operation} on {where}{detail}.\n"
        f"On a GPU this {cost}.\n"
        f"Ways out: {ways}."
    )
    return ScalarIndexingError(message, operation=operation, shape=shape, kind=kind)
