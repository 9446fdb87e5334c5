"""Strict PyTorch on the CPU: CPU tensors with the strict array's GPU semantics.

Inside ``disallow_scalar()`` (with PyTorch imported) a
:class:`torch.overrides.TorchFunctionMode` sees every torch call of the thread
and refuses, outside ``allow_scalar()``, what would sync or run per element on
a CUDA tensor, exactly as :class:`~scalarlint.runtime.StrictArray` does for
NumPy code: single-element reads and writes with host integers, ``item()``,
``tolist()``, ``numpy()``, ``cpu()``, ``bool()``/``int()``/``float()``/
``complex()``/``__index__``, ``np.asarray(t)``, iteration, boolean masks and
the functions whose output size depends on the data. Slices, integer-tensor
gathers and scatters, 0-d device indices, reductions and every other
whole-tensor operation pass through untouched.

Nothing of torch is patched: the mode is PyTorch's documented extension
point, pushed on the thread's mode stack when a policy opens and popped when
it closes, so outside a policy it costs nothing. This module imports torch,
so the policy imports it only when torch is already imported or asked for.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable

import numpy as np
import torch
from torch.overrides import TorchFunctionMode

from ._context import run_with_scalar_allowed, scalar_allowed
from ._errors import scalar_error
from ._report import refuse

__all__ = ["StrictTensorMode", "acquire", "release", "to_host_tensor"]

_ARRAY = "a strict CPU tensor"
_HOST_SCALARS = (int, float, complex, np.generic)
_Check = Callable[[tuple[Any, ...], dict[str, Any]], "tuple[str, str] | None"]


def _shape(value: Any) -> tuple[int, ...] | None:
    return tuple(value.shape) if isinstance(value, torch.Tensor) else None


def _is_host_int(part: Any) -> bool:
    return isinstance(part, (int, np.integer, torch.SymInt)) and not isinstance(part, (bool, np.bool_))


def _is_mask(part: Any) -> bool:
    if isinstance(part, torch.Tensor):
        return part.dtype is torch.bool
    if isinstance(part, np.ndarray):
        return part.dtype == np.bool_
    if isinstance(part, (list, tuple)):
        return any(isinstance(v, (bool, np.bool_)) or _is_mask(v) for v in part)
    return False


def _key_access(key: Any, shape: tuple[int, ...], operation: str) -> tuple[str, str] | None:
    """Classify an index key as CUDA executes it (see ``_indexing`` for the strict array)."""
    parts = key if type(key) is tuple else (key,)
    host_ints = 0
    non_scalar = False  # slices, new axes and index tensors never select one element
    for part in parts:
        if _is_mask(part):
            return f"{operation} with a boolean mask", "data-dependent"
        if isinstance(part, slice):
            if any(isinstance(b, torch.Tensor) for b in (part.start, part.stop, part.step)):
                return "a slice bound", "slice-bound"
            non_scalar = True
        elif isinstance(part, torch.Tensor) and part.dim() == 0 and not (part.is_floating_point() or part.is_complex()):
            # torch's C++ indexing reads a 0-d integer index with .item(): on CUDA a sync
            return f"{operation} with a 0-d integer tensor as index (torch reads it back with .item())", "conversion"
        elif _is_host_int(part):
            host_ints += 1
        elif part is not Ellipsis:
            non_scalar = True  # None, a Python bool, an index tensor of rank >= 1, a list
    if non_scalar or not host_ints or host_ints != len(shape):
        return None
    shown = ", ".join("..." if p is Ellipsis else str(int(p)) for p in parts)
    return f"{operation} x[{shown}]" + (" = ..." if operation == "setindex" else ""), operation


def _conversion(label: str) -> _Check:
    return lambda args, kwargs: (label, "conversion")


def _data_dependent(label: str) -> _Check:
    return lambda args, kwargs: (label, "data-dependent")


def _getitem(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str] | None:
    return _key_access(args[1], tuple(args[0].shape), "getindex")


def _setitem(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str] | None:
    key, value = args[1], args[2]
    mask = key[0] if type(key) is tuple and len(key) == 1 else key
    if isinstance(mask, torch.Tensor) and mask.dtype is torch.bool and isinstance(value, _HOST_SCALARS):
        return None  # `x[mask] = 0.0`: PyTorch runs it as masked_fill_, no sync on CUDA either
    return _key_access(key, tuple(args[0].shape), "setindex")


def _format(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str] | None:
    spec = args[1] if len(args) > 1 else ""
    return (f"format() with spec {spec!r}", "conversion") if spec else None  # f"{t}" stays like repr


def _where(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str] | None:
    return ("where() with one argument", "data-dependent") if len(args) + len(kwargs) == 1 else None


def _index_put(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str] | None:
    indices = args[1] if len(args) > 1 else kwargs.get("indices", ())
    if any(isinstance(i, torch.Tensor) and i.dtype is torch.bool for i in indices):
        return "index_put with a boolean mask", "data-dependent"
    return None


def _repeat_interleave(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str] | None:
    repeats = args[1] if len(args) > 1 else kwargs.get("repeats", args[0] if len(args) == 1 else None)
    if isinstance(repeats, torch.Tensor) and repeats.numel() > 1 and kwargs.get("output_size") is None:
        return "repeat_interleave() with tensor repeats and no output_size", "data-dependent"
    return None


def _build_checks() -> dict[Any, _Check]:
    T = torch.Tensor
    checks: dict[Any, _Check] = {
        T.__getitem__: _getitem,
        T.__setitem__: _setitem,
        T.item: _conversion(".item()"),
        T.tolist: _conversion(".tolist()"),
        T.numpy: _conversion(".numpy()"),
        T.cpu: _conversion(".cpu() (a device-to-host copy)"),
        T.__array__: _conversion("np.asarray() (a device-to-host copy)"),
        T.__bool__: _conversion("bool() (an `if`, `while`, `and`/`or`, `assert` on a tensor)"),
        T.__int__: _conversion("int()"),
        T.__float__: _conversion("float()"),
        T.__complex__: _conversion("complex()"),
        T.__index__: _conversion("int() via __index__ (a device scalar used as a host integer)"),
        T.__contains__: _conversion("`in` (membership test)"),
        T.__format__: _format,
        torch.where: _where,
        T.index_put_: _index_put,
        T.index_put: _index_put,
        torch.index_put: _index_put,
        torch.repeat_interleave: _repeat_interleave,
        T.repeat_interleave: _repeat_interleave,
    }
    for name in ("nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "bincount"):
        for owner in (torch, T, getattr(torch, "functional", None)):
            func = getattr(owner, name, None)
            if func is not None:
                checks[func] = _data_dependent(f"{name}()")
    return checks


_CHECKS = _build_checks()


_BACKWARD_CALLS = frozenset({torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad})
_CUSTOM_NODE = torch.autograd.function.BackwardCFunction


def _graph_roots(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    outputs = args[0] if args else kwargs.get("outputs", kwargs.get("tensors"))
    tensors = [outputs] if isinstance(outputs, torch.Tensor) else list(outputs or ())
    return [t.grad_fn for t in tensors if isinstance(t, torch.Tensor) and t.grad_fn is not None]


def _custom_nodes(roots: list[Any]) -> list[Any]:
    """The nodes of custom ``autograd.Function``s reachable from ``roots`` (a graph walk)."""
    seen: set[int] = set()
    stack, found = list(roots), []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, _CUSTOM_NODE):
            found.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return found


def _enter_node(grad_outputs: Any) -> None:
    mode = StrictTensorMode()
    mode.__enter__()
    _local.in_nodes.append(mode)


def _exit_node(grad_inputs: Any, grad_outputs: Any) -> None:
    _local.in_nodes.pop().__exit__(None, None, None)


def _run_backward(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run ``backward()``/``grad()`` with the mode pushed again around each custom backward.

    A mode is off while its own handler runs, and the engine runs the graph inside that
    handler: without this, every rule's backward would run unchecked. Node hooks (PyTorch's
    own extension point) push the mode just before a custom node runs and pop it after; when
    a backward raises, the engine restores the thread's mode stack itself.
    """
    in_nodes = _local.__dict__.setdefault("in_nodes", [])
    depth = len(in_nodes)  # a backward inside a custom backward (double backward) nests
    handles = []
    for node in _custom_nodes(_graph_roots(func, args, kwargs)):
        handles += [node.register_prehook(_enter_node), node.register_hook(_exit_node)]
    try:
        return func(*args, **kwargs)
    finally:
        for handle in handles:
            handle.remove()
        del in_nodes[depth:]
_UNBIND = torch.Tensor.unbind
_ITER_CODE = torch.Tensor.__iter__.__code__  # iterates through unbind(0), without dispatch


class StrictTensorMode(TorchFunctionMode):
    """Refuse scalar access to tensors outside ``allow_scalar()`` (a per-thread mode)."""

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        kwargs = kwargs or {}
        check = _CHECKS.get(func)
        if check is not None and not scalar_allowed():
            found = check(args, kwargs)
            if found is not None:
                operation, kind = found
                refuse(scalar_error(operation, _shape(args[0] if args else None), kind, array=_ARRAY), sys._getframe(1))
        elif func is _UNBIND and sys._getframe(1).f_code is _ITER_CODE and not scalar_allowed():
            error = scalar_error("iteration (for/list/zip/sum/max/sorted)", _shape(args[0]), "iteration", array=_ARRAY)
            refuse(error, sys._getframe(2))
        elif func in _BACKWARD_CALLS:
            return _run_backward(func, args, kwargs)
        return func(*args, **kwargs)


_local = threading.local()


def acquire() -> None:
    """Open the mode in this thread (nested policies share the outermost one's mode)."""
    depth = getattr(_local, "depth", 0)
    if depth == 0:
        mode = StrictTensorMode()
        mode.__enter__()
        _local.mode = mode
    _local.depth = depth + 1


def release() -> None:
    """Close what :func:`acquire` opened in this thread."""
    _local.depth -= 1
    if _local.depth == 0:
        mode, _local.mode = _local.mode, None
        mode.__exit__(None, None, None)


def to_host_tensor(tensor: torch.Tensor) -> np.ndarray:
    """A host NumPy copy of ``tensor`` (detached): the explicit way back, allowed under any policy."""
    return run_with_scalar_allowed(lambda: tensor.detach().resolve_conj().resolve_neg().cpu().numpy().copy())
