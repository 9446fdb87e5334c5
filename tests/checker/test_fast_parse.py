"""Parsing without node validation gives libcst's own trees, and validation stays on for
every other construction."""

from __future__ import annotations

import threading

import libcst as cst
import pytest

from scalarlint.analysis.fast_parse import parse_without_validation
from test_fast_walk import SOURCES


@pytest.mark.parametrize("name,text", SOURCES[:40], ids=[n for n, _ in SOURCES[:40]])
def test_the_tree_is_libcsts_own(name: str, text: str) -> None:
    config = cst.PartialParserConfig(python_version="3.14")
    fast = parse_without_validation(text, config=config)
    assert fast.deep_equals(cst.parse_module(text, config=config))
    assert fast.code == text


def _invalid_node() -> None:
    cst.Name("not a name")  # an identifier with spaces: libcst's validation rejects it


def test_nodes_built_by_hand_are_still_validated() -> None:
    parse_without_validation("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        _invalid_node()


def test_validation_is_on_after_a_parse_in_other_threads_too() -> None:
    errors: list[BaseException] = []

    def build() -> None:
        try:
            _invalid_node()
        except cst.CSTValidationError as exc:
            errors.append(exc)

    other = threading.Thread(target=build)
    parse_without_validation("y = 2\n")
    other.start()
    other.join()
    assert len(errors) == 1


def test_a_syntax_error_is_still_reported() -> None:
    with pytest.raises(cst.ParserSyntaxError):
        parse_without_validation("def f(:\n")
