"""The abstract values the inference assigns to expressions.

Only what the checks need: is it an array (and of which rank, if known), a 0-d device
value, a host integer (and where it comes from), or something that is never an array.
``UNKNOWN`` is the honest answer far more often than a guess, and it is never reported.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace


class Tag(enum.Enum):
    ARRAY = "array"  # a device array of rank >= 0 (rank may be unknown)
    DEVICE_SCALAR = "device-scalar"  # a 0-d device array: reduction or argmax result
    HOST_INT = "host-int"
    HOST_SCALAR = "host-scalar"  # float, bool, str, None, dtype: never an array
    SHAPE = "shape"  # a tuple of host ints
    ARRAY_SEQ = "array-seq"  # a tuple/list of arrays (cotangents, saved tensors)
    CONTAINER = "container"  # any other Python container
    MODULE = "module"  # an array module or namespace (np, xp, cp, torch, jnp)
    FUNCTION = "function"
    OBJECT = "object"  # self, ctx, and other non-array objects
    UNKNOWN = "unknown"


class Origin(enum.IntEnum):
    """Where a host integer comes from; the higher wins when two assignments meet."""

    LITERAL = 0
    STRUCTURAL = 1  # ndim, small counts, lengths of Python containers
    SIZE = 2  # one axis size of a multi-dimensional shape (``B, C, H, W = x.shape``): loops
    #           over it run once per row or per element, but an index below it is no element
    #           of an array of unknown rank (a batch slab)
    PARAM = 3  # an integer parameter of the rule
    DATA = 4  # derived from a data size (len(x), x.shape[k], x.size) or a search over data


ELEMENT = Origin.DATA  # the origin a DEVICE_SCALAR carries when it is one element of an array


class Doubt(enum.IntEnum):
    """Why an ARRAY might not be a device array; the most certain operand wins when two meet."""

    NONE = 0
    PARAMETER = 1  # an unannotated parameter of a rule: usually an array, sometimes a tuple
    PYTHON_DATA = 2  # built from Python data (np.array(shape_list)): likely host bookkeeping
    HOST_COPY = 3  # copied to the host on purpose (``x.asnumpy()``, ``x.numpy()``, ``x.get()``)


@dataclass(frozen=True)
class Kind:
    tag: Tag
    rank: int | None = None
    boolean: bool = False
    origin: Origin = Origin.LITERAL
    is_none: bool = False
    doubt: "Doubt" = 0  # type: ignore[assignment]  # how sure we are that an ARRAY is a device array
    # The array whose shape an ARRAY shares (``zeros_like(x)``, ``x * dy``: "x"), or whose leading
    # size bounds a HOST_INT (``range(len(x))``: "x"). ``x[i]`` with ``i`` bounded by ``x`` itself
    # walks a vector by its own length: evidence of an element even when the rank is unknown.
    key: str | None = None

    @property
    def is_array(self) -> bool:
        return self.tag is Tag.ARRAY

    @property
    def is_device(self) -> bool:
        return self.tag in (Tag.ARRAY, Tag.DEVICE_SCALAR)

    @property
    def is_host_int(self) -> bool:
        return self.tag is Tag.HOST_INT

    @property
    def is_element(self) -> bool:
        """One element of a device array for certain: not a reduction result, not doubted."""
        return self.tag is Tag.DEVICE_SCALAR and self.origin >= ELEMENT and not self.doubt


UNKNOWN = Kind(Tag.UNKNOWN)
OBJECT = Kind(Tag.OBJECT)
MODULE = Kind(Tag.MODULE)
FUNCTION = Kind(Tag.FUNCTION)
CONTAINER = Kind(Tag.CONTAINER)
ARRAY_SEQ = Kind(Tag.ARRAY_SEQ)
SHAPE = Kind(Tag.SHAPE)
HOST_SCALAR = Kind(Tag.HOST_SCALAR)
NONE = Kind(Tag.HOST_SCALAR, is_none=True)
DEVICE_SCALAR = Kind(Tag.DEVICE_SCALAR)


def array(rank: int | None = None, boolean: bool = False, doubt: Doubt = Doubt.NONE, key: str | None = None) -> Kind:
    return Kind(Tag.ARRAY, rank=rank if rank is None or rank >= 0 else None, boolean=boolean, doubt=doubt, key=key)


def shared_key(kinds: list[Kind] | tuple[Kind, ...]) -> str | None:
    """The one key the kinds agree on (literals and keyless kinds do not disagree)."""
    keys = {k.key for k in kinds if k.key is not None}
    return keys.pop() if len(keys) == 1 else None


def with_key(kind: Kind, key: str | None) -> Kind:
    return kind if key is None or kind.key == key else replace(kind, key=key)


def least_doubt(kinds: list[Kind] | tuple[Kind, ...]) -> Doubt:
    device = [k.doubt for k in kinds if k.tag in (Tag.ARRAY, Tag.DEVICE_SCALAR, Tag.ARRAY_SEQ)]
    return Doubt(min(device)) if device else Doubt.NONE


def host_int(origin: Origin = Origin.LITERAL, key: str | None = None) -> Kind:
    return Kind(Tag.HOST_INT, origin=origin, key=key)


def combine(kinds: list[Kind]) -> Kind:
    """What a name is when several assignments reach it: agree, or be unknown."""
    real = [k for k in kinds if not k.is_none]
    if not real:
        return kinds[0] if kinds else UNKNOWN
    first = real[0]
    tags = {k.tag for k in real}
    if len(tags) == 1:
        ranks = {k.rank for k in real}
        return Kind(
            first.tag,
            rank=ranks.pop() if len(ranks) == 1 else None,
            boolean=all(k.boolean for k in real),
            origin=max(k.origin for k in real),
            doubt=Doubt(min(k.doubt for k in real)),
            key=shared_key(real) if all(k.key or k.origin == Origin.LITERAL for k in real) else None,
        )
    if tags == {Tag.ARRAY, Tag.DEVICE_SCALAR}:
        return array(doubt=Doubt(min(k.doubt for k in real)))
    if tags == {Tag.HOST_INT, Tag.HOST_SCALAR}:
        return HOST_SCALAR
    device = [k for k in real if k.tag is Tag.DEVICE_SCALAR]
    if device and all(k.tag is Tag.DEVICE_SCALAR or (k.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) and k.origin == Origin.LITERAL) for k in real):
        # ``n = 0 if last else lengths[t]``: a literal beside an element; using it on the host
        # waits for the element whenever that branch ran
        return Kind(Tag.DEVICE_SCALAR, origin=max(k.origin for k in device), doubt=Doubt(min(k.doubt for k in device)))
    return UNKNOWN
