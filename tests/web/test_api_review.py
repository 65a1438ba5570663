"""The review, replay and undo API over real HTTP: the same review as py2048.solver.review,
errors naming the move, progress as it goes, cancelled when the client leaves."""

from __future__ import annotations

import gc
import json
import logging
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from py2048 import Game
from py2048.engine.save import MAX_MOVES
from py2048.engine.size import BoardSize
from py2048.solver import review
from py2048.solver.grades import ReviewCancelled
from py2048.solver.reviewer import Grader
from py2048.web import create_app
from py2048.web import reviews as reviews_module
from py2048.web.limits import MAX_BODY_BYTES
from py2048.web.reviews import ReviewService
from tests.web.conftest import LiveServer

HISTORY = "LDLDRDLRDLULDRDLLDDRDLURDLDD"
"""A real game of seed 11: every letter moves the board."""


def letters(game: Game) -> str:
    return "".join(d.letter for d in game.history)


@pytest.fixture(scope="module")
def long_game() -> Game:
    """More than 5,000 moves played by the search at d1 (the quick review's own moves)."""
    grader = Grader(1)
    game = Game(seed=5)
    while game.moves < 5200:
        game.move(grader.best(game))
    return game


def test_the_review_is_py2048_solver_review(http: httpx.Client) -> None:
    assert letters(Game.replay(11, HISTORY)) == HISTORY
    response = http.post("/api/review", json={"seed": 11, "history": HISTORY})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["review"] == json.loads(json.dumps(review(11, HISTORY).to_dict()))
    assert answer["state"] == Game.replay(11, HISTORY).to_dict()
    assert "practice" not in answer["state"]


def test_a_practice_game_is_reviewed_and_its_state_stays_practice(http: httpx.Client) -> None:
    body = {"seed": 11, "history": HISTORY, "practice": True, "setting": "quick"}
    answer = http.post("/api/review", json=body).json()
    assert answer["state"]["practice"] is True
    assert answer["review"]["setting"] == {"name": "quick", "depth": 1}
    expected = review(11, HISTORY, setting="quick").to_dict()
    assert answer["review"] == json.loads(json.dumps(expected))


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({"seed": -1, "history": "L"}, 422, "seed"),
        ({"seed": 2**53, "history": "L"}, 422, "seed"),
        ({"seed": "8", "history": "L"}, 422, "seed"),
        ({"seed": 8, "history": "UXL"}, 422, "history: move 2 is 'X', not a move"),
        ({"seed": 8, "history": "ul"}, 422, "history: move 1 is 'u', not a move"),
        ({"seed": 8, "history": "L"}, 422, "history: move 1 (left) changes nothing"),
        ({"seed": 8, "history": "DL"}, 422, "history: move 2 (left) changes nothing"),
        ({"seed": 8, "history": "U", "setting": "slow"}, 422, "setting"),
        ({"seed": 8}, 422, "history: Field required"),
        ({"seed": 8, "history": "U", "depth": 2}, 422, "depth"),
        ({"seed": 8, "history": ["U"]}, 422, "history"),
    ],
)
def test_a_bad_game_is_refused_naming_the_field_and_the_move(
    http: httpx.Client, body: dict, status: int, detail: str
) -> None:
    for path in ("/api/review", "/api/review/stream", "/api/replay"):
        if path == "/api/replay" and "setting" in body:
            continue
        response = http.post(path, json=body)
        assert response.status_code == status, (path, response.text)
        assert detail in response.json()["detail"], (path, response.text)


def test_a_5000_move_game_fits_the_limits_and_is_reviewed(
    http: httpx.Client, long_game: Game
) -> None:
    body = json.dumps({"seed": long_game.seed, "history": letters(long_game), "setting": "quick"})
    assert len(body) < MAX_BODY_BYTES
    response = http.post(
        "/api/review", content=body, headers={"Content-Type": "application/json"}, timeout=60
    )
    assert response.status_code == 200, response.text[:300]
    graded = response.json()["review"]
    assert len(graded["moves"]) == long_game.moves > 5000
    assert graded["accuracy"] == 100.0
    assert response.json()["state"] == long_game.to_dict()


def test_the_longest_history_a_save_holds_fits_and_is_checked(http: httpx.Client) -> None:
    response = http.post("/api/review", json={"seed": 8, "history": "U" + "L" * (MAX_MOVES - 1)})
    assert response.status_code == 422
    assert "move 5 (left) changes nothing" in response.json()["detail"]
    too_long = http.post("/api/review", json={"seed": 8, "history": "U" * (MAX_MOVES + 1)})
    assert too_long.status_code == 422 and "history" in too_long.json()["detail"]


def stream_lines(response: httpx.Response) -> Iterator[dict]:
    for line in response.iter_lines():
        if line:
            yield json.loads(line)


def test_the_stream_reports_progress_then_the_same_review(
    http: httpx.Client, long_game: Game
) -> None:
    body = {"seed": long_game.seed, "history": letters(long_game)[:3000]}
    with http.stream("POST", "/api/review/stream", json=body, timeout=60) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        lines = list(stream_lines(response))
    progress = [line["progress"] for line in lines[:-1]]
    assert progress[0] == {"graded": 0, "total": 3000}
    assert progress[-1] == {"graded": 3000, "total": 3000}
    assert len(progress) >= 3  # the search reports about every 0.1 s
    graded = [p["graded"] for p in progress]
    assert graded == sorted(graded)
    assert lines[-1] == http.post("/api/review", json=body, timeout=60).json()


def test_a_review_whose_client_leaves_stops_and_frees_the_worker(
    long_game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    service = ReviewService(waiting=0)
    body = {"seed": long_game.seed, "history": letters(long_game), "setting": "deep"}
    with (
        LiveServer(create_app(reviews=service)) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        with client.stream("POST", "/api/review/stream", json=body) as response:
            first = next(stream_lines(response))
            assert first["progress"]["graded"] == 0
        # The deep review of 5,200 moves takes seconds; once the stream closed it stops, and
        # the one worker takes the next review instead of answering 429.
        started = time.monotonic()
        while True:
            answer = client.post("/api/review", json={"seed": 11, "history": HISTORY})
            if answer.status_code != 429:
                break
            assert time.monotonic() - started < 3, "the cancelled review still holds the worker"
            time.sleep(0.05)
        assert answer.status_code == 200
    # Its end (ReviewCancelled, on the worker) is nobody's error: nothing logs it, not even
    # asyncio for a future whose exception no one retrieved.
    gc.collect()
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


class Records(logging.Handler):
    """What uvicorn logs as warnings and errors (its loggers do not reach pytest's caplog)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_a_plain_review_whose_client_leaves_stops_and_frees_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/api/review (not the stream) stops as soon as its client leaves, even while the search
    reports progress more often than every quarter of a second, and nothing logs an error."""
    ended = threading.Event()

    def endless_review(
        seed: int, history: str, setting: str, practice: bool, progress, size: BoardSize
    ) -> dict:
        try:
            for graded in range(1000):  # 20 s of reports, unless it is stopped
                progress(graded, 1000)
                time.sleep(0.02)
        except ReviewCancelled:
            ended.set()
            raise
        return {}

    service = ReviewService(waiting=0)
    with (
        LiveServer(create_app(reviews=service)) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        records = Records()
        logging.getLogger("uvicorn.error").addHandler(records)  # uvicorn set its loggers up
        monkeypatch.setattr(reviews_module, "run_review", endless_review)
        try:
            with pytest.raises(httpx.ReadTimeout):  # the client gives up, closing the connection
                client.post("/api/review", json={"seed": 11, "history": HISTORY}, timeout=0.5)
            assert ended.wait(timeout=5), "the abandoned review still runs"
            monkeypatch.undo()
            answer = client.post("/api/review", json={"seed": 11, "history": HISTORY})
            assert answer.status_code == 200  # the one worker is free again
            time.sleep(0.2)  # the abandoned request's handler has ended
        finally:
            logging.getLogger("uvicorn.error").removeHandler(records)
    gc.collect()
    assert records.messages == []


def test_reviews_beyond_the_waiting_room_get_429(long_game: Game) -> None:
    service = ReviewService(waiting=0)
    long_body = {"seed": long_game.seed, "history": letters(long_game), "setting": "deep"}
    with (
        LiveServer(create_app(reviews=service)) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
        client.stream("POST", "/api/review/stream", json=long_body) as response,
    ):
        next(stream_lines(response))
        busy = client.post("/api/review", json={"seed": 11, "history": HISTORY})
        assert busy.status_code == 429
        assert "try again" in busy.json()["detail"]


def test_replay_gives_the_game_after_its_moves(http: httpx.Client) -> None:
    answer = http.post("/api/replay", json={"seed": 11, "history": HISTORY})
    assert answer.status_code == 200
    assert answer.json() == {"state": Game.replay(11, HISTORY).to_dict()}
    practice = http.post("/api/replay", json={"seed": 11, "history": HISTORY, "practice": True})
    assert practice.json()["state"]["practice"] is True


def test_undo_takes_back_moves_and_marks_the_game_practice(http: httpx.Client) -> None:
    state = Game.replay(11, HISTORY).to_dict()
    one = http.post("/api/undo", json={"state": state})
    assert one.status_code == 200, one.text
    assert one.json()["state"] == Game.replay(11, HISTORY[:-1], practice=True).to_dict()
    three = http.post("/api/undo", json={"state": one.json()["state"], "steps": 3})
    assert three.json()["state"] == Game.replay(11, HISTORY[:-4], practice=True).to_dict()
    # A practice game plays on as one: the next move's state keeps the mark.
    moved = http.post("/api/move", json={"state": three.json()["state"], "direction": "down"})
    assert moved.json()["state"]["practice"] is True


@pytest.mark.parametrize(
    ("state", "steps", "detail"),
    [
        (Game(seed=11).to_dict(), 1, "no move to undo"),
        (Game.replay(11, "LD").to_dict(), 3, "only 2 moves"),
        (
            Game.replay(11, "LD").to_dict() | {"board": [[2, 0, 0, 0]] + [[0, 0, 0, 4]] * 3},
            1,
            "set up from a board",
        ),
    ],
)
def test_undo_refuses_what_it_cannot_take_back(
    http: httpx.Client, state: dict, steps: int, detail: str
) -> None:
    response = http.post("/api/undo", json={"state": state, "steps": steps})
    assert response.status_code == 400, response.text
    assert response.json()["detail"].startswith("state.history: ")
    assert detail in response.json()["detail"]


def at_the_cap() -> dict:
    """A valid save at the move cap (a board that allows it, 262,144 letters): undo replays
    them all, about a second, before it finds that they do not rebuild the board."""
    board = [[131072] * 4, [131072] * 4, [2, 4, 8, 16], [0, 0, 0, 0]]
    return Game.from_board(board, seed=1).to_dict() | {
        "moves": MAX_MOVES,
        "history": "L" * MAX_MOVES,
    }


def test_undo_at_the_move_cap_is_replayed_off_the_event_loop(
    server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an undo replays a whole save at the cap, the server answers everyone else."""
    undo = Game.undo
    started, finished = threading.Event(), threading.Event()
    threads: list[str] = []

    def watched(game: Game, steps: int = 1) -> None:
        threads.append(threading.current_thread().name)
        started.set()
        try:
            undo(game, steps)
        finally:
            finished.set()

    monkeypatch.setattr(Game, "undo", watched)
    answers: list[httpx.Response] = []

    def ask() -> None:
        with httpx.Client(base_url=server_url, timeout=60) as client:
            answers.append(client.post("/api/undo", json={"state": at_the_cap()}))

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        assert started.wait(timeout=30)
        with httpx.Client(base_url=server_url, timeout=60) as client:
            health = client.get("/healthz")
        answered_during_the_replay = not finished.is_set()
    finally:
        asker.join(timeout=60)
    assert health.status_code == 200
    assert threads and threads[0].startswith("py2048-replay")
    assert answered_during_the_replay, "/healthz waited for the replay"
    assert answers[0].status_code == 400
    assert "set up from a board" in answers[0].json()["detail"]


def test_replay_runs_off_the_event_loop(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    replay = Game.replay.__func__  # type: ignore[attr-defined]
    threads: list[str] = []

    def watched(cls: type[Game], *args: object, **kwargs: object) -> Game:
        threads.append(threading.current_thread().name)
        return replay(cls, *args, **kwargs)

    monkeypatch.setattr(Game, "replay", classmethod(watched))
    answer = http.post("/api/replay", json={"seed": 11, "history": HISTORY})
    assert answer.status_code == 200
    assert threads and threads[0].startswith("py2048-replay")


def test_replays_beyond_the_waiting_room_get_429(
    server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    undo = Game.undo

    def held(game: Game, steps: int = 1) -> None:
        release.wait(timeout=30)
        undo(game, steps)

    monkeypatch.setattr(Game, "undo", held)
    state = Game.replay(11, HISTORY).to_dict()
    answers: list[int] = []

    def ask() -> None:
        with httpx.Client(base_url=server_url, timeout=60) as client:
            answers.append(client.post("/api/undo", json={"state": state}).status_code)

    askers = [threading.Thread(target=ask) for _ in range(12)]
    for asker in askers:
        asker.start()
    try:
        deadline = time.monotonic() + 30
        while 429 not in answers and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        release.set()
        for asker in askers:
            asker.join(timeout=60)
    assert sorted(set(answers)) == [200, 429]  # one running and eight waiting get answered


def test_undo_checks_steps(http: httpx.Client) -> None:
    state = Game.replay(11, HISTORY).to_dict()
    for steps in (0, -1, "1", True, 1.5):
        response = http.post("/api/undo", json={"state": state, "steps": steps})
        assert response.status_code == 422 and "steps" in response.json()["detail"]


def test_games_without_undo_are_answered_exactly_as_saved(http: httpx.Client) -> None:
    state = Game.replay(11, HISTORY).to_dict()
    for path, body in (
        ("/api/check", {"state": state}),
        ("/api/move", {"state": state, "direction": "down"}),
        ("/api/new", {"seed": 3}),
    ):
        assert "practice" not in http.post(path, json=body).json()["state"]
    practice = state | {"practice": True}
    assert http.post("/api/check", json={"state": practice}).json()["state"] == practice
    wrong = http.post("/api/check", json={"state": state | {"practice": 1}})
    assert wrong.status_code == 422 and "state.practice" in wrong.json()["detail"]
