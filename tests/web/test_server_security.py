"""What the server does against hostile clients: Host headers (DNS rebinding), listening beyond
this machine, request heads that never end, and the security headers of /docs."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from py2048 import Game
from py2048.web import create_app
from py2048.web.connections import (
    HEAD_TIMEOUT_S,
    LINGER_S,
    MAX_HEAD_BYTES,
    HeadTimeoutProtocol,
)
from py2048.web.hosts import HostPolicy
from py2048.web.server import network_warning, reachable_addresses, server_config
from tests.web.test_server import START_TIMEOUT_S, read_url, start_cli


def raw_request(url: str, request: bytes) -> bytes:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return reply


def get(url: str, path: str, host: bytes | None) -> bytes:
    header = b"" if host is None else b"Host: " + host + b"\r\n"
    return raw_request(
        url, b"GET " + path.encode() + b" HTTP/1.1\r\n" + header + b"Connection: close\r\n\r\n"
    )


# --- Host headers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [b"evil.example", b"evil.example:PORT", b"localhost.evil.example:PORT", b"[::1]x", b""],
    ids=["a foreign name", "a foreign name at the port", "a lookalike", "not a host", "empty"],
)
@pytest.mark.parametrize("path", ["/", "/static", "/api/presets", "/docs"])
def test_a_foreign_host_gets_400_and_is_never_echoed(
    server_url: str, host: bytes, path: str
) -> None:
    port = server_url.rsplit(":", 1)[1].encode()
    host = host.replace(b"PORT", port)
    reply = get(server_url, path, host)
    assert reply.startswith(b"HTTP/1.1 400"), reply[:200]
    assert b"location:" not in reply.lower()
    assert b"evil" not in reply
    assert b"--allow-host" in reply


def test_a_request_with_no_host_header_is_refused(server_url: str) -> None:
    reply = raw_request(server_url, b"GET / HTTP/1.0\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 400")


@pytest.mark.parametrize("name", [b"localhost", b"127.0.0.1", b"LocalHost"])
def test_this_machines_names_are_answered(server_url: str, name: bytes) -> None:
    port = server_url.rsplit(":", 1)[1].encode()
    reply = get(server_url, "/static", name + b":" + port)
    assert reply.startswith(b"HTTP/1.1 307")
    assert b"location: http://" + name + b":" + port + b"/static/" in reply


def test_the_policy_takes_loopback_names_at_the_port_and_allowed_names_at_any() -> None:
    policy = HostPolicy.loopback(2048, ["game.test", "::2"], address="127.0.0.2")
    allowed = ["localhost:2048", "127.0.0.1:2048", "[::1]:2048", "127.0.0.2:2048", "game.test"]
    allowed += ["GAME.test:8080", "[::2]:1"]
    refused = ["localhost", "localhost:2049", "[::1]", "evil.example:2048", "localhost:2048:1"]
    refused += ["game.test:x", "[::1]:2048x", "", "127.0.0.3:2048"]
    assert [h for h in allowed if not policy.allows(h)] == []
    assert [h for h in refused if policy.allows(h)] == []
    assert HostPolicy.loopback(80).allows("localhost")
    assert HostPolicy.loopback().allows("127.0.0.1:5555")  # the port unknown: any will do


# --- 2048 serve: the address it listens on ---------------------------------------------------


def stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=30)


@pytest.mark.slow
def test_serve_on_loopback_answers_its_names_and_allowed_ones_only() -> None:
    process = start_cli("serve", "--port", "0", "--no-browser", "--allow-host", "game.test")
    try:
        url = read_url(process)
        port = url.rstrip("/").rsplit(":", 1)[1]
        assert httpx.get(f"{url}healthz", timeout=START_TIMEOUT_S).status_code == 200
        for host, status in [
            (f"localhost:{port}", 200),
            (f"game.test:{port}", 200),
            ("game.test", 200),
            (f"evil.example:{port}", 400),
            ("localhost:1", 400),
        ]:
            assert httpx.get(f"{url}healthz", headers={"host": host}).status_code == status, host
    finally:
        _, err = stop(process)
    assert "warning" not in err and "Traceback" not in err


@pytest.mark.slow
def test_serve_on_every_interface_warns_and_says_where_it_can_be_reached() -> None:
    process = start_cli("serve", "--host", "0.0.0.0", "--port", "0", "--no-browser")
    try:
        url = read_url(process)  # still the address to open on this machine
        port = url.rstrip("/").rsplit(":", 1)[1]
        reply = httpx.get(f"{url}healthz", headers={"host": f"game.example:{port}"})
        assert reply.status_code == 200, "on the network, the names it is reached by are unknown"
    finally:
        _, err = stop(process)
    warning = next(line for line in err.splitlines() if "warning" in line)
    assert "listening on every network interface" in warning
    assert "anyone who can reach this computer over the network can play" in warning
    assert "--host 127.0.0.1" in warning
    for address in reachable_addresses("0.0.0.0"):
        assert f"http://{address}:{port}/" in warning


def test_the_warning_lists_the_addresses_as_urls() -> None:
    text = network_warning("192.0.2.7", 2048, ["192.0.2.7", "2001:db8::7"])
    assert "listening on 192.0.2.7" in text
    assert "http://192.0.2.7:2048/, http://[2001:db8::7]:2048/" in text
    assert "this machine's network addresses" in network_warning("::", 80, [])


def test_reachable_addresses_leave_out_loopback_and_link_local() -> None:
    assert reachable_addresses("192.0.2.7") == ["192.0.2.7"]
    for address in reachable_addresses("::"):
        assert not address.startswith(("127.", "::1", "fe80"))


# --- request heads that never end --------------------------------------------------------------


class QuickHeadTimeout(HeadTimeoutProtocol):
    head_timeout_s = 0.5


@pytest.fixture(scope="module")
def timed_url() -> Iterator[str]:
    """The app served as 2048 serve serves it, with a head deadline of half a second."""
    config = server_config(create_app())
    config.http = QuickHeadTimeout
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=10)
    listener.close()


def seconds_until_closed(url: str, sent: bytes) -> float:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(sent)
        while sock.recv(65536):
            pass
        return time.monotonic() - started


@pytest.mark.parametrize(
    "sent",
    [b"", b"GET / HTTP/1.1\r\nHost: 127.0.0.1", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b\r\n"],
    ids=["nothing", "half a header", "headers without their end"],
)
def test_a_connection_whose_request_head_does_not_arrive_is_closed(
    timed_url: str, sent: bytes
) -> None:
    assert 0.4 < seconds_until_closed(timed_url, sent) < 3


def test_a_slow_head_on_a_kept_alive_connection_is_closed_too(timed_url: str) -> None:
    host, port = timed_url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        time.sleep(0.3)  # inside uvicorn's keep-alive time
        started = time.monotonic()
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        while sock.recv(65536):
            pass
        assert time.monotonic() - started < 3


def test_requests_that_arrive_in_time_are_answered_on_one_connection(timed_url: str) -> None:
    with httpx.Client(base_url=timed_url) as client:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
            time.sleep(0.3)


def test_2048_serve_gives_request_heads_a_few_seconds() -> None:
    assert server_config(create_app()).http is HeadTimeoutProtocol
    assert 1 <= HEAD_TIMEOUT_S <= 10


# --- the size of a request head ----------------------------------------------------------------


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def head(url: str, extra: int, path: str = "/healthz") -> bytes:
    """A GET whose head holds an ``extra``-byte header value (head not yet ended)."""
    host, port = address(url)
    return f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nX-Big: ".encode() + b"a" * extra


def answer(sock: socket.socket) -> bytes:
    reply = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            reply += chunk
    return reply


def test_a_request_head_over_the_limit_gets_431_and_the_connection_closes(timed_url: str) -> None:
    with socket.create_connection(address(timed_url), timeout=10) as sock:
        sock.sendall(head(timed_url, MAX_HEAD_BYTES) + b"\r\n\r\n")
        reply = answer(sock)
    assert reply.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert b"connection: close" in reply.lower()
    body = json.loads(reply.partition(b"\r\n\r\n")[2])
    assert body == {
        "detail": f"the request's line and headers are larger than the limit of "
        f"{MAX_HEAD_BYTES} bytes"
    }


def test_a_huge_header_sent_in_pieces_is_cut_off_as_its_bytes_arrive(timed_url: str) -> None:
    """The probe's attack: a 64 MB header value in 64 KiB pieces. The server answers after
    about the limit's worth, instead of taking in (and copying, piece by piece) all of it."""
    piece = b"a" * 65536
    sent = 0
    reply = b""
    with socket.create_connection(address(timed_url), timeout=10) as sock:
        sock.sendall(head(timed_url, 0))
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < 64 * 1024 * 1024 and not reply:
                sock.sendall(piece)
                sent += len(piece)
                with contextlib.suppress(BlockingIOError):
                    reply = sock.recv(65536, socket.MSG_DONTWAIT)
        reply += answer(sock)
    assert reply.startswith(b"HTTP/1.1 431")
    assert sent < 8 * 1024 * 1024  # answered long before the 64 MB were sent


def test_a_head_just_under_the_limit_is_answered(timed_url: str) -> None:
    request = head(timed_url, MAX_HEAD_BYTES - 1024) + b"\r\nConnection: close\r\n\r\n"
    assert len(request) < MAX_HEAD_BYTES
    with socket.create_connection(address(timed_url), timeout=10) as sock:
        sock.sendall(request)
        assert answer(sock).startswith(b"HTTP/1.1 200")


def test_bodies_do_not_count_toward_the_head_limit(timed_url: str) -> None:
    """A body far larger than the head limit, sent with its head in one piece, and two such
    requests pipelined on one connection: all answered."""
    host, port = address(timed_url)
    game = Game.replay(7, "LDRD" * 30)
    state = game.to_dict()
    body = json.dumps({"state": state}) + " " * 200_000
    request = (
        f"POST /api/check HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json"
        f"\r\nContent-Length: {len(body)}\r\n\r\n{body}"
    ).encode()
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(request + request.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1))
        reply = answer(sock)
    assert reply.count(b"HTTP/1.1 200 OK") == 2, reply[:300]


def test_under_h11_the_head_limit_is_the_same() -> None:
    assert server_config(create_app()).h11_max_incomplete_event_size == MAX_HEAD_BYTES


# --- security headers --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/docs", "/docs/oauth2-redirect"])
def test_the_docs_have_the_security_headers_of_every_page(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert response.status_code == 200
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    scripts = re.findall(r"'sha256-[A-Za-z0-9+/=]+'", policy)
    assert scripts and "unsafe-inline" not in policy.split("script-src")[1]


def test_a_client_that_floods_after_its_431_is_cut_off_early(timed_url: str) -> None:
    """After the 431 the server drops what still comes for a second, so the answer is not lost
    to a reset; a client that keeps sending at full speed is cut off after about a megabyte
    instead of being read (and dropped) for the whole second."""
    piece = b"a" * 65536
    with socket.create_connection(address(timed_url), timeout=10) as sock:
        sock.sendall(head(timed_url, MAX_HEAD_BYTES))
        started = time.monotonic()
        sent = 0
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while time.monotonic() - started < 5:
                sock.sendall(piece)
                sent += len(piece)
    assert sent < 64 * 1024 * 1024
    assert time.monotonic() - started < LINGER_S
