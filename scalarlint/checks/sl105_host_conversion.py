"""SL105 host-conversion: turning an array element, or a whole array, into host Python values.

Everything about SL105 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL105/``.
"""

from __future__ import annotations

from typing import Generator, Iterable, Iterator

import libcst as cst

from scalarlint.analysis.frameworks import HOST_CALLBACKS, HOST_FUNCTIONS
from scalarlint.analysis.expression_kinds import HOST_COPY_FUNCTIONS
from scalarlint.analysis.host_numpy import HOST_COPIES
from scalarlint.analysis.imports import qualified_names
from scalarlint.analysis.kinds import Doubt, Tag
from scalarlint.analysis.syntax import CONVERTERS, call_name, positional
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, short
from scalarlint.checks.sl105_axis_arguments import element_axis
from scalarlint.checks.sl105_element_lists import element_list_finding
from scalarlint.checks.sl105_grid_arguments import element_grid_argument
from scalarlint.checks.sl105_method_transfers import claim_conversion, device_data, method_call
from scalarlint.checks.sl105_python_math import math_conversion
from scalarlint.checks.sl105_read_values import element_bounds, element_index, tested_element
from scalarlint.checks.sl105_sequence_index import sequence_index
from scalarlint.checks.sl105_text import TEXT_CONVERTERS, formatted_device_value, shown_device_value
from scalarlint.vendored.locate import setting_module

INFO = CheckInfo(
    code="SL105",
    name="host-conversion",
    summary="`float()`/`int()`/`bool()`/`complex()`/`.item()` of an element; `.tolist()`, `.get()` of an array",
    doc="""\
## What it flags
Inside an AD rule: `float(x[i])`, `int(x[i])`, `bool(x[i])`, `complex(x[i])`,
`x[i].item()`, `round(x[i])` (Python's `round` makes an int on the host), and the same of a
value computed from an element (`lo = rois[n, 0] * s; int(lo)`); `int(args[k])` of one of the
tensors a rule holds in a sequence (`*x` of a custom gradient, whatever its rank); an element tested in `if`/`while`, a conditional expression or a comprehension's `if` (`if length <= 0:` while iterating `lengths`; `if t + dt > t_eval[k]:`, an element read compared with a tensor the rule holds, which Python asks for one bool; `if dim == -1:` with
`dim` a number the forward saved as `torch.tensor(dim)`); an element given as an axis
(`grad.unsqueeze(dim)`, `x.sum(axis=k)`: the library asks it for a host int);
an element used as a slice bound (`x[start:start + length]`), `torch.tensor([c, s])` or
`xp.array([[c, s], [-s, c]])` of a Python list holding device elements (each read on the host;
JAX and TensorFlow stack them on the device and are left alone), as an index in PyTorch
(`kx[:, :, hi]` with `hi = col_idx[k] // n`: torch's indexing reads a 0-d integer index with
`.item()`; in JAX or CuPy the same index is a gather) or as a size given to
`zeros`/`ones`/`empty`/`full`/`arange` or as an endpoint or a count of `linspace`/`logspace`/`arange`
(`torch.linspace(0, dt, n)` with `dt` a difference of elements; in JAX only a count, whose
endpoints may be traced); a device value as a `range()`
bound (`for _ in range(steps)` with `steps` a saved 0-d tensor); a device value as the index of
a Python list or tuple (`NAMES[mode]`, `Table.__kinds[index]` with `index` a tensor: the
sequence reads it back with `__index__`, in every framework; a dict hashes it, no sync); whole-array transfers to the
host: `x.tolist()`, `x.get()`, `cupy.asnumpy(x)`, chainer's `cuda.to_cpu(x)`, Keras' `get_value(x)`, `to_numpy(x)`, `x.cpu()`, `x.to("cpu")`, `x.numpy()`,
MXNet's `x.asnumpy()` and `x.asscalar()`, `jax.device_get(x)`, `to_host(x)` (but not the `to_host` of
`scalarlint.runtime` or of the configured `allow-scalar-import` helper: one copy, asked for by name), an array
module's writer of device data (`jnp.save(path, x)`, `torch.save(t, f)`), a backend object's converter
handed a device array (`backend.numpy(t)`), `.item()`/`.tolist()`/`.cpu()`/`.numpy()` of a
value the rule cannot type (only device data has them; not under an `isinstance` test of host
types, not on a value named as a shape), `.get()` of one a type test says is a CuPy array
(`if type(x).__module__ == "cupy":`, `isinstance(x, cupy.ndarray)`), `np.array(x)`/`np.asarray(x)` of a device array in a
module written for one device framework (torch, jax, tensorflow, paddle, ...: there NumPy is
the host), and any other NumPy function of a tensor there (`np.zeros_like(dy)`, `np.conj(t)`:
NumPy reads it through `__array__`; not `np.shape`/`np.ndim`, not in MXNet modules, whose NumPy
code runs on `.asnumpy()` copies), NumPy's converter mapped over the leaves of device data there
(`tree_map(onp.asarray, tree)`: one copy per leaf); and `jax.pure_callback` /
`io_callback` inside a rule (Python run on host copies of its arguments: what the callback
itself does with them is host work and is not flagged); Python's `max(a, b)` /
`min(a, b)` of an element (it compares on the host), `str()`, `repr()` or `print()` of device
data, and an f-string or `%` formatting of it (`print(f"mismatch: {diff}")`: its digits are
written on the host; not a message built for a `raise`, an `assert` or in an `except` handler,
which runs only once the rule has failed), Python's `math` functions of an element or of
arithmetic on a parameter annotated as an array (`math.exp(b - a)` in
`log_sum_exp(a: Tensor, b: Tensor)`: `__float__`, a sync), and an order of axes holding an
element (`x.permute(order + [dim])`). Each framework
module of `scalarlint.analysis.frameworks` lists its own.
One conversion of a reduction result (`float(loss)`, `int(xp.argmax(x))`) is SL107's, opt-in.
Where the converted or tested value is itself an element read (`int(x[i])`, `x[i].item()`,
`if x[i] > 0:`), the read is also SL101's finding: two findings on one line, one for the
kernel that reads the element and one for the wait; a fix of the statement removes both. A
search loop's predicate is SL103's alone.

## Why it hurts on a GPU
Converting device data to a Python value copies it to the host and waits for every queued
kernel: a device-to-host sync. Per element (in a loop) it serialises the GPU completely.
Strict backends raise; `jax.jit` cannot trace it.

## Example
```python
def pullback(dy):
    scale = float(x[0])      # SL105
    return (dy * scale,)
```

## What to write instead
Keep the value on the device: `scale = x[0:1]` (a size-1 view that broadcasts), or a 0-d
reduction result. If the conversion is intended and happens once, mark it with
`with allow_scalar():`.
""",
    fixers=(
        "running_scan",
        "scatter_add",
        "allow_scalar_block",
        "allow_scalar_header",
        "host_copy",
        "iterated_copy",
    ),
)

NODE_TYPES = (cst.Call, cst.If, cst.While, cst.IfExp, cst.CompIf, cst.Subscript, cst.FormattedString, cst.BinaryOperation)

TRANSFER_FUNCTIONS = HOST_COPY_FUNCTIONS | HOST_FUNCTIONS
# a backend object's converter that takes the array (``backend.numpy(x)``; ``x.numpy()`` is a method of the array)
BACKEND_CONVERTERS = frozenset({"numpy"})
DECLARED_COPY = "to_host"


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    if ctx.is_claimed(node):
        return
    if isinstance(node, (cst.If, cst.While, cst.IfExp, cst.CompIf)):
        yield from tested_element(node, ctx)
        return
    if isinstance(node, cst.Subscript):
        yield from element_bounds(node, ctx)
        yield from element_index(node, ctx)
        yield from sequence_index(node, ctx)
        return
    if isinstance(node, (cst.FormattedString, cst.BinaryOperation)):
        yield from formatted_device_value(node, ctx)
        return
    assert isinstance(node, cst.Call)
    name = call_name(node.func)
    args = positional(node)
    yield from element_axis(node, ctx)
    yield from math_conversion(node, ctx)
    for part in (_builtin_call, _transfer_call, method_call):
        if (yield from part(node, name, args, ctx)):
            return  # the part recognised the call, with or without a finding
    yield from _module_function_call(node, args, ctx)


def _builtin_call(node: cst.Call, name: list[str] | None, args: list[cst.BaseExpression], ctx: CheckContext) -> Generator[Finding, None, bool]:
    """``round``/``int``/``float``/... of an element, ``range`` of a device bound, Python's
    ``max``/``min``, ``str``/``print`` of device values, host callbacks. True: recognised."""
    if name == ["round"] and len(node.args) == 1 and ctx.inference.is_element_value(args[0]):
        yield Finding(
            INFO.code,
            node,
            f"`round()` of the element `{short(ctx, args[0])}` makes a Python int on the host: a device sync; "
            "use `xp.round` and keep it on the device",
            ctx.severity_for(node),
        )
        return True
    if name is not None and len(name) == 1 and name[0] in CONVERTERS and len(args) == 1:
        inner = args[0]
        element = isinstance(inner, cst.Subscript) and ctx.inference.selects_element(inner, converted=True)
        if element or ctx.inference.may_be_element(inner) or _tensor_of_a_sequence(inner, ctx):
            claim_conversion(inner, element, ctx)
            yield Finding(
                INFO.code,
                node,
                f"`{name[0]}()` of the element `{short(ctx, inner)}` copies it to the host: a device sync; "
                "keep it on the device (size-1 slice) or use `allow_scalar()`",
                ctx.severity_for(node),
            )
        return True
    if name == ["range"]:
        yield from _device_range_bound(node, args, ctx)
        return True
    if name is not None and len(name) == 1 and name[0] in PYTHON_COMPARERS and len(args) >= 2:
        element = next((a for a in args if ctx.inference.is_element_value(a)), None)
        if element is not None:
            yield Finding(
                INFO.code,
                node,
                f"Python's `{name[0]}()` compares the element `{short(ctx, element)}` on the host: a device sync; "
                f"use `xp.{name[0]}imum` on the device",
                ctx.severity_for(node),
            )
        return True
    if name is not None and len(name) == 1 and name[0] in TEXT_CONVERTERS and args:
        shown = shown_device_value(args, node, ctx)
        if shown is not None:
            yield Finding(
                INFO.code,
                node,
                f"`{name[0]}()` of the device value `{short(ctx, shown)}` copies it to the host to write its digits: a sync",
                ctx.severity_for(node),
            )
        return True
    if name is not None and name[-1] in HOST_CALLBACKS and args:
        yield Finding(INFO.code, node, f"`{name[-1]}()` runs Python on host copies of its arguments: a sync each call", ctx.severity_for(node))
        return True
    return False


def _transfer_call(node: cst.Call, name: list[str] | None, args: list[cst.BaseExpression], ctx: CheckContext) -> Generator[Finding, None, bool]:
    """``torch.tensor([c, s])`` of device elements, ``asnumpy(x)``/``cuda.to_cpu(x)`` of device
    data. True: recognised."""
    listed = element_list_finding(node, INFO.code, ctx)
    if listed is not None:
        yield listed
        return True
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    if method in BACKEND_CONVERTERS and len(args) == 1 and ctx.inference.module_call(node) is None:
        if device_data(ctx.inference.kind(args[0])):
            # which_backend(t).numpy(t), backend.numpy(x): a backend object's converter to NumPy
            yield Finding(INFO.code, node, f"`.{method}({short(ctx, args[0])})` copies the device array to the host: a sync and a transfer", ctx.severity_for(node))
            return True
    if name is not None and name[-1] in TRANSFER_FUNCTIONS and args and ctx.inference.module_call(node) is None:
        if name[-1] == DECLARED_COPY and _declared_copy(node, ctx):
            return True  # the runtime's or the vendored helper's to_host: one copy, asked for by name
        if _handed_to_transfer(args[0], ctx):
            yield Finding(INFO.code, node, f"`{name[-1]}()` copies the whole array to the host: a sync and a transfer", ctx.severity_for(node))
        return True
    return False


def _module_function_call(node: cst.Call, args: list[cst.BaseExpression], ctx: CheckContext) -> Iterator[Finding]:
    """NumPy reading a tensor on the host (``np.asarray(t)``, ``np.zeros_like(dy)``), sizes
    from elements (``xp.zeros(n[b])``), ``xp.asnumpy``-style copies."""
    func = ctx.inference.module_call(node)
    mapped = _mapped_host_copy(node, args, ctx)
    if mapped is not None:
        yield mapped
        return
    if func in SHAPE_CONSTRUCTORS and args:
        sized = list(_element_shape(node, args[0], ctx))
        yield from sized
        if not sized:
            yield from element_grid_argument(node, func, ctx)  # arange(start, n[b])
        return
    if func is not None:
        yield from element_grid_argument(node, func, ctx)  # linspace(0, dt, steps)
    if func in HOST_COPIES and args and ctx.inference.namespaces.host_numpy_call(node):
        if device_data(ctx.inference.kind(args[0])):
            yield Finding(INFO.code, node, f"`np.{func}()` copies the device array `{short(ctx, args[0])}` to the host: a sync and a transfer", ctx.severity_for(node))
        return
    if func is not None and func not in NOT_HOST_READS and args and ctx.inference.namespaces.numpy_reads_tensors(node):
        read = ctx.inference.kind(args[0])
        if read.tag is Tag.ARRAY and read.doubt == Doubt.NONE:
            # np.zeros_like(dy), np.conj(t) where NumPy is the host: NumPy reads the tensor through
            # __array__, a copy to the host
            yield Finding(INFO.code, node, f"`np.{func}()` reads the device array `{short(ctx, args[0])}` on the host: a sync and a transfer", ctx.severity_for(node))
            return
    if func is not None and func.rsplit(".", 1)[-1] in TRANSFER_FUNCTIONS and args and _handed_to_transfer(args[0], ctx):
        yield Finding(INFO.code, node, f"`{func}()` copies the whole array to the host: a sync and a transfer", ctx.severity_for(node))
        return
    if func in SAVE_FUNCTIONS:
        saved = next((a for a in args if device_data(ctx.inference.kind(a))), None)
        if saved is not None:
            yield Finding(INFO.code, node, f"`{func}()` copies the device array `{short(ctx, saved)}` to the host to write it: a sync and a transfer", ctx.severity_for(node))


MAPPERS = frozenset({"tree_map", "map", "tree_map_with_path"})  # call their first argument on every leaf


def _mapped_host_copy(node: cst.Call, args: list[cst.BaseExpression], ctx: CheckContext) -> Finding | None:
    """``tree_map(onp.asarray, tree)``, ``jax.tree.map(np.array, grads)``: NumPy's converter run
    on every leaf of device data, in a module written for a device framework: one copy to the
    host per leaf."""
    name = call_name(node.func)
    if not name or name[-1] not in MAPPERS or len(args) < 2:
        return None
    converter = args[0]
    if not isinstance(converter, cst.Attribute) or converter.attr.value not in HOST_COPIES:
        return None
    if not ctx.inference.namespaces.host_numpy_function(converter):
        return None
    return Finding(INFO.code, node, f"`{name[-1]}()` runs NumPy's `{converter.attr.value}` on every leaf of device data: one copy to the host each", ctx.severity_for(node))


# NumPy functions that read only what a tensor says about itself (its shape, its type), not its data
NOT_HOST_READS = frozenset({"shape", "ndim", "size", "isscalar", "iscomplexobj", "isrealobj", "result_type", "issubdtype",
                            "can_cast", "dtype", "broadcast_shapes"})
PYTHON_COMPARERS = frozenset({"max", "min"})  # max(a, b) asks bool(a > b): one value on the host


def _tensor_of_a_sequence(value: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``int(args[i])`` where ``args`` holds the rule's tensors (``*x`` of a custom gradient,
    saved tensors): a Python number from one of them is read from the device, whatever its rank;
    so is one from a name every reaching binding of which is such a tensor
    (``n = args[k]; ...; int(n)``)."""
    if isinstance(value, cst.Name):
        bound = ctx.inference.reaching_values(value)
        return bool(bound) and all(isinstance(b, cst.Subscript) and _tensor_of_a_sequence(b, ctx) for b in bound)
    if not isinstance(value, cst.Subscript):
        return False
    holder = ctx.inference.kind(value.value)
    indices = ctx.inference.index_kinds(value)
    return holder.tag is Tag.ARRAY_SEQ and not holder.doubt and bool(indices) and all(k.is_host_int for k in indices)


# array modules' writers (``jnp.save`` is NumPy's, ``torch.save`` pickles): the data goes through the host
SAVE_FUNCTIONS = frozenset({"save", "savez", "savez_compressed", "savetxt"})
SHAPE_CONSTRUCTORS = frozenset({"zeros", "ones", "empty", "full", "arange", "eye", "rand", "randn", "randint"})


def _element_shape(node: cst.Call, shape: cst.BaseExpression, ctx: CheckContext) -> Iterable[Finding]:
    """``torch.zeros((b, zend - zstart))`` with ``zstart`` one element of an array: allocating
    needs the size on the host, a sync before the kernel is even launched. Reported at the size."""
    sizes = [e.value for e in shape.elements] if isinstance(shape, (cst.Tuple, cst.List)) else [shape]
    for size in sizes:
        if ctx.inference.is_element_value(size):
            yield Finding(
                INFO.code,
                size,  # where the element is: on its own line in a call that spans several
                f"the size `{short(ctx, size)}` is an array element: allocating needs it on the host (a sync)",
                ctx.severity_for(node),
            )
            return


def _device_range_bound(node: cst.Call, args: list[cst.BaseExpression], ctx: CheckContext) -> Iterable[Finding]:
    """``range(steps)`` with ``steps`` a device value (a saved 0-d tensor, one element): Python
    asks it for a host int (``__index__``), a sync before the first trip."""
    for arg in args:
        kind = ctx.inference.kind(arg)
        named = isinstance(arg, cst.Name) and kind.is_device  # range(steps)
        counted = isinstance(arg, (cst.BinaryOperation, cst.UnaryOperation)) and kind.tag is Tag.DEVICE_SCALAR  # range(T - 1, -1, -1)
        if (named or counted) and not kind.doubt:
            yield Finding(
                INFO.code,
                node,
                f"`range()` needs `{short(ctx, arg)}` on the host, but it is a device value: a sync; "
                "loop over a host count, or keep the loop on the device",
                ctx.severity_for(node),
            )
            return


def _declared_copy(node: cst.Call, ctx: CheckContext) -> bool:
    """``to_host(x)`` imported from ``scalarlint.runtime`` or from the configured
    ``allow-scalar-import`` module (the vendored helper): intent declared, as with
    ``allow_scalar``; the one copy the host-copy fix puts before a loop. Another module's
    ``to_host`` is a transfer like any other."""
    config = ctx.inference.config
    declared = {"scalarlint.runtime", setting_module(config.allow_scalar_import)}
    for qualified in qualified_names(node.func, ctx.inference.scopes.get(node.func)):
        module, _, last = qualified.rpartition(".")
        module = module.lstrip(".")
        if last == DECLARED_COPY and module and any(m == module or m.endswith("." + module) for m in declared):
            return True
    return False


def _handed_to_transfer(arg: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``cuda.to_cpu(x)``, ``asnumpy(x)``, ``jax.device_get(x)`` take device data by definition:
    the argument is device data unless the inference proves it host data. An unknown value
    counts, and so does a parameter the naming conventions call an index tuple (``indices``)."""
    kind = ctx.inference.kind(arg)
    if kind.is_array:
        return kind.doubt <= Doubt.PARAMETER  # a helper's parameter handed to it is what it copies
    if kind.tag is Tag.UNKNOWN:
        return True
    return kind.tag is Tag.SHAPE and isinstance(arg, cst.Name) and ctx.inference.parameter_of(arg) is not None
