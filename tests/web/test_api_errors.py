"""Untrusted input gets a 4xx whose message names the culprit: never a 500, never a hang."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from py2048 import Game
from py2048.engine.save import MAX_MOVES
from py2048.web import create_app
from py2048.web.limits import MAX_BODY_BYTES, BodyLimitMiddleware
from tests.web.conftest import LiveServer

STATE = Game(seed=1).to_dict()
JSON = {"content-type": "application/json"}


def with_state(**changes: Any) -> dict[str, Any]:
    return {"state": {**STATE, **changes}, "direction": "up"}


def with_tile(row: int, col: int, value: Any) -> dict[str, Any]:
    board = [list(r) for r in STATE["board"]]
    board[row][col] = value
    return with_state(board=board)


def without(field: str) -> dict[str, Any]:
    return {"state": {k: v for k, v in STATE.items() if k != field}, "direction": "up"}


def assert_clear_error(response: httpx.Response, status: int, *fragments: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["detail"] and isinstance(body["detail"], str)
    for fragment in fragments:
        assert fragment in body["detail"]


MALFORMED = {
    "truncated": b'{"state": ',
    "single quotes": b"{'state': 1}",
    "trailing comma": b'{"direction": "up",}',
    "not utf-8": b'{"direction": "\xff\xfe"}',
    "utf-16": '{"seed": 1}'.encode("utf-16"),
    "number with 5000 digits": b'{"seed": ' + b"9" * 5000 + b"}",
}


@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_json_is_400(http: httpx.Client, body: bytes) -> None:
    for path in ("/api/new", "/api/move", "/api/hint", "/api/keep-going"):
        assert_clear_error(http.post(path, content=body, headers=JSON), 400, "not valid JSON")


def nested_lists(size: int) -> bytes:
    """The probe's attack: a body of many small nested lists, about ``size`` bytes."""
    unit = b"[[[[[[[[[[[]]]]]]]]]]]"
    return b'{"seed": 1, "x": [' + b",".join([unit] * (size // (len(unit) + 1))) + b"]}"


SHAPELESS = {
    "nested too deep": (b"[" * 100_000 + b"]" * 100_000, "lists and objects"),
    "many nested lists": (nested_lists(MAX_BODY_BYTES - 100), "lists and objects"),
    "many items": (b'{"seed": [' + b"1," * 100_000 + b"1]}", "items"),
    "many keys": (b"{" + b",".join(b'"k%d": 1' % i for i in range(5000)) + b"}", "items"),
}


@pytest.mark.parametrize(("body", "fragment"), SHAPELESS.values(), ids=SHAPELESS.keys())
def test_a_body_shaped_like_no_request_is_400_before_it_is_parsed(
    http: httpx.Client, body: bytes, fragment: str
) -> None:
    assert len(body) <= MAX_BODY_BYTES
    for path in ("/api/new", "/api/move", "/api/check", "/api/hint"):
        assert_clear_error(http.post(path, content=body, headers=JSON), 400, fragment)


def asgi_seconds(app: Any, body: bytes) -> float:
    """The CPU time one POST /api/new of ``body`` takes through the whole app (no sockets)."""

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/new",
        "raw_path": b"/api/new",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1:2048"),
            *[(k.encode(), v.encode()) for k, v in JSON.items()],
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 2048),
    }
    started = time.process_time()
    asyncio.run(app(scope, receive, send))
    return time.process_time() - started


def test_the_nested_lists_attack_costs_the_server_milliseconds_not_a_stall() -> None:
    # It cost 280-415 ms of event-loop time when the body was parsed first (garbage collection).
    app = create_app()
    body = nested_lists(MAX_BODY_BYTES - 100)
    assert min(asgi_seconds(app, body) for _ in range(5)) < 0.02


def test_the_longest_game_fits_the_body_limit_and_the_limit_is_not_much_more() -> None:
    board = [[131072, 131072, 131072, 131072], [131072] * 4, [65536] * 4, [65536, 65536, 65536, 0]]
    state = Game.from_board(board, score=0, seed=2**53 - 1).to_dict()
    state |= {"moves": MAX_MOVES, "history": "L" * MAX_MOVES, "score": 10**7}
    largest = json.dumps({"state": state, "preset": "balanced"}, indent=4).encode()
    assert len(largest) < MAX_BODY_BYTES < 1.2 * len(largest)


def test_the_largest_request_passes_the_shape_limits(http: httpx.Client) -> None:
    board = [[131072, 131072, 131072, 131072], [65536, 0, 0, 0], [0] * 4, [0] * 4]
    state = Game.from_board(board, seed=1).to_dict()
    state |= {"moves": MAX_MOVES, "history": "L" * MAX_MOVES}
    body = json.dumps({"state": state, "direction": "up"}, indent=4)
    assert http.post("/api/check", content=body, headers=JSON).status_code == 422  # direction
    assert http.post("/api/move", content=body, headers=JSON).json()["moved"] is False


BAD_MOVES: dict[str, tuple[Any, str]] = {
    "body is a list": ([1, 2], "request body"),
    "body is null": (None, "request body"),
    "state missing": ({"direction": "up"}, "state: Field required"),
    "direction missing": ({"state": STATE}, "direction: Field required"),
    "unknown direction": ({"state": STATE, "direction": "north"}, "direction"),
    "direction as a number": ({"state": STATE, "direction": 0}, "direction"),
    "unknown request field": ({"state": STATE, "direction": "up", "speed": 2}, "speed"),
    "state is a string": ({"state": "save", "direction": "up"}, "state"),
    "score missing": (without("score"), "state.score"),
    "history missing": (without("history"), "state.history"),
    "unknown state field": (with_state(cheat=True), "state.cheat"),
    "foreign format": (with_state(format="other-2048"), "state.format"),
    "future version": (with_state(version=2), "state.version"),
    "board not a list": (with_state(board="2,2,0,0"), "state.board"),
    "board of 3 rows": (with_state(board=STATE["board"][:3]), "state.board"),
    "row of 5 tiles": (with_state(board=[[0] * 5] * 4), "state.board[0]"),
    "tile 3": (with_tile(2, 1, 3), "state.board[2][1]"),
    "tile -2": (with_tile(2, 1, -2), "state.board[2][1]"),
    "tile 262144": (with_tile(0, 0, 262144), "state.board[0][0]"),
    "tile as text": (with_tile(0, 0, "2"), "state.board[0][0]"),
    "tile with a fraction": (with_tile(0, 0, 2.5), "state.board[0][0]"),
    "an empty board": (with_state(board=[[0] * 4] * 4), "state.board: holds 0 tiles"),
    "one tile": (with_state(board=[[0, 0, 0, 0], [0, 4, 0, 0], *[[0] * 4] * 2]), "state.board"),
    "more moves than the tiles allow": (with_state(moves=3, history="LRU"), "state.moves"),
    "negative score": (with_state(score=-4), "state.score"),
    "absurd score": (with_state(score=10**30), "state.score"),
    "score more than the tiles allow": (with_state(score=1000), "state.score"),
    "score as text": (with_state(score="0"), "state.score"),
    "score as boolean": (with_state(score=False), "state.score"),
    "negative seed": (with_state(seed=-1), "state.seed"),
    "seed too large": (with_state(seed=2**53), "state.seed"),
    "moves disagree with history": (with_state(moves=5), "state.history"),
    "history with other letters": (with_state(history="X", moves=1), "state.history"),
    "won without a 2048": (with_state(won=True), "state.won"),
    "keep going without a win": (with_state(keep_going=True), "state.keep_going"),
    "over with moves left": (with_state(over=True), "state.over"),
    "won as a number": (with_state(won=0), "state.won"),
}


@pytest.mark.parametrize(("body", "field"), BAD_MOVES.values(), ids=BAD_MOVES.keys())
def test_bad_move_requests_are_422_naming_the_field(
    http: httpx.Client, body: Any, field: str
) -> None:
    response = http.post("/api/move", content=json.dumps(body), headers=JSON)
    assert_clear_error(response, 422, field)


@pytest.mark.parametrize(
    ("path", "body", "fragment"),
    [
        ("/api/new", {"seed": -1}, "seed"),
        ("/api/new", {"seed": "42"}, "seed"),
        ("/api/new", {"seed": 2**53}, "seed"),
        ("/api/new", {"seed": 1, "size": 5}, "size"),
        ("/api/hint", {"state": STATE, "preset": "ultra"}, "preset"),
        ("/api/hint", with_state(score=-1), "state.score"),
        ("/api/keep-going", {"state": {**STATE, "won": True}}, "state.won"),
    ],
)
def test_bad_requests_elsewhere_are_422(
    http: httpx.Client, path: str, body: Any, fragment: str
) -> None:
    assert_clear_error(http.post(path, json=body), 422, fragment)


def test_a_game_at_the_move_cap_gets_400_saying_why_and_no_server_error(
    http: httpx.Client,
) -> None:
    # Tiles that allow the cap (they add up to 589824) and a board that can still move.
    board = [[131072, 131072, 131072, 131072], [65536, 0, 0, 0], [0] * 4, [0] * 4]
    state = Game.from_board(board, seed=1).to_dict()
    state |= {"moves": MAX_MOVES, "history": "L" * MAX_MOVES}
    assert http.post("/api/check", json={"state": state}).status_code == 200
    response = http.post("/api/move", json={"state": state, "direction": "down"})
    assert_clear_error(response, 400, "state.moves", f"{MAX_MOVES} moves")
    assert http.post("/api/move", json={"state": state, "direction": "up"}).json()["moved"] is False


def test_keep_going_before_winning_is_400(http: httpx.Client) -> None:
    assert_clear_error(http.post("/api/keep-going", json={"state": STATE}), 400, "won")


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "text/plain; charset=utf-8"],
)
def test_a_body_not_sent_as_json_is_415_saying_how_to_send_it(
    http: httpx.Client, content_type: str
) -> None:
    body = json.dumps({"seed": 1})  # valid JSON, but declared as something else
    response = http.post("/api/new", content=body, headers={"content-type": content_type})
    assert_clear_error(response, 415, "Content-Type: application/json", content_type.split(";")[0])


@pytest.mark.parametrize(
    ("headers", "fragment"),
    [
        ({}, "no Content-Type"),
        ({"content-type": ""}, "not an empty Content-Type"),
        ({"content-type": "application/json; charset=utf-16"}, "UTF-8"),
        ({"content-type": "application/json; charset=latin-1"}, "UTF-8"),
    ],
    ids=["missing", "empty", "utf-16", "latin-1"],
)
def test_a_body_without_a_json_content_type_in_utf_8_is_415(
    server_url: str, headers: dict[str, str], fragment: str
) -> None:
    body = json.dumps({"seed": 1}).encode()
    request = httpx.Request("POST", f"{server_url}/api/new", content=body, headers=headers)
    request.headers.pop("content-type", None)  # httpx adds none for bytes; be sure
    request.headers.update(headers)
    with httpx.Client() as client:
        assert_clear_error(client.send(request), 415, fragment)


def test_the_server_doc_and_the_api_docs_name_the_json_types_that_are_read(
    http: httpx.Client,
) -> None:
    """The server reads application/*+json too: what the docs say a body may be sent as."""
    server_doc = " ".join((Path(__file__).parents[2] / "docs" / "server.md").read_text().split())
    assert "`Content-Type: application/json` (or any `application/*+json` type" in server_doc
    described = " ".join(http.get("/openapi.json").json()["info"]["description"].split())
    assert "application/json, or any application/*+json type" in described
    refused = http.post("/api/new", content="{}", headers={"content-type": "text/plain"})
    assert "application/*+json" in refused.json()["detail"]


def test_json_types_with_a_utf_8_charset_are_read(http: httpx.Client) -> None:
    for content_type in ("application/json; charset=UTF-8", "application/vnd.api+json"):
        response = http.post(
            "/api/new", content='{"seed": 3}', headers={"content-type": content_type}
        )
        assert response.status_code == 200, content_type
    assert http.post("/api/new").status_code == 200, "no body needs no Content-Type"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"seed": 1, "seed": 2}', "seed"),
        ('{"state": STATE, "direction": "up", "direction": "down"}', "direction"),
        ('{"state": STATE_SCORE_TWICE, "direction": "up"}', "state.score"),
    ],
    ids=["top level", "a request field", "a save field"],
)
def test_a_key_given_twice_is_422_naming_it(http: httpx.Client, body: str, field: str) -> None:
    state = json.dumps(STATE)
    body = body.replace("STATE_SCORE_TWICE", state.replace('"score": 0', '"score": 0, "score": 8'))
    body = body.replace("STATE", state)
    path = "/api/new" if field == "seed" else "/api/move"
    response = http.post(path, content=body, headers=JSON)
    assert_clear_error(response, 422, f"{field}: given more than once")


@pytest.mark.parametrize("field", ["version", "score", "moves", "seed"])
def test_true_is_not_a_number_anywhere(http: httpx.Client, field: str) -> None:
    response = http.post("/api/check", json={"state": {**STATE, field: True}})
    assert_clear_error(response, 422, f"state.{field}")


def test_a_json_body_of_the_wrong_shape_is_still_422(http: httpx.Client) -> None:
    for content_type in ("application/json", "application/json; charset=utf-8"):
        response = http.post("/api/new", content="[]", headers={"content-type": content_type})
        assert_clear_error(response, 422, "request body")


def test_wrong_method_and_unknown_path_are_clear(http: httpx.Client) -> None:
    assert_clear_error(http.get("/api/move"), 405, "Method Not Allowed")
    assert_clear_error(http.post("/api/teleport", json={}), 404, "Not Found")


def test_a_declared_body_over_the_limit_is_413_without_being_read(server_url: str) -> None:
    """The server answers from the Content-Length alone, before the client sends the body."""
    host, port = server_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(
            f"POST /api/move HTTP/1.1\r\nHost: {host}:{port}\r\n".encode()
            + b"Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
        )
        reply = sock.recv(4096).decode()
    assert reply.startswith("HTTP/1.1 413")
    assert "larger than the limit" in reply


def test_a_body_over_the_limit_sent_whole_is_413(http: httpx.Client) -> None:
    response = http.post("/api/move", content=b" " * (2 * MAX_BODY_BYTES), headers=JSON)
    assert_clear_error(response, 413, "larger than the limit")


def test_a_streamed_body_over_the_limit_is_413(http: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 65536  # 2.5 MiB in all (over the limit), with no Content-Length

    try:
        response = http.post("/api/move", content=chunks(), headers=JSON)
    except httpx.WriteError:
        return  # the server answered and closed while the client was still sending
    assert_clear_error(response, 413, "larger than the limit")


def test_a_body_of_exactly_the_limit_is_read(http: httpx.Client) -> None:
    body = json.dumps({"state": STATE, "direction": "up"})
    padded = body + " " * (MAX_BODY_BYTES - len(body))
    assert len(padded) == MAX_BODY_BYTES
    assert http.post("/api/move", content=padded, headers=JSON).status_code == 200


def test_the_server_answers_normally_after_a_barrage_of_bad_requests(http: httpx.Client) -> None:
    for body in MALFORMED.values():
        http.post("/api/move", content=body, headers=JSON)
    for body, _ in BAD_MOVES.values():
        http.post("/api/move", content=json.dumps(body), headers=JSON)
    assert http.post("/api/move", json={"state": STATE, "direction": "up"}).status_code == 200


async def _echo_length(scope: Scope, receive: Receive, send: Send) -> None:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    reply = str(len(body)).encode()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": reply})


@pytest.fixture(scope="module")
def limited_url() -> Iterator[str]:
    """A server whose body limit is 1000 bytes and whose body timeout is half a second."""
    app = BodyLimitMiddleware(_echo_length, max_bytes=1000, timeout_s=0.5)
    with LiveServer(app) as server:
        yield server.url


def test_a_stalled_body_gets_408_in_time(limited_url: str) -> None:
    host, port = limited_url.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        reply = sock.recv(4096).decode()
    assert reply.startswith("HTTP/1.1 408")
    assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    ("size", "expected"), [(0, "0"), (1000, "1000"), (1001, None)], ids=["empty", "at", "over"]
)
def test_the_limit_counts_streamed_bytes(limited_url: str, size: int, expected: str | None) -> None:
    response = httpx.post(limited_url, content=iter([b"x" * size]))
    if expected is None:
        assert response.status_code == 413
    else:
        assert response.status_code == 200 and response.text == expected
