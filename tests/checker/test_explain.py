"""``scalarlint explain`` by code or by name, in text or JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scalarlint.cli import main


def explain(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["explain", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("name", ["scalar-getindex", "SCALAR-GETINDEX", "scalar_getindex", "sl101"])
def test_a_check_is_found_by_its_name_as_by_its_code(name: str) -> None:
    assert explain(name) == explain("SL101")
    assert explain(name)[1].startswith("# SL101 scalar-getindex\n")


def test_an_error_code_is_found_by_its_name() -> None:
    code, out, _ = explain("syntax-error")
    assert code == 0 and out.startswith("# SL001 syntax-error\n")


def test_an_unknown_name_is_a_usage_error_with_the_closest_name() -> None:
    code, out, err = explain("scalar-getindx")
    assert code == 2 and out == ""
    assert "unknown check 'scalar-getindx' (did you mean 'scalar-getindex'?)" in err
    assert "SL107 host-sync" in err


def test_json_of_one_check_is_an_object_with_its_documentation() -> None:
    code, out, _ = explain("search-loop", "--output-format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["code"] == "SL103" and data["name"] == "search-loop" and data["default"] == "on"
    assert data["url"].endswith("/checks/sl103/")
    text = explain("SL103")[1]
    assert data["explanation"] in text and data["summary"] in text


def test_json_of_every_check_is_an_array_in_code_order() -> None:
    for args in (["--all"], []):
        code, out, _ = explain(*args, "--format", "json")
        data = json.loads(out)
        assert code == 0 and [d["code"] for d in data] == sorted(d["code"] for d in data)
        defaults = {d["code"]: d["default"] for d in data}
        assert defaults["SL107"] == "off" and defaults["SL001"] == "always on" and defaults["SL101"] == "on"


def test_the_listing_is_unchanged_in_text() -> None:
    code, out, _ = explain()
    assert code == 0
    assert "SL107  host-sync" in out and "(opt-in)" in out and "(always on)" in out
