"""Saves as the player meets them: resume, --new, --seed, corrupt saves, interrupted writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from py2048.engine import Game
from py2048.engine.save import MAX_MOVES
from py2048.tui.app import Py2048App
from py2048.tui.screens.dialogs import NoticeScreen
from py2048.tui.screens.game import GameScreen
from py2048.tui.storage import BEST_SCORE_FILE, GAME_FILE
from py2048.tui.widgets.scores import ScoreBox
from tests.tui.support import FirstLegalAdvisor, board_shown, game_screen, write_save

pytestmark = pytest.mark.anyio


def make_app(data_dir: Path, **options: object) -> Py2048App:
    return Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor(), **options)


async def test_the_game_resumes_after_a_restart(data_dir: Path) -> None:
    app = make_app(data_dir, seed=31)
    async with app.run_test() as pilot:
        await pilot.press(*"asdwasdwasdw")
        await pilot.pause()
        game = game_screen(app).session.game
        before = (game.to_json(), board_shown(game_screen(app)))

    again = make_app(data_dir)
    async with again.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(again)
        after = (screen.session.game.to_json(), board_shown(screen))
        assert screen.query_one("#score", ScoreBox).value == screen.session.game.score
        assert screen.query_one("#best", ScoreBox).value == screen.session.game.score
    assert after == before


async def test_seed_starts_the_same_game_every_time(tmp_path: Path) -> None:
    boards = []
    for run in range(2):
        app = make_app(tmp_path / f"run{run}", seed=123456)
        async with app.run_test() as pilot:
            await pilot.press("left", "down", "right")
            await pilot.pause()
            boards.append(game_screen(app).session.game.board)
    assert boards[0] == boards[1] == Game.replay(123456, "LDR").board


def test_a_bad_seed_is_refused_before_the_terminal_is_taken(data_dir: Path) -> None:
    with pytest.raises(ValueError, match="seed"):
        make_app(data_dir, seed=2**60)


async def test_new_ignores_the_save_and_keeps_it_until_the_first_move(data_dir: Path) -> None:
    saved = Game.replay(8, "LURDLURD")
    path = write_save(data_dir, saved)
    app = make_app(data_dir, new=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert game_screen(app).session.game.moves == 0
    assert path.read_text() == saved.to_json()

    resumed = make_app(data_dir)
    async with resumed.run_test() as pilot:
        await pilot.pause()
        assert game_screen(resumed).session.game.to_json() == saved.to_json()

    fresh = make_app(data_dir, new=True)
    async with fresh.run_test() as pilot:
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        played = game_screen(fresh).session.game
        assert played.moves >= 1
    assert Game.from_json(path.read_text()).to_json() == played.to_json()


async def test_a_corrupt_save_is_backed_up_and_the_player_told(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / GAME_FILE).write_text('{"format": "py2048", "board": [[1, 2')
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        notice = app.screen
        assert isinstance(notice, NoticeScreen)
        backups = list(data_dir.glob(f"{GAME_FILE}.corrupt-*"))
        assert len(backups) == 1
        assert str(backups[0]) in notice.message
        assert "new game" in notice.message.lower()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.moves == 0
        await pilot.press("left", "up", "right", "down")
    assert backups[0].read_text() == '{"format": "py2048", "board": [[1, 2'
    assert Game.from_json((data_dir / GAME_FILE).read_text()).moves >= 1


async def test_a_save_that_breaks_the_rules_is_refused_with_the_field_named(
    data_dir: Path,
) -> None:
    write_save(data_dir, Game(4))
    text = (data_dir / GAME_FILE).read_text().replace('"won":false', '"won":true')
    (data_dir / GAME_FILE).write_text(text)
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NoticeScreen)
        assert "'won'" in app.screen.message


async def test_a_corrupt_best_score_is_backed_up_and_the_game_still_resumes(
    data_dir: Path,
) -> None:
    saved = Game.replay(6, "LURD")
    write_save(data_dir, saved)
    (data_dir / BEST_SCORE_FILE).write_text("{{{")
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NoticeScreen)
        assert "best score" in app.screen.message.lower()
        assert game_screen(app).session.game.to_json() == saved.to_json()
        assert game_screen(app).query_one("#best", ScoreBox).value == saved.score
    assert len(list(data_dir.glob(f"{BEST_SCORE_FILE}.corrupt-*"))) == 1


async def test_a_save_interrupted_mid_write_leaves_the_previous_save_intact(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    previous = Game.replay(12, "LURDLU")
    path = write_save(data_dir, previous)
    real_replace = os.replace

    def crash_before_rename(source: str, target: str) -> None:
        raise OSError(5, "Input/output error")

    app = make_app(data_dir)
    async with app.run_test() as pilot:
        monkeypatch.setattr(os, "replace", crash_before_rename)
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        screen = game_screen(app)
        assert screen.session.game.moves > previous.moves, "play goes on"
        problem = screen.query_one("#save-problem")
        assert problem.display
        assert "Not saved: Input/output error" in str(problem.render())
        assert path.read_text() == previous.to_json()
        assert [p.name for p in data_dir.iterdir()] == [GAME_FILE]

        monkeypatch.setattr(os, "replace", real_replace)
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        assert not problem.display
        played = screen.session.game.to_json()
    assert path.read_text() == played


async def test_new_game_right_after_new_still_keeps_the_save(data_dir: Path) -> None:
    saved = Game.replay(8, "LURDLURD")
    path = write_save(data_dir, saved)
    app = make_app(data_dir, new=True)
    async with app.run_test() as pilot:
        await pilot.press("n", "n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    assert path.read_text() == saved.to_json()


async def test_a_saved_game_at_the_move_cap_says_it_cannot_go_on(data_dir: Path) -> None:
    board = [[131072, 131072, 131072, 131072], [65536, 0, 0, 0], [0] * 4, [0] * 4]
    state = Game.from_board(board, seed=2).to_dict()
    capped = Game.from_dict(state | {"moves": MAX_MOVES, "history": "L" * MAX_MOVES})
    write_save(data_dir, capped)
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NoticeScreen)
        assert f"{MAX_MOVES} moves" in app.screen.message
        await pilot.press("enter", "down", "left")
        await pilot.pause()
        assert game_screen(app).session.game.moves == MAX_MOVES
