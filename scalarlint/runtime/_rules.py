"""Which NumPy functions sync on a GPU, as tables.

Two kinds of function call synchronize on CuPy even though no element is
indexed from Python:

* functions whose output size depends on the data (``nonzero``, ``unique``,
  one-argument ``where``, ...): the host must wait for the device to learn
  the size;
* parameters that must be host integers (shapes, axes, counts, shifts): a
  0-d device array passed there is converted with ``int()``, a sync.

The tables are deliberately small and cover what AD rules call; a device
scalar passed to a host parameter of a function not listed here is unwrapped
silently (a documented gap, not a guarantee).
"""

from __future__ import annotations

from typing import Any, Iterator

from ._context import scalar_allowed
from ._errors import scalar_error
from ._report import refuse

__all__ = ["check_data_dependent", "check_host_params", "DATA_SCALAR_FUNCTIONS"]

DATA_DEPENDENT_FUNCTIONS = frozenset(
    {
        "nonzero",
        "flatnonzero",
        "argwhere",
        "unique",
        "unique_all",
        "unique_counts",
        "unique_inverse",
        "unique_values",
        "extract",
        "compress",
        "trim_zeros",
        "intersect1d",
        "union1d",
        "setdiff1d",
        "setxor1d",
    }
)

# NumPy returns a Python bool for these; CuPy returns a 0-d device array, so
# the strict array does too (an `if` on it is then a sync, as on the GPU).
DATA_SCALAR_FUNCTIONS = frozenset({"allclose", "array_equal", "array_equiv"})

_ALL = None  # every positional argument is a host parameter

# function name -> positions of host-only positional parameters (in the
# function form, `np.f(a, ...)`: position 0 is the array).
_HOST_POSITIONS: dict[str, tuple[int, ...] | None] = {
    # creation functions (reached through the strict namespace)
    "zeros": _ALL,
    "ones": _ALL,
    "empty": _ALL,
    "arange": _ALL,
    "eye": _ALL,
    "identity": _ALL,
    "tri": _ALL,
    "full": (0,),
    "linspace": (2,),
    "logspace": (2,),
    "geomspace": (2,),
    # shape manipulation
    "reshape": (1,),
    "broadcast_to": (1,),
    "tile": (1,),
    "repeat": (1, 2),
    "resize": (1,),
    "roll": (1, 2),
    "split": (1, 2),
    "array_split": (1, 2),
    "expand_dims": (1,),
    "squeeze": (1,),
    "flip": (1,),
    "moveaxis": (1, 2),
    "swapaxes": (1, 2),
    "rollaxis": (1, 2),
    "transpose": (1,),
    "permute_dims": (1,),
    "pad": (1,),
    "diag": (1,),
    "diagonal": (1, 2, 3),
    "trace": (1, 2, 3),
    "tril": (1,),
    "triu": (1,),
    "take": (2,),
    "take_along_axis": (2,),
    "concatenate": (1,),
    "concat": (1,),
    "stack": (1,),
    "diff": (1, 2),
    "matrix_power": (1,),
    "partition": (1, 2),
    "argpartition": (1, 2),
    # reductions and scans: the axis
    **{
        name: (1,)
        for name in (
            "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin",
            "argmax", "argmin", "cumsum", "cumprod", "cumulative_sum",
            "cumulative_prod", "any", "all", "sort", "argsort", "median",
            "count_nonzero", "ptp", "nansum", "nanprod", "nanmax", "nanmin",
            "nanmean", "logsumexp",
        )
    },
}

_HOST_KEYWORDS = frozenset(
    {
        "shape", "newshape", "axis", "axes", "axis1", "axis2", "source",
        "destination", "shift", "reps", "repeats", "k", "kth", "offset", "num",
        "n", "N", "M", "indices_or_sections", "pad_width",
    }
)


def _device_values(value: Any, device_cls: type) -> Iterator[Any]:
    if isinstance(value, device_cls):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _device_values(item, device_cls)


def check_data_dependent(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Raise unless allowed when ``name`` has a data-dependent output size."""
    one_arg_where = name == "where" and len(args) + len(kwargs) == 1
    if (name in DATA_DEPENDENT_FUNCTIONS or one_arg_where) and not scalar_allowed():
        first = args[0] if args else next(iter(kwargs.values()), None)
        shape = getattr(first, "shape", None)
        label = "where() with one argument" if one_arg_where else f"{name}()"
        refuse(scalar_error(label, shape, "data-dependent"))


def check_host_params(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], device_cls: type
) -> None:
    """Raise unless allowed when a device array sits in a host-only parameter."""
    if scalar_allowed():
        return
    positions = _HOST_POSITIONS.get(name, ())
    indices = range(len(args)) if positions is _ALL else positions
    candidates = [(f"argument {i}", args[i]) for i in indices if i < len(args)]
    candidates += [(f"argument {key!r}", v) for key, v in kwargs.items() if key in _HOST_KEYWORDS]
    for label, value in candidates:
        for device in _device_values(value, device_cls):
            refuse(scalar_error(
                f"int() of a device scalar passed as {label} of {name}()",
                device.shape,
                "conversion",
                detail=" (shapes, axes and counts are host integers)",
            ))
            return  # one report per call (record mode goes on)
