"""ASGI middleware that bounds what a request may cost before any route sees it.

A body over the limit is refused from its Content-Length alone when it declares one, and
otherwise as soon as the bytes read pass the limit, so the server never holds more than
``max_bytes`` of one request. A body that stalls gets a 408 instead of a worker waiting forever.
A whole body can then be inspected before the app parses it (see :mod:`py2048.web.body`).

The limits are sized to the largest request a game can make: a 4x4 save at the move cap,
whose history holds 262144 letters, is about 263 KB, and 288 KiB (:data:`MAX_BODY_BYTES`)
leaves room for whitespace. A game of more than 16 cells holds up to 4194304 moves, so its
requests may take 16 times as much (:data:`LONG_MAX_BODY_BYTES`, 4.5 MiB): the middleware reads
up to that, and :func:`py2048.web.body.check_api_body` refuses with 413 a body over the 4x4
limit that does not name such a size.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from py2048.engine.save import LONG_MAX_MOVES, MAX_MOVES

MAX_BODY_BYTES = MAX_MOVES + MAX_MOVES // 8
"""The largest body of a request about a game of 16 cells or fewer: 288 KiB."""
LONG_MAX_BODY_BYTES = LONG_MAX_MOVES + LONG_MAX_MOVES // 8
"""The largest body of a request about a game of more than 16 cells: 4.5 MiB."""
BODY_TIMEOUT_S = 10.0

Inspect = Callable[[Scope, bytes], tuple[int, str] | None]
"""Looks at a whole body before the app does: ``(status, detail)`` refuses it, None passes."""


class BodyLimitMiddleware:
    """Reads each HTTP request body up to ``max_bytes`` and hands it on; refuses the rest."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_BODY_BYTES,
        timeout_s: float = BODY_TIMEOUT_S,
        inspect: Inspect | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s
        self.inspect = inspect

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
        refusal = None if self.inspect is None else self.inspect(scope, bytes(body))
        if refusal is not None:
            await _refuse(send, *refusal, close=False)
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


async def _refuse(send: Send, status: int, detail: str, *, close: bool = True) -> None:
    """Answer ``{"detail": ...}``; ``close`` when the rest of the body was never read."""
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
