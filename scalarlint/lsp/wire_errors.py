"""JSON-RPC errors for messages the server cannot read, as the specification prescribes.

pygls reports a message it cannot decode with a pop-up and no response, so a client waiting
for an answer to that request waits forever. Here a message that is not JSON gets a -32700
(Parse error) response with ``id: null``; a request whose parameters do not fit the method
gets -32602 (Invalid params) with its own id; any other JSON that is not a message gets
-32600 (Invalid request). Notifications that cannot be read get no response (JSON-RPC never
answers a notification); they are logged.
"""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol


class ErrorReportingProtocol(LanguageServerProtocol):
    """pygls' protocol, remembering which request a message that failed to decode was, and
    forgetting finished notifications.

    pygls 2.1 files the future of every notification handler under a fresh id in
    ``_request_futures`` and only removes request futures when they answer: one future (about
    200 bytes) per keystroke, kept for the life of the server. ``_check_handler_result`` is
    called when a notification's handler is done, so it drops the entry there.
    """

    def _check_handler_result(self, future: Any) -> None:
        try:
            super()._check_handler_result(future)
        finally:
            for key in [k for k, f in self._request_futures.items() if f is future]:
                del self._request_futures[key]

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            exc.request_id = data.get("id") if "method" in data else None  # type: ignore[attr-defined]
            exc.is_notification = "method" in data and "id" not in data  # type: ignore[attr-defined]
            raise


def error_response(error: Exception) -> dict[str, Any] | None:
    """The JSON-RPC response for a message that could not be read, or ``None`` (a notification)."""
    if getattr(error, "is_notification", False):
        return None
    if isinstance(error, json.JSONDecodeError):
        code, message = types.ErrorCodes.ParseError, f"not JSON: {error}"
    elif isinstance(error, JsonRpcInvalidParams):
        code, message = types.ErrorCodes.InvalidParams, "invalid params for this method"
    else:
        code, message = types.ErrorCodes.InvalidRequest, f"not a JSON-RPC message: {error!r}"
    return {"jsonrpc": "2.0", "id": getattr(error, "request_id", None), "error": {"code": int(code), "message": message}}
