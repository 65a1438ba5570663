"""Which Host headers the server answers: a defence against DNS rebinding.

A web page on another site can make the browser send requests to 127.0.0.1 by a name of its
own that it points there (DNS rebinding); the request then carries that name in its Host
header. A server listening on loopback answers only the names that mean this machine
(localhost, 127.0.0.1, [::1]) at its own port, and those the user allowed (``2048 serve
--allow-host``); any other Host gets a 400 that does not repeat it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
DEFAULT_HTTP_PORT = 80


class HostPolicy:
    """The Host headers to answer: ``names`` at ``port`` (or with no port when it is 80),
    and ``any_port_names`` at any port or none. Names compare without case."""

    def __init__(
        self, names: Iterable[str], port: int | None = None, any_port_names: Iterable[str] = ()
    ) -> None:
        self.port = port
        self.names = frozenset(name.lower() for name in names)
        self.any_port_names = frozenset(name.lower() for name in any_port_names)
        if port is None:  # the port is not known: any port will do
            self.any_port_names |= self.names

    @classmethod
    def loopback(
        cls, port: int | None = None, extra: Iterable[str] = (), address: str | None = None
    ) -> HostPolicy:
        """This machine's names (and the ``address`` listened on) at ``port``, and ``extra``
        names at any port."""
        names = [*LOOPBACK_NAMES, *([] if address is None else [_bracketed(address)])]
        return cls(names, port, [_bracketed(name) for name in extra])

    def allows(self, host: str | None) -> bool:
        if host is None:
            return False
        name, port = split_host(host.strip().lower())
        if name in self.any_port_names:
            return port is None or port.isdigit()
        if name not in self.names:
            return False
        if port is None:
            return self.port == DEFAULT_HTTP_PORT
        return port.isdigit() and int(port) == self.port


def split_host(host: str) -> tuple[str, str | None]:
    """``"[::1]:2048"`` -> ``("[::1]", "2048")``; ``"localhost"`` -> ``("localhost", None)``."""
    if host.startswith("["):
        address, _, rest = host.partition("]")
        if rest.startswith(":"):
            return f"{address}]", rest[1:]
        return f"{address}]{rest}", None  # "[::1]" alone, or something that matches no name
    name, colon, port = host.rpartition(":")
    return (name, port) if colon else (host, None)


def _bracketed(name: str) -> str:
    """An IPv6 address as it appears in a Host header: in brackets."""
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


class HostCheckMiddleware:
    """Refuses, with a 400, every HTTP request whose Host header the policy does not allow."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.policy.allows(_host(scope)):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {
                "detail": "this server answers only requests addressed to it by the names it "
                "was started with (localhost, 127.0.0.1 or [::1] at its port, and those given to "
                "2048 serve --allow-host)"
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _host(scope: Scope) -> str | None:
    hosts = [value for name, value in scope["headers"] if name == b"host"]
    return hosts[0].decode("latin-1") if len(hosts) == 1 else None
