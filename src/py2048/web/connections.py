"""The server's HTTP connections: a request's head (its line and headers) must arrive in time.

uvicorn closes a connection left idle between requests (its keep-alive timeout), but not one
that never finishes sending a request's head: a client could hold a connection, and with many
of them the server's sockets, by sending a few header bytes now and then. This protocol closes
a connection whose request head is not complete within ``head_timeout_s`` of its first byte, or
of the connection's opening.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.auto import AutoHTTPProtocol

HEAD_TIMEOUT_S = 5.0


class HeadTimeoutProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol (httptools, else h11) with a deadline on every request head."""

    head_timeout_s = HEAD_TIMEOUT_S
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before:  # a new request's head was read whole
            self._stop_head_timer()
        elif self._head_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._start_head_timer()  # the first bytes of the next request's head

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _start_head_timer(self) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_too_late)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()
