"""Security headers on every response: the browser itself enforces "no external requests".

The Content-Security-Policy lets a page load scripts, styles, fonts, images and API calls from
this server only, so a stray CDN link fails loudly in development instead of leaking requests.
Inline scripts are refused; inline style attributes are allowed (they cannot fetch anything).
FastAPI's /docs page starts Swagger UI with an inline script (its files come from this server
too, see :mod:`py2048.web.app`): its policy allows exactly that script, by its SHA-256 hash,
computed from the page as it is sent.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
INLINE_SCRIPT_PATHS = ("/docs", "/docs/oauth2-redirect")
"""Pages whose inline scripts are allowed by hash: FastAPI's Swagger UI pages."""
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def policy_allowing_scripts_of(page: bytes) -> str:
    """The policy, with ``script-src`` allowing this server's files and ``page``'s inline
    scripts (each by its hash, so no other inline script runs)."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(page)
    ]
    return f"{CONTENT_SECURITY_POLICY}; script-src 'self' {' '.join(hashes)}".rstrip()


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] in INLINE_SCRIPT_PATHS:
            await self._with_script_hashes(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add_headers(message, _HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _with_script_hashes(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Hold the response until its page is whole (a few KB), then send it with a policy
        that allows its own inline scripts."""
        start: Message | None = None
        page = bytearray()

        async def send_when_whole(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            page.extend(message.get("body", b""))
            if message.get("more_body", False):
                return
            policy = policy_allowing_scripts_of(bytes(page))
            _add_headers(start, _HEADERS | {"Content-Security-Policy": policy})
            await send(start)
            await send({"type": "http.response.body", "body": bytes(page), "more_body": False})

        await self.app(scope, receive, send_when_whole)


def _add_headers(start: Message, headers: dict[str, str]) -> None:
    target = MutableHeaders(scope=start)
    for name, value in headers.items():
        target.setdefault(name, value)
