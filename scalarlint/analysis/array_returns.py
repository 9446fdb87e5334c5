"""What a function of the checked tree returns, as far as its own text says: an array.

The project index records it per function (``FunctionEntry.returns_array``) so that a call to a
helper of another module counts as an array in the caller's file, which the second pass reads
alone. Only two kinds of evidence: a return annotation naming an array type, and every
``return`` being a call of an array package's function.
"""

from __future__ import annotations

ARRAY_PACKAGES = frozenset({"numpy", "jax", "torch", "cupy", "tensorflow", "paddle", "mindspore", "oneflow", "megengine", "mxnet"})
NOT_ARRAY_RESULTS = frozenset({"shape", "ndim", "size", "is_tensor", "is_available", "is_grad_enabled", "dtype", "device",
                               "finfo", "iinfo", "result_type", "can_cast", "allclose", "array_equal", "isscalar",
                               "broadcast_shapes", "get_default_dtype", "numel", "item", "tolist", "split", "unbind",
                               "chunk", "meshgrid", "broadcast_arrays", "nonzero", "where"})
ARRAY_ANNOTATIONS = frozenset({"ndarray", "NDArray", "Tensor", "Array", "ArrayLike"})


def annotated_array(returns: str) -> bool:
    """``def flm_2d_to_1d_fast(...) -> jnp.ndarray``: the dotted return annotation names an array type."""
    return returns.rsplit(".", 1)[-1] in ARRAY_ANNOTATIONS


def array_package_call(func: str, imports: dict[str, str]) -> bool:
    """``return torch.cat(parts)``, given the called function's dotted name: a call of an array
    package's function that gives an array (not ``torch.is_tensor``, not ``np.shape``)."""
    head, _, rest = func.partition(".")
    if not rest or rest.rsplit(".", 1)[-1] in NOT_ARRAY_RESULTS:
        return False
    return imports.get(head, "").split(".")[0] in ARRAY_PACKAGES
