"""The checks, one module each, in code order."""

from __future__ import annotations

from scalarlint.checks import (
    sl101_scalar_getindex,
    sl102_scalar_setindex,
    sl103_search_loop,
    sl104_element_iteration,
    sl105_host_conversion,
    sl106_data_dependent_shape,
    sl107_host_sync,
)
from scalarlint.checks.base import CheckInfo, CheckModule

# Order matters: checks that claim sub-nodes (SL103 search predicates, SL105 conversions,
# SL104 iterables) run before the general element checks on the same node.
ALL_CHECKS: tuple[CheckModule, ...] = (
    sl103_search_loop,
    sl104_element_iteration,
    sl105_host_conversion,
    sl107_host_sync,
    sl106_data_dependent_shape,
    sl101_scalar_getindex,
    sl102_scalar_setindex,
)  # type: ignore[assignment]

BY_CODE: dict[str, CheckModule] = {c.INFO.code: c for c in sorted(ALL_CHECKS, key=lambda c: c.INFO.code)}


def info(code: str) -> CheckInfo:
    return BY_CODE[code.upper()].INFO
