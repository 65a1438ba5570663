"""Hints run off the event loop: a search in progress never holds up anyone's moves, and a
flood of hints is bounded instead of queued without end.

The solver is replaced here by a search that blocks until the test releases it, so "while a
hint is being searched" is a fact of the test, not a matter of timing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import httpx
import pytest

from py2048 import Game
from py2048.engine.size import BoardSize
from py2048.web import create_app, hints
from py2048.web.hints import HintResult, HintService
from tests.web.conftest import LiveServer

STATE = Game(seed=9).to_dict()
WAIT_S = 10.0


class BlockingSearch:
    """A stand-in search that reports when it starts and finishes only when released."""

    def __init__(self) -> None:
        self.started = threading.Semaphore(0)
        self.release = threading.Event()

    def __call__(self, board: list[list[int]], preset: str, size: BoardSize) -> HintResult:
        self.started.release()
        self.release.wait(WAIT_S)
        return HintResult("left", {"left": 1.0, "up": 0.5}, 2, 3.0)


@pytest.fixture
def blocking(monkeypatch: pytest.MonkeyPatch) -> Iterator[BlockingSearch]:
    search = BlockingSearch()
    monkeypatch.setattr(hints, "search", search)
    yield search
    search.release.set()


@pytest.fixture(scope="module")
def one_hint_url() -> Iterator[str]:
    """A server that searches one hint at a time and lets none wait."""
    with LiveServer(create_app(hints=HintService(workers=1, waiting=0))) as server:
        yield server.url


def ask_hint(url: str) -> httpx.Response:
    return httpx.post(f"{url}/api/hint", json={"state": STATE, "preset": "strong"}, timeout=WAIT_S)


def test_moves_are_answered_while_a_hint_is_being_searched(
    one_hint_url: str, blocking: BlockingSearch
) -> None:
    with ThreadPoolExecutor(1) as pool:
        pending: Future[httpx.Response] = pool.submit(ask_hint, one_hint_url)
        assert blocking.started.acquire(timeout=WAIT_S)
        for direction in ("up", "right", "down", "left"):
            moved = httpx.post(
                f"{one_hint_url}/api/move", json={"state": STATE, "direction": direction}
            )
            assert moved.status_code == 200
        assert not pending.done()
        blocking.release.set()
        hint = pending.result(timeout=WAIT_S)
    assert hint.status_code == 200
    assert hint.json() == {
        "direction": "left",
        "values": {"left": 1.0, "up": 0.5},
        "depth": 2,
        "elapsed_ms": 3.0,
        "source": "search",
        "table_target": None,
        "grades": {"left": "best", "up": "blunder"},
        "evaluator": "ntuple-snake",
    }


def test_a_hint_beyond_capacity_is_refused_with_429_not_queued(
    one_hint_url: str, blocking: BlockingSearch
) -> None:
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(ask_hint, one_hint_url)
        assert blocking.started.acquire(timeout=WAIT_S)
        refused = ask_hint(one_hint_url)
        assert refused.status_code == 429
        assert "try again" in refused.json()["detail"]
        blocking.release.set()
        assert pending.result(timeout=WAIT_S).status_code == 200
    assert ask_hint(one_hint_url).status_code == 200


def test_hints_wait_their_turn_up_to_the_waiting_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    service = HintService(workers=1, waiting=2)
    with LiveServer(create_app(hints=service)) as server, ThreadPoolExecutor(3) as pool:
        blocking = BlockingSearch()  # installed once the server (and its solver warm-up) started
        monkeypatch.setattr(hints, "search", blocking)
        try:
            first = pool.submit(ask_hint, server.url)
            assert blocking.started.acquire(timeout=WAIT_S)
            waiting = [pool.submit(ask_hint, server.url) for _ in range(2)]
            deadline = time.monotonic() + WAIT_S
            while service.pending < 3 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not any(f.done() for f in waiting)
            refused = ask_hint(server.url)
        finally:
            blocking.release.set()
        assert refused.status_code == 429
        assert [f.result(timeout=WAIT_S).status_code for f in [first, *waiting]] == [200] * 3


def test_an_endgame_tables_answer_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page words a table's answer (chances of a tile) apart from the search's (points)."""
    import py2048.solver
    from py2048.engine import Direction
    from py2048.web.hints import search

    answer = py2048.solver.Hint(
        Direction.LEFT, {Direction.LEFT: 0.9}, 0, 0.1, 0, "ntuple", "table", "snake8-256", 256
    )
    monkeypatch.setattr(py2048.solver, "best_move", lambda board, preset: answer)
    advice = search([[0] * 4] * 4, "fast")
    assert (advice.direction, advice.values) == ("left", {"left": 0.9})
    assert (advice.source, advice.table_target) == ("table", 256)


def test_a_perfect_play_answer_goes_through_as_perfect(monkeypatch: pytest.MonkeyPatch) -> None:
    """On 3x3 the solved game may answer: the page says "perfect play" for that source."""
    import py2048.solver
    from py2048.engine import Direction
    from py2048.web.hints import search

    answer = py2048.solver.Hint(
        Direction.UP, {Direction.UP: 812.5, Direction.LEFT: 790.0}, 0, 0.1, 0, "", "perfect"
    )
    monkeypatch.setattr(py2048.solver, "best_move", lambda board, preset: answer)
    advice = search([[2, 0, 0], [0, 0, 0], [0, 0, 2]], "fast", BoardSize(3, 3))
    assert (advice.direction, advice.source) == ("up", "perfect")
    assert advice.grades["up"] == "best"


def test_a_size_the_solver_refuses_is_a_clear_422_naming_the_size(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Until the solver advises on a size, the page gets a 4xx it can word, not a failure."""
    import py2048.solver

    def four_by_four_only(board: list[list[int]], preset: str) -> object:
        raise ValueError("board must have 4 rows")

    monkeypatch.setattr(py2048.solver, "best_move", four_by_four_only)
    state = Game(seed=3, size=(5, 5)).to_dict()
    response = http.post("/api/hint", json={"state": state})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail.startswith("state.size: ") and "5x5" in detail
    with pytest.raises(ValueError, match="4 rows"):  # on 4x4 the same error is the solver's
        hints.search(Game(seed=3).board, "fast")
