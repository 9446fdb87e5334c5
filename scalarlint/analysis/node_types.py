"""Exact-type sets that stand for ``isinstance`` in the hot loops of both passes.

Every libcst node class is an ``ABCMeta`` class, so an ``isinstance`` test against one that
fails CPython's exact-type shortcut runs ``ABCMeta.__instancecheck__`` (a Python-level call,
about 150 ns, against 20-30 ns for a set lookup): a run on chainer made 1.6 million of them.
``ast`` classes are plain, but a tuple of them is tried class by class. A tree from either
parser holds only the parser's own classes, so ``type(node) in kinds(A, B)`` answers what
``isinstance(node, (A, B))`` answers for every node in it.
"""

from __future__ import annotations


def kinds(*classes: type) -> frozenset[type]:
    """``classes`` and every class derived from them (as loaded now): ``type(x) in kinds(...)``
    stands for ``isinstance(x, classes)`` on parsed trees."""
    found: set[type] = set()
    todo = list(classes)
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.add(cls)
            todo.extend(cls.__subclasses__())
    return frozenset(found)
