"""`2048 review` and the terminal game's review, practice mode and Undo."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import ProgressBar, Static
from textual.worker import WorkerState

from py2048.cli import main
from py2048.engine import Direction, Game
from py2048.solver import review
from py2048.tui.app import Py2048App
from py2048.tui.screens.dialogs import GameOverScreen
from py2048.tui.screens.game import GameScreen
from py2048.tui.screens.review import ReviewScreen
from py2048.tui.session import Session
from py2048.tui.storage import BEST_SCORE_FILE, GAME_FILE, Storage
from py2048.tui.widgets.scores import ScoreBox
from tests.tui.support import FirstLegalAdvisor, board_shown, game_screen, write_save

ORDER = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)
KEY_OF = {direction: str(direction) for direction in Direction}


def corner_game(seed: int, moves: int | None = None) -> Game:
    """A game played down, left, right, up first: to its end, or for ``moves`` moves."""
    game = Game(seed)
    while not game.over and (moves is None or game.moves < moves):
        legal = game.legal_moves()
        game.move(next(d for d in ORDER if d in legal))
    return game


def letters(game: Game) -> str:
    return "".join(d.letter for d in game.history)


# --- 2048 review ---------------------------------------------------------------------------------


def test_the_command_prints_the_summary_of_a_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: no text wraps beside the boards
    game = corner_game(4)
    path = write_save(tmp_path, game)
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    graded = review(game.seed, game.history)
    assert f"seed {game.seed} · {game.moves:,} moves · final score {game.score:,}" in out
    assert f"Accuracy {graded.accuracy:.1f}%" in out
    for grade, count in graded.counts.items():
        assert re.search(rf"{grade}\s+{count:,}\b", out), grade
    assert "Costliest moves" in out
    for move in graded.costliest:
        assert f"Move {move.number}: played" in out
        assert f"cost {round(move.loss):,} points" in out
    first = graded.costliest[0]
    values = [str(v) for v in first.board[0] if v]
    assert all(value in out for value in values)  # its small board
    named = [m.mistake for m in graded.costliest if m.mistake is not None]
    assert named and named[0].rule in out and named[0].link in out
    assert "Undo was used" not in out


def test_json_gives_every_moves_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = corner_game(4, 60)
    path = write_save(tmp_path, game)
    assert main(["review", str(path), "--json", "--setting", "quick"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = review(game.seed, game.history, setting="quick").to_dict()
    assert printed == json.loads(json.dumps({"practice": False} | expected))
    assert len(printed["moves"]) == 60


def test_without_a_file_the_terminal_games_save_is_reviewed_and_a_practice_game_says_so(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = corner_game(4, 50)
    game.undo(2)
    write_save(data_dir, game)
    monkeypatch.setenv("PY2048_DATA_DIR", str(data_dir))
    assert main(["review", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["practice"] is True and printed["history"] == letters(game)
    assert main(["review"]) == 0
    assert "Undo was used in this game" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("not json", "is not a py2048 game"),
        ('{"format": "other"}', "is not a py2048 game"),
        (
            Game.from_board([[2, 0, 0, 0], [0, 4, 0, 0], [0] * 4, [0, 0, 0, 8]], seed=1).to_json(),
            "set up from a board",
        ),
        (
            json.dumps(Game.replay(8, "D").to_dict() | {"history": "L"}),
            "move 1 (left) changes nothing",
        ),
    ],
)
def test_a_file_that_cannot_be_reviewed_is_an_error_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    assert main(["review", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("2048: error: ") and message in error


def test_the_setting_must_be_one_of_the_review_settings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["review", "--setting", "slow"])
    assert "quick" in capsys.readouterr().err


# --- in the terminal game ------------------------------------------------------------------------


def make_app(data_dir: Path, **options: object) -> Py2048App:
    return Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor(), **options)


def rendered(renderable: object) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def wait_for_review(app: Py2048App, pilot: object) -> ReviewScreen:
    for _ in range(200):
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        screen = app.screen
        if isinstance(screen, ReviewScreen) and screen.review is not None:
            return screen
    raise AssertionError(f"no review on screen: {app.screen}")


@pytest.mark.anyio
async def test_after_game_over_r_shows_the_review(data_dir: Path) -> None:
    game = corner_game(4)
    last = game.history[-1]
    write_save(data_dir, Game.replay(game.seed, game.history[:-1]))
    app = make_app(data_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press(KEY_OF[last])
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("r")
        shown = await wait_for_review(app, pilot)
        assert shown.review == review(game.seed, game.history)
        text = rendered(shown.query_one("#summary", Static).content)
        assert f"Accuracy {shown.review.accuracy:.1f}%" in text and "Costliest moves" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        # After a look at the board, R opens the review again (N starts a new game).
        await pilot.press("r")
        await wait_for_review(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and game_screen(app).session.game.over


@pytest.mark.anyio
async def test_a_long_review_shows_its_progress_and_esc_stops_it(data_dir: Path) -> None:
    from py2048.solver.reviewer import Grader

    grader = Grader(1)
    game = Game(seed=5)
    while game.moves < 4000:
        game.move(grader.best(game))
    app = make_app(data_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = ReviewScreen(game)
        await app.push_screen(screen)
        for _ in range(200):
            await pilot.pause(0.02)
            if screen.query_one(ProgressBar).progress > 0:
                break
        status = rendered(screen.query_one("#status", Static).content)
        assert re.search(r"Reviewing: [\d,]+ of 4,000 moves graded", status)
        worker = screen.worker
        assert worker is not None and not worker.is_finished
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        stopped_at = screen.graded
        await pilot.pause(2.0)  # the whole review takes about a second here
        assert screen.graded < 4000, "the search went on to the end"
        assert screen.graded - stopped_at <= 1000  # it stopped at its next part (0.1 s)
        assert worker.state != WorkerState.SUCCESS and screen.review is None


@pytest.mark.anyio
async def test_r_during_a_game_still_asks_for_a_new_game(data_dir: Path) -> None:
    app = make_app(data_dir, seed=77)
    async with app.run_test() as pilot:
        await pilot.press("left", "up", "r")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert type(app.screen).__name__ == "ConfirmNewGameScreen"


@pytest.mark.anyio
async def test_undo_needs_practice_mode_then_takes_moves_back_and_never_sets_the_best(
    data_dir: Path,
) -> None:
    Storage(data_dir).save_best_score(12)
    app = make_app(data_dir, seed=3)
    async with app.run_test() as pilot:
        for key in ["down", "left", "down", "right", "down", "left", "down", "left"] * 2:
            await pilot.press(key)
        await pilot.pause()
        screen = game_screen(app)
        played = screen.session.game
        assert played.score > 12 and screen.query_one("#best", ScoreBox).value == played.score
        history = letters(played)
        await pilot.press("u")  # practice mode is off: nothing is taken back
        await pilot.pause()
        assert letters(screen.session.game) == history
        await pilot.press("z", "u")
        await pilot.pause()
        game = screen.session.game
        assert game.practice and letters(game) == history[:-1]
        assert board_shown(screen) == Game.replay(3, history[:-1]).board
        assert screen.query_one("#best", ScoreBox).value == 12
        assert "Practice game" in str(screen.query_one("#practice").render())
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert letters(screen.session.game) == history[:-2]
        for key in ["down", "left", "right", "down", "left", "down"] * 3:
            await pilot.press(key)
        await pilot.pause()
        assert screen.session.game.score > 12
        assert screen.query_one("#best", ScoreBox).value == 12
    saved = Game.from_json((data_dir / GAME_FILE).read_text())
    assert saved.practice
    assert json.loads((data_dir / BEST_SCORE_FILE).read_text())["best_score"] == 12
    # After a restart: practice mode is still on, the game still practice, the best still 12.
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        screen = game_screen(app)
        assert screen.settings.practice and screen.session.game.practice
        assert screen.query_one("#best", ScoreBox).value == 12
        await pilot.press("z")
        assert not screen.settings.practice


def test_a_game_that_raised_the_best_before_its_first_undo_falls_back_after_a_restart(
    data_dir: Path,
) -> None:
    storage = Storage(data_dir)
    storage.save_best_score(12)
    session = Session(storage, Game(3), 12, resumed=False, best_before_game=12)
    while session.game.score <= 12:
        session.play(session.game.legal_moves()[0])
    assert storage.load_best_score()[0] == session.game.score > 12
    assert storage.load_best_before_game() == 12
    # The program restarts: the session learns what the best was before this game began.
    game, _ = storage.load_game()
    assert game is not None
    again = Session(storage, game, storage.load_best_score()[0], resumed=True,
                    best_before_game=storage.load_best_before_game())  # fmt: skip
    assert again.undo() is None
    assert again.best_score == 12 and storage.load_best_score()[0] == 12
    assert again.undo() is None and again.game.practice
    assert Session(storage, Game(5), 0, resumed=True).undo() == "no move to undo"


def test_a_best_score_file_without_before_game_still_reads(data_dir: Path) -> None:
    storage = Storage(data_dir)
    storage.save_best_score(1234)
    assert storage.load_best_before_game() is None
    assert json.loads((data_dir / BEST_SCORE_FILE).read_text()) == {"best_score": 1234}
    (data_dir / BEST_SCORE_FILE).write_text('{"best_score": 5, "before_game": "x"}')
    assert storage.load_best_before_game() is None and storage.load_best_score() == (5, None)


# --- past games, and what there is to review --------------------------------------------------


def test_review_without_a_save_says_to_play_a_game_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PY2048_DATA_DIR", str(tmp_path / "empty"))
    assert main(["review"]) == 2
    err = capsys.readouterr().err
    assert "no game to review" in err and "Play a game first (2048 play)" in err


def test_review_of_a_game_without_moves_says_there_is_nothing_to_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_save(tmp_path, Game(seed=3))
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert "nothing to review" in err and "no moves yet" in err
    assert "Accuracy" not in err


def test_play_refuses_an_output_that_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play"]) == 2  # pytest captures stdout: it is not a terminal
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "play needs a terminal" in captured.err


def finished(seed: int) -> Game:
    return corner_game(seed)


def test_review_lists_the_past_games_and_reviews_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from py2048.tui.records import Records

    monkeypatch.setenv("PY2048_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    records = Records(tmp_path)
    older, newer = finished(4), finished(6)
    records.record(older, "over")
    records.record(newer, "over")
    assert main(["review", "--games"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"{newer.score:>9,}" in out[1] and f"{older.score:>9,}" in out[2]
    assert main(["review", "--game", "2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["seed"] == 4 and printed["final_score"] == older.score
    assert main(["review", "--game", "3"]) == 2
    assert "there is no past game 3: 2 are kept" in capsys.readouterr().err


def test_review_opens_the_browsers_export_of_past_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The browser's "Export all" file: each game as its review link's fragment (here made by
    docs/review.md's own reference encoding, as tests/web does)."""
    import base64

    game = finished(8)
    history = letters(game)
    packed = bytearray((len(history) + 3) // 4)
    for i, letter in enumerate(history):
        packed[i // 4] |= "URDL".index(letter) << (6 - 2 * (i % 4))
    moves = base64.urlsafe_b64encode(bytes(packed)).decode().rstrip("=")
    entry = {
        "code": f"seed=8&n={len(history)}&moves={moves}",
        "date": "2026-01-02T03:04:05.000Z",
        "score": game.score,
        "tile": max(max(row) for row in game.board),
        "moves": game.moves,
        "practice": False,
        "won": False,
        "ended": "over",
    }
    exported = tmp_path / "py2048-games.json"
    exported.write_text(json.dumps({"format": "py2048-games", "version": 1, "games": [entry]}))
    assert main(["review", str(exported), "--game", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["history"] == history
    forged = dict(entry, score=game.score + 4)
    exported.write_text(json.dumps({"format": "py2048-games", "games": [forged]}))
    assert main(["review", str(exported), "--game", "1"]) == 2
    assert "does not replay to the score and tile it claims" in capsys.readouterr().err
    exported.write_text(json.dumps({"format": "py2048", "games": []}))
    assert main(["review", str(exported), "--games"]) == 2
    assert "not a list of py2048 games" in capsys.readouterr().err
