"""HEAD is answered wherever GET is: the GET's status and headers, without its body.

FastAPI answers HEAD only where a route says so (and 405 elsewhere), so ``curl -I`` of a page
would call it broken. This middleware, the first to see a request, hands the app a HEAD as a
GET and drops the body of the answer; its Content-Length stays that of the GET, as HTTP asks.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGetMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
