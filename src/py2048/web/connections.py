"""The server's HTTP connections: a request's head (its line and headers) must arrive in time,
and may be at most ``MAX_HEAD_BYTES`` long.

uvicorn closes a connection left idle between requests (its keep-alive timeout), but not one
that never finishes sending a request's head: a client could hold a connection, and with many
of them the server's sockets, by sending a few header bytes now and then. This protocol closes
a connection whose request head is not complete within ``head_timeout_s`` of its first byte, or
of the connection's opening.

Nor does uvicorn's httptools parser bound a head's size, and it joins a header that arrives in
pieces by copying it whole for each piece, on the event loop: one 64 MB header sent in 64 KiB
pieces held every other request up for seconds. So the bytes of each head are counted as they
arrive, before the parser sees them: the parser is given at most ``max_head_bytes`` of one head,
and a head that needs more gets 431 (Request Header Fields Too Large) and the connection is
closed (closed without an answer when the connection is still answering an earlier request).
Before it is closed, what the client still sends is read and dropped for ``LINGER_S``: closing a
socket with unread data resets the connection, and the client could lose the 431 unread. A
client that goes on sending at full speed is cut off once ``LINGER_BYTES`` more have come, so
that reading and dropping a flood does not cost the server a core.
Under h11 (uvicorn's parser when httptools is missing), its own limit on an incomplete head is
set to the same size (:func:`py2048.web.server.server_config`), and it answers 400.
"""

from __future__ import annotations

import asyncio
import json

from uvicorn.protocols.http.auto import AutoHTTPProtocol

HEAD_TIMEOUT_S = 5.0
LINGER_S = 1.0
LINGER_BYTES = 1024 * 1024
"""The most bytes read and dropped after a 431 before the connection is closed at once: a
client's pipeline is seldom longer, and a flood at network speed ends in milliseconds."""
MAX_HEAD_BYTES = 64 * 1024
"""The most bytes a request's line and headers may hold together: far above any browser's
(cookies included, a few KiB), far below what makes parsing a head cost anything."""


class HeadTimeoutProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol (httptools, else h11) with a deadline on every request head."""

    head_timeout_s = HEAD_TIMEOUT_S
    max_head_bytes = MAX_HEAD_BYTES
    _head_timer: asyncio.TimerHandle | None = None
    _in_head = True
    """Whether the parser is between messages or inside a head (the parser's own view: it
    follows pipelined requests too, whatever the connection is answering)."""
    _head_bytes = 0
    """Bytes given to the parser since the head it is in began (or the last message ended)."""
    _refused = False
    """A head too large was answered with 431: what comes now is dropped unparsed."""
    _dropped = 0
    """Bytes dropped since the 431."""

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        self._start_head_timer()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            self._dropped += len(data)
            if self._dropped > LINGER_BYTES:
                self.transport.close()
            return
        if not hasattr(self, "parser"):  # h11, which keeps its own limit (see above)
            self._parse(data)
            return
        while data and not self.transport.is_closing():
            if not self._in_head:
                self._parse(data)
                return
            room = self.max_head_bytes - self._head_bytes
            if room <= 0:
                self._refuse_head()
                return
            piece = data if len(data) <= room else data[:room]
            data = data[len(piece) :]
            self._head_bytes += len(piece)
            self._parse(piece)

    def _parse(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before:  # a new request's head was read whole
            self._stop_head_timer()
        elif self._head_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._start_head_timer()  # the first bytes of the next request's head

    # httptools' callbacks, to follow where heads begin and end
    def on_headers_complete(self) -> None:
        self._in_head, self._head_bytes = False, 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_head, self._head_bytes = True, 0
        super().on_message_complete()

    def _refuse_head(self) -> None:
        """431 and close; only close if an earlier request's answer may still be on its way."""
        if self.cycle is None or self.cycle.response_complete:
            detail = (
                f"the request's line and headers are larger than the limit of "
                f"{self.max_head_bytes} bytes"
            )
            body = json.dumps({"detail": detail}).encode()
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                b"content-type: application/json\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\n"
                b"connection: close\r\n\r\n" + body
            )
            if self.transport.can_write_eof():
                self._refused = True
                self.transport.write_eof()
                self.loop.call_later(LINGER_S, self.transport.close)
                return
        self.transport.close()

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
