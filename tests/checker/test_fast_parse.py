"""The project's parse entry point gives libcst's own trees, built and validated by libcst as
installed: it switches nothing off, for its own thread or any other."""

from __future__ import annotations

import threading

import libcst as cst
import pytest

from scalarlint.analysis.fast_parse import parse
from test_fast_walk import SOURCES


@pytest.mark.parametrize("name,text", SOURCES[:40], ids=[n for n, _ in SOURCES[:40]])
def test_the_tree_is_libcsts_own(name: str, text: str) -> None:
    config = cst.PartialParserConfig(python_version="3.14")
    tree = parse(text, config=config)
    assert tree.deep_equals(cst.parse_module(text, config=config))
    assert tree.code == text


def _invalid_node() -> None:
    cst.Name("not a name")  # an identifier with spaces: libcst's validation rejects it


def test_nodes_built_by_hand_are_validated() -> None:
    parse("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        _invalid_node()


def test_parsing_validates_every_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each node the parser builds runs libcst's validation (counted in this test only)."""
    validated: list[str] = []
    original = cst.Name._validate
    monkeypatch.setattr(cst.Name, "_validate", lambda node: (validated.append(node.value), original(node))[1])
    parse("a = b + c\n")
    assert sorted(validated) == ["a", "b", "c"]


def test_validation_is_on_in_other_threads_during_and_after_a_parse() -> None:
    errors: list[BaseException] = []

    def build() -> None:
        try:
            _invalid_node()
        except cst.CSTValidationError as exc:
            errors.append(exc)

    other = threading.Thread(target=build)
    parse("y = 2\n")
    other.start()
    other.join()
    assert len(errors) == 1


def test_a_syntax_error_is_still_reported() -> None:
    with pytest.raises(cst.ParserSyntaxError):
        parse("def f(:\n")
