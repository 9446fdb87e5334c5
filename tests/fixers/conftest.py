"""Shared helpers for the fixer tests: check or fix a snippet in memory."""

from __future__ import annotations

import textwrap

import pytest
from scalarlint.fixers.engine import FixOutcome, check_text, fix_source

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import Config
from scalarlint.diagnostics import Applicability, Diagnostic, Fix, apply_edits


@pytest.fixture(autouse=True)
def _fixer_errors_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixer that crashes is a test failure here, not a logged warning."""
    monkeypatch.setenv("SCALARLINT_FIXER_ERRORS", "raise")


def source(text: str, path: str = "snippet.py", encoding: str = "utf-8") -> SourceFile:
    text = textwrap.dedent(text)
    return SourceFile(path, text, encoding, text.encode(encoding))


def diagnostics(text: str, config: Config | None = None) -> list[Diagnostic]:
    found = check_text(source(text), config or Config())
    assert isinstance(found, list), found
    return found


def fixes_of(text: str, code: str | None = None, config: Config | None = None) -> list[tuple[Diagnostic, Fix]]:
    return [(d, f) for d in diagnostics(text, config) if code in (None, d.code) for f in d.fixes]


def apply_one(text: str, fix: Fix) -> str:
    return apply_edits(textwrap.dedent(text), fix.edits)


def fixed(text: str, unsafe: bool = True, config: Config | None = None) -> FixOutcome:
    return fix_source(source(text), config or Config(), unsafe)


SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE


class Snippets:
    """The helpers above as a fixture (test modules here are not importable by name)."""

    SAFE = SAFE
    UNSAFE = UNSAFE
    source = staticmethod(source)
    diagnostics = staticmethod(diagnostics)
    fixes_of = staticmethod(fixes_of)
    apply_one = staticmethod(apply_one)
    fixed = staticmethod(fixed)


@pytest.fixture
def snip() -> Snippets:
    return Snippets()
