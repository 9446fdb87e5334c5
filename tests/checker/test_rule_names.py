"""Which function names mark an AD rule (``Config.is_rule_name``): the exact names, the glob
patterns (matched as ``fnmatch.fnmatchcase`` matches each, through one regular expression),
and never a pytest test."""

from __future__ import annotations

import fnmatch

import pytest

from scalarlint.config import Config, config_from_table


@pytest.mark.parametrize("name", ["rrule_norm", "norm_pullback", "f_vjp", "grad", "backward", "bwd", "x_bwd_2", "rrule", "fwd", "a_b_back", "test_backward", "plain"])
def test_the_default_patterns_match_as_fnmatch_does(name: str) -> None:
    config = Config()
    expected = not name.startswith("test") and (name in config.rule_names or any(fnmatch.fnmatchcase(name, p) for p in config.rule_patterns))
    assert config.is_rule_name(name) is expected


def test_configured_patterns_with_glob_classes_and_a_list() -> None:
    config = config_from_table({"rule-patterns": ["adj[0-9]_*"], "extend-rule-patterns": ["*_tangent?"]}, ".")
    assert config.is_rule_name("adj1_solve") and config.is_rule_name("x_tangent2")
    assert not config.is_rule_name("adjx_solve") and not config.is_rule_name("x_tangent")
    assert Config(rule_patterns=["a_*"]).is_rule_name("a_b")  # type: ignore[arg-type]  (a list works too)
    assert not Config(rule_patterns=()).is_rule_name("anything_vjp")  # no pattern: only the exact names
