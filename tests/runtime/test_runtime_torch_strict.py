"""Strict PyTorch on the CPU: every row of the StrictArray table, on CPU tensors.

Each refused operation raises outside ``allow_scalar()`` and works inside it;
each allowed one works under the policy. Skipped, with the reason, where
PyTorch is not installed.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any, Callable

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="strict PyTorch needs torch (pip install torch)")

from scalarlint.runtime import ScalarIndexingError, allow_scalar, disallow_scalar, to_host  # noqa: E402

HERE = __file__


def _stack_depth() -> int:
    return int(torch._C._len_torch_function_stack())


@pytest.fixture
def strict_mode() -> Any:
    with disallow_scalar() as policy:
        assert "torch-cpu" in policy.hooks
        yield policy


def _vector() -> Any:
    return torch.tensor([3.0, -1.0, 4.0, -1.0, 5.0])


def _matrix() -> Any:
    return torch.arange(6.0).reshape(2, 3)


def _set_one(x: Any) -> None:
    x[1] = 7.0


def _add_one(x: Any) -> None:
    x[1] += 7.0


def _set_two(x: Any) -> None:
    y = x.reshape(5, 1)
    y[2, 0] = 0.0


REFUSED: dict[str, tuple[Callable[[Any], Any], str, str]] = {
    # id: (call on the vector, operation substring, check code)
    "getindex": (lambda x: x[1], "getindex x[1]", "SL101"),
    "getindex-2d": (lambda x: x.reshape(5, 1)[2, 0], "getindex x[2, 0]", "SL101"),
    "getindex-numpy-int": (lambda x: x[np.int64(2)], "getindex x[2]", "SL101"),
    "setindex": (_set_one, "setindex x[1] = ...", "SL102"),
    "setindex-2d": (_set_two, "setindex x[2, 0] = ...", "SL102"),
    "augmented": (_add_one, "getindex x[1]", "SL101"),
    "slice-bound": (lambda x: x[torch.argmax(x) : torch.argmax(x) + 1], "a slice bound", "SL105"),
    "mask": (lambda x: x[x > 0], "boolean mask", "SL106"),
    "device-index": (lambda x: x[torch.argmax(x)], "0-d integer tensor as index", "SL105"),
    "device-index-write": (lambda x: x.__setitem__(torch.argmax(x), 0.0), "0-d integer tensor as index", "SL105"),
    "bool-list": (lambda x: x[[True, False, True, False, True]], "boolean mask", "SL106"),
    "mask-write": (lambda x: x.__setitem__(x < 0, x[:1]), "boolean mask", "SL106"),
    "nonzero": (lambda x: torch.nonzero(x), "nonzero()", "SL106"),
    "method-nonzero": (lambda x: x.nonzero(), "nonzero()", "SL106"),
    "argwhere": (lambda x: torch.argwhere(x), "argwhere()", "SL106"),
    "masked_select": (lambda x: torch.masked_select(x, x > 0), "masked_select()", "SL106"),
    "unique": (lambda x: torch.unique(x), "unique()", "SL106"),
    "method-unique": (lambda x: x.unique(), "unique()", "SL106"),
    "where-1-arg": (lambda x: torch.where(x > 0), "where() with one argument", "SL106"),
    "for": (lambda x: [v for v in x], "iteration", "SL104"),
    "list": (list, "iteration", "SL104"),
    "tuple": (tuple, "iteration", "SL104"),
    "zip": (lambda x: next(zip(x, x)), "iteration", "SL104"),
    "sum": (sum, "iteration", "SL104"),
    "max": (max, "iteration", "SL104"),
    "min": (min, "iteration", "SL104"),
    "sorted": (sorted, "iteration", "SL104"),
    "unpack": (lambda x: x[:2].__iter__(), "iteration", "SL104"),
    "float": (lambda x: float(x.sum()), "float()", "SL105"),
    "int": (lambda x: int(x.sum()), "int()", "SL105"),
    "bool": (lambda x: bool(x.sum() > 0), "bool()", "SL105"),
    "if": (lambda x: 1 if x.max() > 4 else 0, "bool()", "SL105"),
    "complex": (lambda x: complex(x.sum()), "complex()", "SL105"),
    "index": (lambda x: [0, 1, 2][torch.argmax(x[:3])], "__index__", "SL105"),
    "range": (lambda x: range(torch.argmax(x)), "__index__", "SL105"),
    "item": (lambda x: x.sum().item(), ".item()", "SL105"),
    "tolist": (lambda x: x.tolist(), ".tolist()", "SL105"),
    "numpy": (lambda x: x.numpy(), ".numpy()", "SL105"),
    "cpu": (lambda x: x.cpu(), ".cpu()", "SL105"),
    "asarray": (lambda x: np.asarray(x), "np.asarray()", "SL105"),
    "format-spec": (lambda x: f"{x.sum():.2f}", "format() with spec", "SL105"),
    "contains": (lambda x: 3.0 in x, "`in`", "SL105"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_outside_allow_scalar_and_allowed_inside(strict_mode: Any, name: str) -> None:
    call, operation, code = REFUSED[name]
    with pytest.raises(ScalarIndexingError) as info:
        call(_vector())
    assert operation in info.value.operation
    assert info.value.code == code
    assert "strict CPU tensor" in str(info.value) or info.value.shape is None
    with allow_scalar():
        call(_vector())


def test_the_error_names_the_line_of_the_callers_code(strict_mode: Any) -> None:
    x = _vector()
    with pytest.raises(ScalarIndexingError) as info:
        x[2]  # noqa: B018 - the access under test
    line = sys._getframe().f_lineno - 1
    assert info.value.location == (HERE, line)
    assert f"{HERE}:{line}" in str(info.value)


def test_the_error_through_torch_functional_names_the_callers_line(strict_mode: Any) -> None:
    with pytest.raises(ScalarIndexingError) as info:
        torch.unique(_vector())  # torch.unique is Python code in torch.functional
    assert info.value.location == (HERE, sys._getframe().f_lineno - 1)


ALLOWED: dict[str, Callable[[Any], Any]] = {
    "device-index-1d": lambda x: x[torch.argmax(x).reshape(1)],  # an index tensor of rank 1: a gather
    "slice": lambda x: x[1:3],
    "size-1-slice": lambda x: x[2:3],
    "row": lambda x: x.reshape(5, 1)[2],
    "row-and-slice": lambda x: x.reshape(5, 1)[2, :],
    "integer-tensor-gather": lambda x: x[torch.tensor([0, 2, 2])],
    "integer-list-gather": lambda x: x[[0, 2]],
    "integer-tensor-scatter": lambda x: x.__setitem__(torch.tensor([0, 2]), 1.0),
    "ellipsis-new-axis": lambda x: x[..., None],
    "mask-fill-with-a-scalar": lambda x: x.__setitem__(x < 0, 0.0),  # masked_fill_ on CUDA: no sync
    "index_add_": lambda x: x.index_add_(0, torch.tensor([0, 0, 1]), torch.ones(3)),
    "scatter_add": lambda x: x.scatter_add(0, torch.tensor([1, 1]), torch.ones(2)),
    "gather": lambda x: torch.gather(x, 0, torch.tensor([4, 0])),
    "reductions": lambda x: (x.sum(), x.max(), torch.argmax(x), x.mean(), torch.dot(x, x)),
    "three-arg-where": lambda x: torch.where(x > 0, x, 0.0),
    "whole-tensor": lambda x: (torch.einsum("i,i->", x, x), torch.cat([x, x]), torch.linalg.det(torch.eye(2) * x[:2])),
    "cumsum-flip-sort": lambda x: (torch.cumsum(x, 0), torch.flip(x, (0,)), torch.sort(x)),
    "len-shape": lambda x: (len(x), x.shape, x.dtype, x.dim(), x.numel()),
    "repr-str-format": lambda x: (repr(x), str(x), f"{x}", f"{x.sum()}"),
    "unbind": lambda x: x.unbind(0),
    "comparison": lambda x: x == x,
    "equal": lambda x: torch.equal(x, x),
    "to-host": lambda x: to_host(x),
}


def test_torch_itself_reads_a_0d_index_back_to_the_host() -> None:
    """Why ``device-index`` is refused: torch's indexing asks the 0-d index for its value
    (``_local_scalar_dense``, the kernel behind ``.item()``), which on CUDA waits for the device."""
    from torch.utils._python_dispatch import TorchDispatchMode

    seen: list[str] = []

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x = torch.arange(12.0).reshape(3, 4)
    with Record():
        x[:, torch.tensor(2)]
    assert "aten._local_scalar_dense.default" in seen
    seen.clear()
    with Record():
        x[:, torch.tensor([2])]
    assert "aten._local_scalar_dense.default" not in seen


@pytest.mark.parametrize("name", list(ALLOWED))
def test_allowed_under_the_policy(strict_mode: Any, name: str) -> None:
    ALLOWED[name](_vector())


def test_to_host_returns_a_detached_numpy_copy(strict_mode: Any) -> None:
    x = _vector().requires_grad_()
    host = to_host(x * 2)
    assert isinstance(host, np.ndarray)
    assert host.tolist() == [6.0, -2.0, 8.0, -2.0, 10.0]
    assert float(host[0]) == 6.0


def test_a_tests_own_assertions_keep_working(strict_mode: Any) -> None:
    x = _vector()
    torch.testing.assert_close(x * 2, x + x)
    with pytest.raises(AssertionError):
        torch.testing.assert_close(x, x + 1)
    assert torch.equal(x, x.clone())
    assert (to_host(x) == [3.0, -1.0, 4.0, -1.0, 5.0]).all()


# -- loss.backward() of a custom Function ------------------------------------------------------


class LoopBackward(torch.autograd.Function):
    """``d(sum(x**2))/dx`` written as a per-element loop: two scalar accesses per element."""

    @staticmethod
    def forward(ctx: Any, x: Any) -> Any:
        ctx.save_for_backward(x)
        return (x * x).sum()

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        dx = torch.zeros_like(x)
        for i in range(x.shape[0]):
            dx[i] = 2 * g * x[i]  # the line the error names
        return dx


LOOP_LINE = LoopBackward.backward.__code__.co_firstlineno + 5


class VectorBackward(LoopBackward):
    """The same derivative, vectorized: no scalar access."""

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return 2 * g * x


class AllowedBackward(LoopBackward):
    @staticmethod
    @allow_scalar
    def backward(ctx: Any, g: Any) -> Any:
        return LoopBackward.backward(ctx, g)


def test_loss_backward_runs_a_custom_backward_strictly(strict_mode: Any) -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = LoopBackward.apply(x) * 3
    with pytest.raises(ScalarIndexingError) as info:
        loss.backward()
    assert info.value.location == (HERE, LOOP_LINE)
    assert _stack_depth() == 1  # the engine left the thread's modes as they were


def test_torch_autograd_grad_and_backward_functions_are_covered(strict_mode: Any) -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ScalarIndexingError):
        torch.autograd.grad(LoopBackward.apply(x), x)
    with pytest.raises(ScalarIndexingError):
        torch.autograd.backward([LoopBackward.apply(x)])


def test_allow_scalar_around_inside_or_on_a_backward_permits(strict_mode: Any) -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with allow_scalar():
        LoopBackward.apply(x).backward()
    torch.testing.assert_close(x.grad, 2 * x.detach())
    x.grad = None
    AllowedBackward.apply(x).backward()
    torch.testing.assert_close(x.grad, 2 * x.detach())


def test_a_vectorized_backward_passes_and_agrees(strict_mode: Any) -> None:
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (VectorBackward.apply(x) * 2).backward()
    torch.testing.assert_close(x.grad, 4 * x.detach())


def test_double_backward_through_custom_functions(strict_mode: Any) -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (grad,) = torch.autograd.grad(VectorBackward.apply(x), x, create_graph=True)
    grad.sum().backward()
    torch.testing.assert_close(x.grad, torch.full((2,), 2.0))
    with pytest.raises(ScalarIndexingError):
        torch.autograd.grad(LoopBackward.apply(x), x, create_graph=True)


# -- scopes: nesting, exceptions, threads, cost when off ----------------------------------------


def test_the_mode_is_pushed_only_inside_the_policy_and_once_when_nested() -> None:
    x = _vector()
    assert _stack_depth() == 0
    assert x[1] == -1.0  # no policy: plain PyTorch
    with disallow_scalar():
        assert _stack_depth() == 1
        with disallow_scalar():
            assert _stack_depth() == 1
            with pytest.raises(ScalarIndexingError):
                x[1]  # noqa: B018
        with pytest.raises(ScalarIndexingError):
            x[1]  # noqa: B018
    assert _stack_depth() == 0
    assert float(x[1]) == -1.0


def test_an_exception_inside_allow_scalar_restores_strictness(strict_mode: Any) -> None:
    x = _vector()
    with pytest.raises(KeyError):
        with allow_scalar():
            x[1]  # noqa: B018
            raise KeyError("out")
    with pytest.raises(ScalarIndexingError):
        x[1]  # noqa: B018


def test_allow_scalar_in_one_thread_does_not_relax_another() -> None:
    x = _vector()
    inside, results = threading.Event(), threading.Event()
    outcome: dict[str, Any] = {}

    def relaxed() -> None:
        with disallow_scalar(), allow_scalar():
            inside.set()
            outcome["relaxed"] = float(x[1])
            results.wait(5)

    def strict() -> None:
        inside.wait(5)
        with disallow_scalar():
            try:
                x[1]  # noqa: B018
                outcome["strict"] = "allowed"
            except ScalarIndexingError:
                outcome["strict"] = "refused"
        results.set()

    threads = [threading.Thread(target=relaxed), threading.Thread(target=strict)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert outcome == {"relaxed": -1.0, "strict": "refused"}


def test_a_thread_started_inside_the_policy_is_not_covered(strict_mode: Any) -> None:
    """Documented: the mode is per thread (PyTorch's mode stack is thread-local)."""
    seen: list[float] = []
    thread = threading.Thread(target=lambda: seen.append(float(_vector()[1])))
    thread.start()
    thread.join(10)
    assert seen == [-1.0]


def test_backends_selects_the_cpu_mode_and_the_cuda_hook_separately() -> None:
    with disallow_scalar(backends=("torch-cpu",)) as policy:
        assert policy.hooks == ("torch-cpu",)
        with pytest.raises(ScalarIndexingError):
            _vector()[0]  # noqa: B018
    with disallow_scalar(backends=()) as policy:
        assert policy.hooks == ()
        assert float(_vector()[0]) == 3.0


def test_importing_the_runtime_and_opening_a_policy_does_not_import_torch() -> None:
    code = (
        "import sys\n"
        "from scalarlint.runtime import disallow_scalar, strict, to_host\n"
        "with disallow_scalar() as p:\n"
        "    to_host(strict([1.0]))\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
        "print(p.hooks if False else 'light')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "light"
