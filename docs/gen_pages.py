"""MkDocs hook (``hooks:`` in mkdocs.yml): the pages written from the code itself.

One page per check (what ``scalarlint explain CODE --markdown`` prints), one per fixer (its
module docstring) and the configuration reference (``scalarlint.settings_reference``). They are
made in memory at build time, never committed, so the site always says what the code does;
a hook rather than a plugin needs nothing installed beyond MkDocs.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from docstring_md import _inline, docstring_markdown, summary_and_body

CHECKS_SECTION = "Checks"
FIXES_SECTION = "Fixes"


def check_page_uri(code: str) -> str:
    """Where a check's page lives in docs/ (``scalarlint.diagnostics.DOCS_URL`` points at it)."""
    return f"checks/{code.lower()}.md"


def fixer_page_uri(module: str) -> str:
    return f"fixers/{module}.md"


def fixer_modules() -> list[tuple[str, frozenset[str], str]]:
    """(module name, codes it fixes, docstring) for each fixer, in the fixers' preference order."""
    from scalarlint.fixers import FIXERS

    out = []
    for codes, func in FIXERS:
        module = inspect.getmodule(func)
        assert module is not None and module.__file__ is not None
        with open(module.__file__, encoding="utf-8") as fh:
            doc = ast.get_docstring(ast.parse(fh.read())) or ""
        out.append((module.__name__.rsplit(".", 1)[-1], frozenset(codes), doc))
    return out


def check_pages() -> dict[str, tuple[str, str]]:
    """uri -> (nav title, Markdown) for every check and file-error code."""
    from scalarlint.explain import Catalogue, render_text

    catalogue = Catalogue.load()
    fixers = fixer_modules()
    pages = {}
    for code, info in catalogue.infos.items():
        text = render_text([info], markdown=True)
        offered = [name for name, codes, _ in fixers if code in codes]
        if offered:
            links = "\n".join(f"- [`{name}`](../{fixer_page_uri(name)})" for name in offered)
            text += f"\n## Fixes offered\n\n{links}\n"
        text += f"\nThis page is `scalarlint explain {code} --markdown`.\n"
        pages[check_page_uri(code)] = (f"{code} {info.name}", text)
    return pages


def fixer_pages() -> dict[str, tuple[str, str]]:
    """uri -> (nav title, Markdown) for every fixer, from its module docstring."""
    pages = {}
    for name, codes, doc in fixer_modules():
        summary, body = summary_and_body(doc)
        fixes = ", ".join(f"[{c}](../{check_page_uri(c)})" for c in sorted(codes))
        text = f"# `{name}`\n\n{_inline(summary)}\n\nFixes findings of: {fixes}.\n\n{docstring_markdown(body)}"
        text += f"\nThis page is the docstring of `scalarlint.fixers.{name}`.\n"
        pages[fixer_page_uri(name)] = (name, text)
    return pages


def configuration_page() -> dict[str, tuple[str, str]]:
    from scalarlint.settings_reference import reference_markdown

    return {"configuration.md": ("Configuration", reference_markdown())}


def _extend_section(nav: list[Any], title: str, pages: dict[str, tuple[str, str]]) -> None:
    """Append the generated pages to the nav section ``title`` (which mkdocs.yml must have)."""
    for item in nav:
        if isinstance(item, dict) and title in item:
            item[title].extend({label: uri} for uri, (label, _) in pages.items())
            return
    raise ValueError(f"mkdocs.yml's nav has no {title!r} section for the generated pages")


def on_config(config: Any) -> Any:
    """Generate the pages once per build and list them in the nav."""
    global _PAGES
    checks, fixes, conf = check_pages(), fixer_pages(), configuration_page()
    _extend_section(config["nav"], CHECKS_SECTION, checks)
    _extend_section(config["nav"], FIXES_SECTION, fixes)
    _PAGES = {**checks, **fixes, **conf}
    return config


_PAGES: dict[str, tuple[str, str]] = {}


def on_files(files: Any, config: Any) -> Any:
    """Add the generated pages to the build as files that exist in memory only."""
    from mkdocs.structure.files import File

    for uri, (_, text) in _PAGES.items():
        if files.get_file_from_path(uri) is not None:
            raise ValueError(f"docs/{uri} is generated; remove the file")
        files.append(File.generated(config, uri, content=text))
    return files
