"""The pytest plugin (``scalarlint.pytest_plugin``), through pytest's own ``pytester``.

Each test writes a small project and runs pytest on it in-process, with the plugin loaded the
way users get it: through the ``pytest11`` entry point of the installed package.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap

import array_api_compat  # noqa: F401  (see _keep_backends_imported)
import numpy  # noqa: F401
import pytest

import scalarlint.backends  # noqa: F401
import scalarlint.testing  # noqa: F401
from scalarlint.pytest_plugin import BACKENDS, _installed

import samples  # tests/integrations is on sys.path (pytest's default import mode)

pytestmark = [pytest.mark.slow]  # each test runs a pytest session of its own (pytester)


@pytest.fixture(autouse=True, scope="module")
def _keep_backends_imported() -> None:
    """In-process pytester runs drop the modules they imported when they end, and NumPy,
    PyTorch and JAX cannot be imported twice in one process: import them out here first."""
    for backend, module in (("torch", "array_api_compat.torch"), ("jax", "jax.numpy"), ("cupy", "cupy")):
        if _installed(backend):
            importlib.import_module(module)

NORM_RULES = '''\
import array_api_compat


def rrule_norm_inf(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.max(xp.abs(x))

    def norm_inf_pullback(dy):
        i = -1
        for j in range(len(x)):
            if abs(x[j]) == y:
                i = j
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm_inf_pullback


def rrule_norm1(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.sum(xp.abs(x))

    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm1_pullback
'''

NORM_TESTS = '''\
import numpy as np

from norms import rrule_norm1, rrule_norm_inf

X = np.array([0.5, -3.0, 2.0, 1.0])


def test_norm_inf(check_rule):
    check_rule(rrule_norm_inf, X)


def test_norm1(check_rule):
    check_rule(rrule_norm1, X)


def test_norm1_pullback_on_device(xp):
    x = xp.asarray(X)
    _, pullback = rrule_norm1(x)
    (dx,) = pullback(xp.asarray(1.0))
    assert dx.shape == (4,)
'''


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest on the scratch project in its own process (pytest-asyncio, unused there, stays
    out): an in-process run would drop the torch modules it imported from ``sys.modules`` when
    it ends, and torch registers its operator libraries once per process."""
    return pytester.runpytest_subprocess("-p", "no:asyncio", *args)


def _expected_skips(names: tuple[str, ...]) -> list[str]:
    return [name for name in names if name not in ("numpy", "strict") and not _installed(name)]


def test_xp_runs_once_per_backend_with_ids_and_skips_absent_ones_with_a_reason(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_shape="""
        def test_zeros(xp):
            assert xp.zeros(3).shape == (3,)
        """
    )
    result = _run(pytester, "-v", "-rs")
    for name in ("numpy", "strict"):
        result.stdout.fnmatch_lines([f"*test_zeros?{name}? PASSED*"])
    for name in _expected_skips(BACKENDS):
        result.stdout.fnmatch_lines([f"*test_zeros?{name}? SKIPPED*", f"*backend '{name}' unavailable*not installed*"])
    skipped = len(_expected_skips(BACKENDS))
    result.assert_outcomes(passed=len(BACKENDS) - skipped, skipped=skipped)


def test_header_lists_every_backend_and_the_summary_says_which_ran(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="def test_one(xp):\n    assert xp.ones(2).shape == (2,)\n")
    result = _run(pytester, "--scalarlint-backends=numpy,strict,cupy")
    header = [line for line in result.stdout.lines if line.startswith("scalarlint: xp backends:")]
    assert len(header) == 1
    for name in BACKENDS:
        assert name in header[0]
    assert "torch (not selected)" in header[0] and "jax (not selected)" in header[0]
    result.stdout.fnmatch_lines(["*scalarlint backends*", "numpy: 1 passed [[]numpy *]", "strict: 1 passed [[]StrictArray*]"])
    if not _installed("cupy"):
        assert "cupy (not installed: its tests are skipped)" in header[0]
        result.stdout.fnmatch_lines(["cupy: 1 skipped [[]cupy: CuPy is not installed*]"])


def test_backends_option_selects_and_rejects_unknown_names(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="def test_one(xp):\n    assert xp.ones(2).shape == (2,)\n")
    selected = _run(pytester, "-v", "--scalarlint-backends=strict")
    selected.stdout.fnmatch_lines(["*test_one?strict? PASSED*"])
    selected.assert_outcomes(passed=1)
    available = _run(pytester, "--scalarlint-backends=available")
    available.assert_outcomes(passed=len(BACKENDS) - len(_expected_skips(BACKENDS)), skipped=0)
    unknown = _run(pytester, "--scalarlint-backends=numpy,mxnet")
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    unknown.stderr.fnmatch_lines(["*unknown backend(s) mxnet*"])


def test_ini_setting_selects_backends(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nscalarlint_backends = numpy\n")
    pytester.makepyfile(test_one="def test_one(xp):\n    assert xp.__name__ == 'numpy'\n")
    _run(pytester).assert_outcomes(passed=1)


def test_a_projects_own_xp_fixture_is_not_parametrized(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("import pytest\n\n@pytest.fixture\ndef xp():\n    return 'mine'\n")
    pytester.makepyfile(test_own="def test_own(xp):\n    assert xp == 'mine'\n")
    _run(pytester).assert_outcomes(passed=1)


def test_direct_parametrization_of_xp_is_left_alone(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_direct="""
        import pytest

        @pytest.mark.parametrize("xp", ["strict"], indirect=True)
        def test_direct(xp):
            assert type(xp).__name__ == "StrictNamespace"
        """
    )
    _run(pytester).assert_outcomes(passed=1)


def test_check_rule_fixture_names_the_cotangent_that_differs(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_wrong="""
        import numpy as np

        def rrule_square(x):
            def pullback(dy):
                return (3.0 * x * dy,)  # wrong: d(x^2) = 2x
            return x * x, pullback

        def test_square(check_rule):
            check_rule(rrule_square, np.array([1.0, 2.0]))
        """
    )
    result = _run(pytester, "--scalarlint-backends=numpy")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*check_rule_fd(rrule_square): cotangent of argument 0 ('x') disagrees with central finite differences*max abs err*"]
    )


def test_check_rule_fixture_catches_scalar_access_and_names_the_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(norms=NORM_RULES, test_norms=NORM_TESTS)
    result = _run(pytester, "--scalarlint-backends=numpy,strict")
    result.assert_outcomes(passed=3, failed=3)
    result.stdout.fnmatch_lines(["*scalar access at *norms.py:11 in norm_inf_pullback: if abs(x?j?) == y:*"])


def test_marker_runs_the_test_under_disallow_scalar(pytester: pytest.Pytester) -> None:
    # A project that relaxes scalar access around every test: the marker and the option win.
    pytester.makeconftest(
        """
        import pytest
        from scalarlint.runtime import allow_scalar

        @pytest.fixture(autouse=True)
        def relaxed():
            with allow_scalar():
                yield
        """
    )
    pytester.makepyfile(
        test_policy="""
        import pytest
        from scalarlint.runtime import scalar_allowed, strict

        def read_one(x):
            return x[0]

        def test_relaxed():
            assert scalar_allowed()
            read_one(strict([1.0, 2.0]))

        @pytest.mark.scalar_strict
        def test_marked():
            assert not scalar_allowed()
            read_one(strict([1.0, 2.0]))
        """
    )
    marked = _run(pytester)
    marked.assert_outcomes(passed=1, failed=1)
    marked.stdout.fnmatch_lines(["*scalar access at *test_policy.py:5 in read_one: return x?0?*"])
    everywhere = _run(pytester, "--scalarlint-strict")
    everywhere.assert_outcomes(failed=2)
    everywhere.stdout.fnmatch_lines(["scalarlint: disallow_scalar() around every test (--scalarlint-strict)"])


def test_strict_run_fails_before_the_fix_and_passes_after_it(pytester: pytest.Pytester) -> None:
    """The acceptance scenario: a project's rule tests fail under --scalarlint-strict on the
    strict array, ``scalarlint check --fix --unsafe-fixes`` rewrites the rules, and they pass."""
    pytester.makepyfile(norms=NORM_RULES, test_norms=NORM_TESTS)
    before = _run(pytester, "--scalarlint-strict", "--scalarlint-backends=numpy,strict")
    before.assert_outcomes(passed=3, failed=3)
    fixed = subprocess.run(
        [sys.executable, "-m", "scalarlint", "check", "--fix", "--unsafe-fixes", "norms.py"],
        cwd=pytester.path, capture_output=True, text=True, check=False,
    )
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "allow_scalar" not in (pytester.path / "norms.py").read_text()
    after = _run(pytester, "--scalarlint-strict", "--scalarlint-backends=numpy,strict")
    after.assert_outcomes(passed=6)


def test_plugin_and_runtime_stay_free_of_the_checker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_modules=textwrap.dedent(
            """
            import sys

            def test_light(xp):
                import scalarlint.runtime
                heavy = [m for m in ("libcst", "astroid", "click") if m in sys.modules]
                assert heavy == []
            """
        )
    )
    result = pytester.runpytest_subprocess("--scalarlint-backends=numpy,strict", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


TORCH_RULES = samples.TORCH_LOOP_SQUARE

TORCH_TESTS = '''\
import pytest
import torch

from loops import LoopSquare


def test_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    LoopSquare.apply(x).backward()
    torch.testing.assert_close(x.grad, 2 * x.detach())


@pytest.mark.scalar_strict
def test_gradient_strict():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    LoopSquare.apply(x).backward()
'''


@pytest.mark.skipif(not _installed("torch"), reason="needs torch")
def test_marker_and_option_make_torch_cpu_strict_through_backward(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(loops=TORCH_RULES, test_loops=TORCH_TESTS)
    # in a subprocess: an in-process run would drop the torch modules it imported lazily
    # (torch.testing's), and PyTorch cannot import them twice in one process
    marked = pytester.runpytest_subprocess("-p", "no:asyncio", "-p", "no:cacheprovider")
    marked.assert_outcomes(passed=1, failed=1)
    marked.stdout.fnmatch_lines(["*scalar access at *loops.py:15 in backward: dx?i? = 2 * g * x?i?*"])
    everywhere = pytester.runpytest_subprocess("-p", "no:asyncio", "-p", "no:cacheprovider", "--scalarlint-strict")
    everywhere.assert_outcomes(failed=2)


@pytest.mark.skipif(not _installed("torch"), reason="needs torch")
def test_xp_torch_strict_refuses_scalar_access_and_lets_whole_tensor_code_pass(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_xp="""
        def first(x):
            return x[0]

        def test_whole(xp):
            x = xp.asarray([1.0, 2.0, 3.0])
            assert xp.sum(x * 2).shape == ()

        def test_element(xp):
            first(xp.asarray([1.0, 2.0, 3.0]))
        """
    )
    result = _run(pytester, "--scalarlint-backends=numpy,torch-strict", "-v")
    result.stdout.fnmatch_lines(["*test_whole?torch-strict? PASSED*", "*test_element?numpy? PASSED*",
                                 "*test_element?torch-strict? FAILED*"])
    result.stdout.fnmatch_lines(["*scalar access at *test_xp.py:2 in first: return x?0?*"])
    result.assert_outcomes(passed=3, failed=1)
