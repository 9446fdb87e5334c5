"""PyTorch: ``torch.autograd.Function`` subclasses (``backward``, ``jvp``, ``vjp``,
``setup_context``), ``torch.library.register_autograd`` registrations, and the Python bodies of
``@torch.library.custom_op`` operators (the forward such a registration differentiates)."""

from scalarlint.analysis.frameworks.base import STAR_ARRAYS, ClassConvention, Framework

FRAMEWORK = Framework(
    name="torch",
    layer_bases=("torch.nn.Module", "torch.nn.modules.Module", "torch.nn.modules.module.Module"),
    classes=(
        ClassConvention(
            bases=("torch.autograd.Function", "torch.autograd.function.Function", "torch.autograd.function.InplaceFunction"),
            rule_methods=("backward", "jvp", "vjp", "setup_context"),
            forward_methods=("forward",),
            params={"backward": (STAR_ARRAYS,), "jvp": (STAR_ARRAYS,), "vjp": (STAR_ARRAYS,)},
        ),
    ),
    registrations=frozenset({"register_autograd"}),
    rule_decorators=frozenset({"library.custom_op", "library.impl", "library.register_kernel"}),
    array_modules=("torch",),
    numpy_like_imports={"torch": "torch"},
    host_methods=frozenset({"numpy", "cpu", "tolist"}),
    element_methods=frozenset({"item"}),
    index_reads_scalar_arrays=True,
)


