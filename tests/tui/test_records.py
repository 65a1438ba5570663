"""Statistics and past games in the terminal game (Textual's pilot) and in its data folder: a
lost, a won and a practice game counted once, across restarts; the screen's counts, bars and
list; a past game opened in the review, deleted; the counts reset only after Y."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from py2048.engine import Direction, Game
from py2048.engine.size import DEFAULT_SIZE
from py2048.tui.app import Py2048App
from py2048.tui.records import (
    GAMES_FILE,
    KEEP_GAMES,
    STATISTICS_FILE,
    PastGame,
    Records,
    RecordsError,
    decode_game,
    encode_game,
)
from py2048.tui.screens.dialogs import GameOverScreen, WinScreen
from py2048.tui.screens.records import RecordsScreen
from py2048.tui.screens.review import ReviewScreen
from tests.tui.support import LOST_ON_LEFT, WON_ON_LEFT, FirstLegalAdvisor, game_screen, write_save

pytestmark = pytest.mark.anyio
ORDER = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)


def make_app(data_dir: Path, **options: object) -> Py2048App:
    return Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor(), **options)


def real_game(seed: int) -> Game:
    """A game from ``seed`` played down, left, right, up first, to its end."""
    game = Game(seed)
    while not game.over:
        legal = game.legal_moves()
        game.move(next(d for d in ORDER if d in legal))
    return game


def before_the_end(seed: int) -> tuple[Game, Game, str]:
    """(the game before its last move, the finished game, the last move's key)."""
    game = real_game(seed)
    history = "".join(d.letter for d in game.history)
    return Game.replay(seed, history[:-1]), game, str(game.history[-1])


def screen_text(screen: RecordsScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


# --- the link form and the files --------------------------------------------------------------


@pytest.mark.parametrize("history", ["", "L", "URDL", "LLDDRRUUL", "D" * 5_001])
def test_a_games_link_form_decodes_to_the_same_game(history: str) -> None:
    fragment = encode_game(42, history, practice=history == "L")
    assert decode_game(fragment) == (42, history, history == "L", DEFAULT_SIZE)
    assert len(encode_game(1, "D" * 5_000)) < 2_000


@pytest.mark.parametrize(
    "fragment",
    [
        "n=1&moves=AA",
        "seed=x&n=1&moves=AA",
        "seed=1&moves=AA",
        "seed=1&n=5&moves=AA",
        "seed=1&n=1&moves=A*",
    ],
)
def test_a_damaged_link_form_is_refused(fragment: str) -> None:
    with pytest.raises(RecordsError):
        decode_game(fragment)


def test_a_game_is_counted_once_and_kept_newest_first(tmp_path: Path) -> None:
    records = Records(tmp_path)
    first, second = real_game(4), real_game(5)
    assert records.record(first, "over")
    assert records.record(first, "over")  # kept again: replaces its entry, not counted twice
    assert records.record(second, "abandoned")
    assert not records.record(Game(seed=9), "abandoned")  # no move: nothing to keep
    statistics = records.statistics()
    assert statistics.games.played == 2
    assert statistics.games.total_score == first.score + second.score
    assert [g.seed for g in records.games()] == [5, 4]
    saved = json.loads((tmp_path / GAMES_FILE).read_text())
    assert saved["format"] == "py2048-games"
    assert records.games()[1].game().to_dict() == first.to_dict()


def test_only_the_last_games_are_kept(tmp_path: Path) -> None:
    records = Records(tmp_path)
    game = real_game(4)
    entry = PastGame.of(game, "over")
    records.save_games([entry] * (KEEP_GAMES + 5))
    assert len(records.games()) == KEEP_GAMES


@pytest.mark.parametrize("name", [STATISTICS_FILE, GAMES_FILE])
def test_an_unreadable_file_is_moved_aside_and_starts_again(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("{not json")
    records = Records(tmp_path)
    records.record(real_game(4), "over")
    assert records.problems and records.problems[0].backup is not None
    assert records.problems[0].backup.read_text() == "{not json"
    assert records.statistics().games.played == 1
    assert len(records.games()) == 1


# --- in the game ---------------------------------------------------------------------------------


async def test_a_lost_a_won_and_a_practice_game_are_counted_across_restarts(
    data_dir: Path,
) -> None:
    write_save(data_dir, Game.from_board(LOST_ON_LEFT, score=40, seed=1))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("left")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        app.pop_screen()
        await pilot.pause()
        game_screen(app).action_new_game()  # over: not counted again
        await pilot.pause()
    write_save(data_dir, Game.from_board(WON_ON_LEFT, seed=2))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("left")
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        await pilot.click("#new-game")  # a won game replaced: counted as won
        await pilot.pause()
        assert game_screen(app).session.game.moves == 0
    app = make_app(data_dir, seed=11)
    async with app.run_test() as pilot:
        await pilot.press("z", "left", "right", "u")  # practice mode: a move taken back
        await pilot.pause()
        assert game_screen(app).session.game.practice
        game_screen(app).session.new_game()
    statistics = Records(data_dir).statistics()
    games = statistics.games
    assert (games.played, games.won, games.best_tile) == (2, 1, 2048)
    assert games.final_tiles == {16: 1, 2048: 1}
    assert (games.streak, games.longest_streak, games.win_rate) == (1, 1, 50.0)
    assert statistics.practice.played == 1


async def test_the_screen_lists_a_past_game_opens_its_review_and_deletes_it(
    data_dir: Path,
) -> None:
    before, finished, key = before_the_end(7)
    write_save(data_dir, before)
    app = make_app(data_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        app.pop_screen()
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecordsScreen)
        assert "Games played                       1" in screen_text(screen, "#counts")
        assert f"Best score{finished.score:>26,}" in screen_text(screen, "#counts")
        tile = max(max(row) for row in finished.board)
        assert screen_text(screen, "#tiles").startswith(f"{tile:>6} █")
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        assert str(table.get_row_at(0)[1]) == "4x4"
        assert str(table.get_row_at(0)[2]) == f"{finished.score:,}"
        await pilot.press("enter")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.game.to_dict() == finished.to_dict()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert screen.query_one(DataTable).row_count == 0
        assert "is deleted" in screen_text(screen, "#message")
        assert "No game has ended yet" in screen_text(screen, "#no-games")
    assert Records(data_dir).games() == []


async def test_the_statistics_are_reset_only_after_y(data_dir: Path) -> None:
    records = Records(data_dir)
    records.record(real_game(4), "over")
    app = make_app(data_dir, seed=3)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g", "x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecordsScreen)
        assert "Y resets" in screen_text(screen, "#message")
        await pilot.press("n", "y")  # another key first: the question is gone, Y does nothing
        await pilot.pause()
        assert Records(data_dir).statistics().games.played == 1
        await pilot.press("x", "y")
        await pilot.pause()
        assert "every count is back to zero" in screen_text(screen, "#message")
    assert Records(data_dir).statistics().games.played == 0
    assert len(Records(data_dir).games()) == 1  # the past games stay


async def test_the_practice_labels_have_their_own_background_in_the_light_theme(
    data_dir: Path,
) -> None:
    app = make_app(data_dir, seed=3)
    async with app.run_test() as pilot:
        await pilot.press("z", "t")
        await pilot.pause()
        assert not app.current_theme.dark
        label = game_screen(app).query_one("#practice", Static)
        assert label.display
        background = label.styles.background
        assert background.a > 0
        assert background != game_screen(app).styles.background
