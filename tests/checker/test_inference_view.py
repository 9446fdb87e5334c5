"""The inference's rule modules name it through ``InferenceView`` and never import it.

``Inference`` imports the modules it delegates to; if they imported it back, even only for
their annotations, the modules would form a circle. The protocol in
``scalarlint/analysis/inference_view.py`` says what they ask of it, and ``Inference`` must offer
every member (otherwise the protocol describes an inference that does not exist).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scalarlint.analysis import inference_view
from scalarlint.analysis.inference import Inference
from scalarlint.analysis.module_facts import CallFacts, ModuleFacts

ANALYSIS = Path(inference_view.__file__).parent
RULE_MODULES = ("array_api", "bindings", "element_access", "expression_kinds", "local_calls",
                "module_facts", "operators", "parameters", "python_builtins")


def _members(protocol: type) -> set[str]:
    return set(getattr(protocol, "__annotations__", {})) | {n for n in vars(protocol) if not n.startswith("_")}


def _offered(cls: type) -> set[str]:
    init_names = set(cls.__init__.__code__.co_names)  # attributes set in __init__ (self.x = ...)
    return set(dir(cls)) | init_names


@pytest.mark.parametrize("name", RULE_MODULES)
def test_a_rule_module_does_not_import_the_inference(name: str) -> None:
    tree = ast.parse((ANALYSIS / f"{name}.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "scalarlint.analysis.inference" not in imported


@pytest.mark.parametrize(("protocol", "cls"), [
    (inference_view.InferenceView, Inference),
    (inference_view.ModuleFactsView, ModuleFacts),
    (inference_view.CallFactsView, CallFacts),
])
def test_the_real_classes_offer_every_member_of_their_view(protocol: type, cls: type) -> None:
    missing = _members(protocol) - _offered(cls)
    assert not missing, missing
