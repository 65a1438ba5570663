"""Hint and autoplay: legal advice shown with every direction's value, off the UI thread."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from py2048.engine import Game
from py2048.tui.advisor import Advice
from py2048.tui.app import Py2048App
from py2048.tui.screens.dialogs import WinScreen
from py2048.tui.screens.game import AUTOPLAY_DELAYS
from py2048.tui.widgets.advice import AdvicePanel
from tests.tui.support import (
    WON_ON_LEFT,
    FirstLegalAdvisor,
    WaitingAdvisor,
    failing_advisor,
    game_screen,
    write_save,
)

pytestmark = pytest.mark.anyio

WAIT_S = 30.0


async def wait_until(pilot: Pilot[int], condition: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def panel_of(app: Py2048App) -> AdvicePanel:
    return game_screen(app).query_one(AdvicePanel)


class CheckedSolver:
    """The real solver, with a record of every board it advised on and its advice."""

    def __init__(self) -> None:
        solver = pytest.importorskip("py2048.solver")
        self.best_move = solver.best_move
        self.advised: list[tuple[list[list[int]], Advice]] = []

    def __call__(self, board: list[list[int]], preset: str) -> Advice:
        advice = self.best_move(board, preset="fast")
        self.advised.append((board, advice))
        return advice


async def test_a_hint_from_the_solver_is_a_legal_move_with_every_direction_valued(
    data_dir: Path,
) -> None:
    solver = CheckedSolver()
    app = Py2048App(data_dir=data_dir, seed=2001, advisor=solver)
    async with app.run_test() as pilot:
        await pilot.press(*"asdwasdw")
        await pilot.pause()
        moves = game_screen(app).session.game.moves
        await pilot.press("i")
        await wait_until(pilot, lambda: panel_of(app).advice is not None, "the hint")
        await pilot.pause(0.1)
        game = game_screen(app).session.game
        advice = panel_of(app).advice
        text = str(panel_of(app).render())
        assert game.moves == moves, "a hint makes no move"
    assert advice is not None and advice.direction in game.legal_moves()
    assert set(advice.values) == set(game.legal_moves())
    assert f"Advised: {'↑→↓←'[advice.direction]} {advice.direction}" in text
    for direction in advice.values:
        assert str(direction) in text


async def test_autoplay_with_the_solver_makes_only_legal_moves(data_dir: Path) -> None:
    solver = CheckedSolver()
    app = Py2048App(data_dir=data_dir, seed=2002, advisor=solver)
    async with app.run_test() as pilot:
        for _ in range(5):
            await pilot.press("plus")
        await pilot.press("p")
        await wait_until(pilot, lambda: game_screen(app).session.game.moves >= 30, "30 moves")
        await pilot.press("p")
        await pilot.pause()
        game = game_screen(app).session.game
        moves = game.moves
        await pilot.pause(0.2)
        assert game.moves == moves, "autoplay stopped"
    replay = Game(2002)
    for board, advice in solver.advised[: game.moves]:
        assert replay.board == board
        assert advice.direction in replay.legal_moves()
        replay.move(advice.direction)
    assert replay.to_json() == game.to_json()


async def test_hint_shows_thinking_and_the_screen_stays_responsive(data_dir: Path) -> None:
    advisor = WaitingAdvisor()
    app = Py2048App(data_dir=data_dir, seed=5, advisor=advisor)
    async with app.run_test() as pilot:
        await pilot.press("i")
        await wait_until(pilot, advisor.started.is_set, "the search to start")
        assert "Thinking" in str(panel_of(app).render())
        await pilot.press("left", "right")
        await pilot.pause()
        assert game_screen(app).session.game.moves >= 1, "keys work while the solver thinks"
        advisor.release.set()
        await wait_until(pilot, lambda: len(advisor.calls) == 1, "the search to end")
        await pilot.pause(0.1)
        assert panel_of(app).advice is None, "advice for an older board is not shown"


async def test_a_move_key_takes_over_from_autoplay(data_dir: Path) -> None:
    advisor = WaitingAdvisor()
    app = Py2048App(data_dir=data_dir, seed=5, advisor=advisor)
    async with app.run_test() as pilot:
        await pilot.press("p")
        await wait_until(pilot, advisor.started.is_set, "the search to start")
        assert panel_of(app).autoplay
        await pilot.press("down", "up")
        await pilot.pause()
        moves = game_screen(app).session.game.moves
        assert moves >= 1
        assert not panel_of(app).autoplay
        advisor.release.set()
        await wait_until(pilot, lambda: len(advisor.calls) == 1, "the search to end")
        await pilot.pause(0.2)
        assert game_screen(app).session.game.moves == moves, "the abandoned search made no move"


async def test_escape_stops_autoplay(data_dir: Path) -> None:
    app = Py2048App(data_dir=data_dir, seed=5, advisor=FirstLegalAdvisor())
    async with app.run_test() as pilot:
        await pilot.press("p")
        await wait_until(pilot, lambda: game_screen(app).session.game.moves >= 1, "a move")
        await pilot.press("escape")
        await pilot.pause()
        moves = game_screen(app).session.game.moves
        await pilot.pause(0.5)
        assert game_screen(app).session.game.moves == moves
        assert not panel_of(app).autoplay


async def test_autoplay_speed_sets_the_pause_between_moves(data_dir: Path) -> None:
    app = Py2048App(data_dir=data_dir, seed=5, advisor=FirstLegalAdvisor())
    async with app.run_test() as pilot:
        for _ in AUTOPLAY_DELAYS:
            await pilot.press("minus")
        assert panel_of(app).speed == (1, len(AUTOPLAY_DELAYS))
        await pilot.press("p")
        await wait_until(pilot, lambda: game_screen(app).session.game.moves >= 1, "a move")
        await pilot.pause(AUTOPLAY_DELAYS[0] / 2)
        assert game_screen(app).session.game.moves == 1, "the slowest speed waits between moves"
        for _ in AUTOPLAY_DELAYS:
            await pilot.press("plus")
        assert panel_of(app).speed == (len(AUTOPLAY_DELAYS), len(AUTOPLAY_DELAYS))
        await wait_until(pilot, lambda: game_screen(app).session.game.moves >= 10, "10 moves")
        await pilot.press("p")


async def test_autoplay_stops_at_the_win_banner(data_dir: Path) -> None:
    write_save(data_dir, Game.from_board(WON_ON_LEFT, seed=1))
    advisor = FirstLegalAdvisor()
    app = Py2048App(data_dir=data_dir, advisor=advisor)
    async with app.run_test() as pilot:
        for _ in AUTOPLAY_DELAYS:
            await pilot.press("plus")
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, WinScreen), "the win banner")
        assert not panel_of(app).autoplay
        moves = game_screen(app).session.game.moves
        await pilot.pause(0.3)
        assert game_screen(app).session.game.moves == moves


async def test_the_strength_key_changes_the_preset_the_solver_gets(data_dir: Path) -> None:
    advisor = FirstLegalAdvisor()
    app = Py2048App(data_dir=data_dir, seed=5, advisor=advisor)
    titles = []
    async with app.run_test() as pilot:
        for calls in (1, 2, 3):
            titles.append(panel_of(app).border_title)
            await pilot.press("i")
            await wait_until(pilot, lambda n=calls: len(advisor.calls) == n, "the hint")
            await pilot.press("m")
    assert [preset for _, preset in advisor.calls] == ["balanced", "strong", "fast"]
    assert titles == ["Solver: balanced", "Solver: strong", "Solver: fast"]


async def test_a_failing_solver_is_reported_and_stops_autoplay(data_dir: Path) -> None:
    app = Py2048App(data_dir=data_dir, seed=5, advisor=failing_advisor)
    async with app.run_test() as pilot:
        await pilot.press("p")
        await wait_until(pilot, lambda: panel_of(app).problem is not None, "the report")
        assert "search table exhausted" in panel_of(app).problem
        assert not panel_of(app).autoplay
        assert game_screen(app).session.game.moves == 0
