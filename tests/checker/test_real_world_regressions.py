"""Crashes found by running the fixers' oracle (``benchmarks/real_fixes.py``) on real code,
minimised; each must be checked like any other code."""

from __future__ import annotations

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import ALL_CODES, Config
from scalarlint.engine import check_source

# MyGrad 2.5.0, mygrad/math/misc/funcs.py (the matrix-chain order): a loop whose test compares
# an element value bound to a name (``q``), not a subscript, crashed SL103's message. The loop
# writes the best ``k`` into a table (``s[i, j] = k``), one cell per trip: since stop 50 that is
# an element loop (SL104) with a host test (SL105), not a search for one index.
MATRIX_CHAIN = '''\
import numpy as np


def chain_order(n):
    m = np.empty((n, n))
    s = np.empty((n, n), dtype=np.intp)
    for i in range(n):
        j = i + 1
        for k in range(i, j):
            q = m[i, k] + m[k + 1, j]
            if q < m[i, j]:
                m[i, j] = q
                s[i, j] = k
    return s
'''


def test_loop_testing_an_element_value_bound_to_a_name() -> None:
    config = Config(select=tuple(ALL_CODES), scope="all")
    found = check_source(SourceFile("chain.py", MATRIX_CHAIN, "utf-8", MATRIX_CHAIN.encode()), config)
    assert isinstance(found, list)
    assert [d.location.row for d in found if d.code == "SL104"] == [7]  # for i in range(n): the table's rows
    tests = [d for d in found if d.code == "SL105"]
    assert len(tests) == 1 and tests[0].location.row == 11 and "`q < m[i, j]`" in tests[0].message
    assert not [d for d in found if d.code == "SL103"]


# numpy 2.3.5's vendored meson, mesonbuild/compilers/detect.py: a function whose return is a
# call to itself, unpacked by a caller, sent the return-kind inference round forever
# ("too deeply nested to analyse"), so the file went unchecked under ``--scope all``.
SELF_RETURNING = '''\
import numpy as np


def split(x, depth, again=False):
    if depth:
        if again:
            return split(x, depth - 1)
        raise ValueError(depth)
    return x[:1], x[1:]


def use(x):
    head, tail = split(np.asarray(x), 3)
    for value in head:
        print(value)
    y = np.asarray(x)
    for i in range(len(y)):
        y[i] = tail
    return y
'''


def test_a_function_returning_a_call_to_itself_is_analysed() -> None:
    config = Config(select=tuple(ALL_CODES), scope="all")
    found = check_source(SourceFile("split.py", SELF_RETURNING, "utf-8", SELF_RETURNING.encode()), config)
    assert isinstance(found, list), found  # before the fix: a FileError, "too deeply nested to analyse"
    assert [d.location.row for d in found if d.code == "SL102"] == [18]  # the rest of the file is checked
