"""Code that must not be flagged inside rules: the traps a naive checker falls into."""
from typing import Dict, List, Tuple

import numpy as np


def rrule_traps(x: np.ndarray, shape: Tuple[int, ...], names: List[str], lookup: Dict[str, int], axis=0):
    y = np.sum(x)

    def pullback(dy):
        t = (dy, dy)
        first = t[0]  # tuple
        lst = [1, 2, 3]
        a = lst[0] + lst[-1]  # list
        d = {"a": 1}
        b = d["a"] + lookup["b"]  # dicts
        n = x.shape[0]  # shape
        m = shape[axis]  # host shape tuple
        s = "abc"[1]  # string
        half = x[: n // 2]  # slice
        idx = np.array([0, 2, 2])
        gathered = x[idx]  # integer-array gather
        mat = np.zeros((n, n))
        row = mat[0]  # a row of a rank-2 array
        full = x[...]  # ellipsis
        x2 = x[:, None]  # newaxis
        amax = x[np.argmax(x)]  # 0-d device index
        ints = [int(v) for v in lst]  # int() of Python values
        fl = float(n)  # float() of a host int
        for name in names:  # a list of labels
            pass
        hint: List[int] = []  # typing subscript
        cfg = lookup.get("k")  # .get() on a dict
        return (first + a + b + m + half.sum() + gathered.sum() + row.sum() + full + x2 + amax + fl, None, None, None, None)

    return y, pullback


def plain_function(x):
    return x[len(x) - 1]  # outside any rule: not checked by default


def broadcast_helper_vjp(*shapes: tuple):
    return [tuple(s) for s in shapes]  # annotated *args: tuples, not arrays


def typed_vjp(*xs: np.ndarray):
    return [sum(x) for x in xs]  # expect: SL104
