"""The configuration's list of codes and its default selection say what the checks' own
``CheckInfo`` says.

``config_model`` keeps the codes as plain tuples so that reading a configuration does not
import the checks (and libcst with them: the pytest plugin and the runtime read settings
too); each check's ``INFO`` is the source. A new check, or one whose ``default_enabled``
changes, fails here until the two agree.
"""

from __future__ import annotations

from scalarlint.checks import BY_CODE
from scalarlint.config_model import ALL_CODES, DEFAULT_SELECT


def test_every_code_is_a_check_and_every_check_a_code() -> None:
    assert list(ALL_CODES) == sorted(BY_CODE)


def test_the_default_selection_is_the_checks_enabled_by_default() -> None:
    assert list(DEFAULT_SELECT) == sorted(code for code, check in BY_CODE.items() if check.INFO.default_enabled)


def test_reading_the_configuration_does_not_import_the_checks() -> None:
    import subprocess
    import sys

    code = "import sys, scalarlint.config_model; print(any(m.startswith(('scalarlint.checks', 'libcst')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
