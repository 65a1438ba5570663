"""ASGI middleware that bounds what a request may cost before any route sees it.

A body over the limit is refused from its Content-Length alone when it declares one, and
otherwise as soon as the bytes read pass the limit, so the server never holds more than
``max_bytes`` of one request. A body that stalls gets a 408 instead of a worker waiting forever.
"""

from __future__ import annotations

import json

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 1 << 20
BODY_TIMEOUT_S = 10.0


class BodyLimitMiddleware:
    """Reads each HTTP request body up to ``max_bytes`` and hands it on; refuses the rest."""

    def __init__(
        self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES, timeout_s: float = BODY_TIMEOUT_S
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared == -1:
            await _refuse(send, 400, "Content-Length must be a non-negative integer")
            return
        if declared is not None and declared > self.max_bytes:
            await _refuse(send, 413, self._too_large())
            return
        body = bytearray()
        try:
            with anyio.fail_after(self.timeout_s):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client left before sending its body
                    body += message.get("body", b"")
                    if len(body) > self.max_bytes:
                        await _refuse(send, 413, self._too_large())
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, f"the request body did not arrive within {self.timeout_s:g} s")
            return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    def _too_large(self) -> str:
        return f"request body is larger than the limit of {self.max_bytes} bytes"


def _content_length(scope: Scope) -> int | None:
    """The declared length, None when absent, -1 when unreadable."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isascii() and text.isdigit() else -1
    return None


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
