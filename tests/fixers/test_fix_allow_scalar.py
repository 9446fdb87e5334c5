"""``with allow_scalar():`` blocks (SL101/SL102/SL105) and the import they need."""

from __future__ import annotations

from scalarlint.config import Config

RULE = '''\
"""Module docstring."""
from __future__ import annotations

import array_api_compat


def rrule_first(x):
    xp = array_api_compat.array_namespace(x)
    scale = float(x[0])  # keep this comment
    y = x[scale]

    def first_pullback(dy):
        return (xp.ones_like(x) * scale * dy,)

    return y, first_pullback
'''


def test_wraps_the_statement_and_imports_once_in_the_third_party_block(snip, tmp_path) -> None:
    outcome = snip.fixed(RULE, unsafe=True, config=Config(root=str(tmp_path)))
    text = outcome.text
    assert text.count("from scalarlint.runtime import allow_scalar\n") == 1
    head = text.splitlines()[:6]
    assert head == [
        '"""Module docstring."""', "from __future__ import annotations", "",
        "import array_api_compat", "from scalarlint.runtime import allow_scalar", "",
    ]
    assert "    with allow_scalar():\n        scale = float(x[0])  # keep this comment\n" in text
    assert outcome.remaining == []


def test_is_unsafe_and_not_applied_by_fix(snip) -> None:
    found = snip.fixes_of(RULE, "SL105")
    assert [f.applicability for _, f in found] == [snip.UNSAFE]
    assert snip.fixed(RULE, unsafe=False).text == snip.source(RULE).text


def test_existing_import_is_reused(snip) -> None:
    text = RULE.replace("import array_api_compat\n", "import array_api_compat\nfrom scalarlint.runtime import allow_scalar as allowscalar\n")
    out = snip.fixed(text).text
    assert "with allowscalar():" in out and out.count("import allow_scalar") == 1


def test_configured_import_path(snip) -> None:
    out = snip.fixed(RULE, config=Config(allow_scalar_import="mylib.compat")).text
    assert "from mylib.compat import allow_scalar\n" in out and "scalarlint.runtime" not in out


def test_no_docstring_keeps_the_header_above_the_imports(snip, tmp_path) -> None:
    text = "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# header\nimport array_api_compat\n" + RULE.split("import array_api_compat\n", 1)[1]
    out = snip.fixed(text, config=Config(root=str(tmp_path))).text
    assert out.startswith("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# header\nimport array_api_compat\nfrom scalarlint.runtime import allow_scalar\n")


def test_not_offered_in_a_loop_over_data(snip) -> None:
    text = RULE.replace("    scale = float(x[0])  # keep this comment\n", "    scale = 0.0\n    for k in range(len(x)):\n        scale = scale + float(x[k])\n")
    assert [d for d in snip.diagnostics(text) if d.code == "SL105"]
    assert not [f for _, f in snip.fixes_of(text, "SL105") if "allow_scalar" in f.message]  # the sum is running_scan's


def test_not_offered_in_a_lambda_or_when_the_name_is_taken(snip) -> None:
    lam = RULE.replace("    scale = float(x[0])  # keep this comment\n", "    get = lambda: float(x[0])\n    scale = get()\n")
    assert snip.fixes_of(lam, "SL105") == []
    taken = RULE.replace("import array_api_compat\n", "import array_api_compat\nallow_scalar = None\n")
    assert snip.fixes_of(taken, "SL105") == []


def test_a_compound_statement_header_is_never_wrapped_whole(snip) -> None:
    """The scope would cover the whole block: only the test is scoped (``allow_scalar_header``)."""
    text = RULE.replace("    scale = float(x[0])  # keep this comment\n", "    scale = 1.0\n    if float(x[0]) > 0:\n        scale = 2.0\n")
    assert [d for d in snip.diagnostics(text) if d.code == "SL105"]
    messages = [f.message for _, f in snip.fixes_of(text, "SL105")]
    assert messages and not any("Wrap the statement" in m for m in messages)
    assert "    with allow_scalar():\n        condition = bool(float(x[0]) > 0)\n    if condition:\n        scale = 2.0\n" in snip.fixed(text).text


def test_keeps_tabs_and_crlf(snip) -> None:
    text = RULE.replace("    ", "\t").replace("\n", "\r\n")
    out = snip.fixed(text).text
    assert "\r\n\twith allow_scalar():\r\n\t\tscale = float(x[0])  # keep this comment\r\n" in out
    assert "\n" not in out.replace("\r\n", "")
    assert "from scalarlint.runtime import allow_scalar\r\n" in out


def test_multiline_statement_inside_the_block_still_parses(snip) -> None:
    text = RULE.replace(
        "    scale = float(x[0])  # keep this comment\n",
        '    scale = float(\n        x[0]\n    )\n    note = """a\nmultiline string"""\n',
    )
    out = snip.fixed(text).text
    compile(out, "fixed", "exec")
    assert 'note = """a\nmultiline string"""' in out
