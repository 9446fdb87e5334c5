"""SL105's findings on methods that copy device data to the host: ``.item()``, ``.tolist()``,
``.numpy()``, ``.cpu()``, ``.to("cpu")``, ``.get()`` and the frameworks' own (``.asnumpy()``,
``.asscalar()``). The check module (``sl105_host_conversion``) dispatches here; the builtin
conversions and the module functions are its own."""

from __future__ import annotations

from typing import Generator

import libcst as cst

from scalarlint.analysis.expression_kinds import DEVICE_ONLY_METHODS
from scalarlint.analysis.frameworks import ELEMENT_METHODS, HOST_METHODS
from scalarlint.analysis.kinds import Doubt, Kind, Tag
from scalarlint.analysis.syntax import call_name, final_name
from scalarlint.checks.base import CheckContext, Finding, short
from scalarlint.checks.sl105_narrowing import narrowed_to_host, narrowed_to_tensor

CODE = "SL105"
TRANSFER_METHODS = frozenset({"tolist", "get", "cpu", "numpy"}) | HOST_METHODS
ELEMENT_TRANSFERS = frozenset({"item"}) | ELEMENT_METHODS
UNKNOWN_RECEIVER_TRANSFERS = frozenset({"item", "tolist"})  # array-only methods, whatever the receiver
# copies to the host whatever the receiver: only device data has them (``t.cpu()`` of a tensor
# or of a layer's parameters; a framework's ``mx.cpu()`` is called on a module, not a value)
UNKNOWN_RECEIVER_COPIES = DEVICE_ONLY_METHODS | {"cpu"}


def method_call(node: cst.Call, name: list[str] | None, args: list[cst.BaseExpression], ctx: CheckContext) -> Generator[Finding, None, bool]:
    """``.item()``, ``.tolist()``, ``.numpy()``, ``.cpu()``, ``.to("cpu")``, ``.get()`` on device
    values. True: recognised."""
    if isinstance(node.func, cst.Attribute):
        attr = node.func.attr.value
        receiver = node.func.value
        receiver_kind = ctx.inference.kind(receiver)
        if attr in UNKNOWN_RECEIVER_COPIES and not args and receiver_kind.tag is Tag.UNKNOWN and not _names_a_shape(receiver):
            yield Finding(CODE, node, f"`.{attr}()` copies device data `{short(ctx, receiver)}` to the host: a sync and a transfer", ctx.severity_for(node))
            return True
        if (
            attr in UNKNOWN_RECEIVER_TRANSFERS and not args and receiver_kind.tag is Tag.UNKNOWN
            and not narrowed_to_host(receiver, node, ctx)
            and (not _names_a_shape(receiver) or narrowed_to_tensor(receiver, node, ctx))
            and not _explicit_numpy_result(receiver, ctx)
        ):
            # gamma.item(), info['param'][0].tolist(): only arrays (and NumPy scalars) have these
            # methods; inside a rule the value is device data
            if attr == "item" and _read_of_an_untyped_array(receiver, ctx):
                ctx.claim_converted_read(receiver)
            yield Finding(CODE, node, f"`.{attr}()` copies `{short(ctx, receiver)}` to the host: a device sync", ctx.severity_for(node))
            return True
        if attr == "get" and not args and receiver_kind.tag is Tag.UNKNOWN and narrowed_to_tensor(receiver, node, ctx):
            # if type(sl).__module__ == "cupy": sl = sl.get(): CuPy's copy to the host
            yield Finding(CODE, node, f"`.get()` copies the device array `{short(ctx, receiver)}` to the host: a sync and a transfer", ctx.severity_for(node))
            return True
        if attr in ELEMENT_METHODS and not args and device_data(receiver_kind) and not narrowed_to_host(receiver, node, ctx):
            claim_conversion(receiver, isinstance(receiver, cst.Subscript) and ctx.inference.selects_element(receiver, converted=True), ctx)
            yield Finding(CODE, node, f"`.{attr}()` copies an element of `{short(ctx, receiver)}` to the host: a device sync", ctx.severity_for(node))
            return True
        if attr in ELEMENT_TRANSFERS and not args and isinstance(receiver, cst.Subscript) and ctx.inference.selects_element(receiver, converted=True):
            ctx.claim_converted_read(receiver)
            yield Finding(
                CODE,
                node,
                f"`.item()` of the element `{short(ctx, receiver)}` copies it to the host: a device sync",
                ctx.severity_for(node),
            )
            return True
        if attr == "to" and _to_the_host(node) and receiver_kind.tag in (Tag.ARRAY, Tag.UNKNOWN) and receiver_kind.doubt <= Doubt.PARAMETER:
            # x.to("cpu"), x.to(device="cpu"): only tensors (and layers, not found in rules) move
            yield Finding(CODE, node, f"`.to(\"cpu\")` copies `{short(ctx, receiver)}` to the host: a sync and a transfer", ctx.severity_for(node))
            return True
        if attr in TRANSFER_METHODS and not (attr == "get" and args) and device_data(receiver_kind):
            yield Finding(
                CODE,
                node,
                f"`.{attr}()` copies the whole array `{short(ctx, receiver)}` to the host: a sync and a transfer",
                ctx.severity_for(node),
            )
            return True
    return False


def device_data(kind: Kind) -> bool:
    """A device array or value, doubted at most as a helper's parameter: what a copy to the
    host moves (host data, and data built from Python values, move nothing)."""
    return kind.is_device and kind.doubt <= Doubt.PARAMETER


def claim_conversion(value: cst.BaseExpression, element_read: bool, ctx: CheckContext) -> None:
    """The conversion is this check's finding; an element read converted (``int(x[i])``) is
    also SL101's, anything else inside it is claimed (one finding per sync)."""
    if element_read:
        assert isinstance(value, cst.Subscript)
        ctx.claim_converted_read(value)
    else:
        ctx.claim(value)


def _read_of_an_untyped_array(receiver: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``cumsum[0].item()``, ``crow[row_offset].item()``: ``.item()`` answers only on an array
    of one element, so host-int indices into a value the rule cannot type read one element (a
    list of 0-d tensors would be typed as the container it was built as)."""
    if not isinstance(receiver, cst.Subscript) or ctx.inference.kind(receiver.value).tag is not Tag.UNKNOWN:
        return False
    indices = ctx.inference.index_kinds(receiver)
    return bool(indices) and all(k.is_host_int for k in indices)  # type: ignore[union-attr]


def _to_the_host(call: cst.Call) -> bool:
    """``.to("cpu")``, ``.to(device="cpu")``, ``.to(torch.device("cpu"))``."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value != "device":
            continue
        value = arg.value
        if isinstance(value, cst.Call) and (call_name(value.func) or [""])[-1] == "device" and value.args:
            value = value.args[0].value
        if isinstance(value, cst.SimpleString) and value.evaluated_value in ("cpu", "cpu:0"):
            return True
    return False


def _explicit_numpy_result(value: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``numpy.cumsum(cnt)[:-1].tolist()`` of values nobody can type: code that names ``numpy``
    itself (not the ``xp`` of generic code) computes host bookkeeping such as MPI counts."""
    while isinstance(value, (cst.Subscript, cst.Attribute)):
        value = value.value
    return isinstance(value, cst.Call) and ctx.inference.namespaces.numpy_call(value)


SHAPE_NAMES = frozenset({"size", "sizes", "shape", "shapes", "dims", "meta", "metadata"})


def _names_a_shape(value: cst.BaseExpression) -> bool:
    """``size.numpy()`` of ``size = torch.tensor(x.size())``: a shape kept in a CPU tensor, not
    device data (the name says so; the inference cannot follow it through a list)."""
    name = final_name(value) or ""
    return name.lower() in SHAPE_NAMES or name.lower().endswith(("_size", "_shape", "_meta"))
