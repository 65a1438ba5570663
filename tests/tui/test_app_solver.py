"""Hint and autoplay: legal advice shown with every direction's value, off the UI thread."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import pytest
from textual.pilot import Pilot

from py2048.engine import Direction, Game
from py2048.solver.presets import DEFAULT_PRESET
from py2048.tui.advisor import Advice
from py2048.tui.app import Py2048App
from py2048.tui.screens.dialogs import WinScreen
from py2048.tui.screens.game import AUTOPLAY_DELAYS
from py2048.tui.settings import DEFAULT_SPEED, SETTINGS_FILE
from py2048.tui.widgets.advice import AdvicePanel
from tests.tui.support import (
    WON_ON_LEFT,
    FakeAdvice,
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
    assert f"Best move: {'↑→↓←'[advice.direction]} {advice.direction}" in text
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


@dataclass
class TimedAdvisor(FirstLegalAdvisor):
    """Like FirstLegalAdvisor, and notes when each search starts (monotonic seconds)."""

    started_at: list[float] = field(default_factory=list)

    def __call__(self, board: Sequence[Sequence[int]], preset: str) -> FakeAdvice:
        self.started_at.append(time.monotonic())
        return super().__call__(board, preset)


async def test_autoplay_speed_sets_the_pause_between_moves(data_dir: Path) -> None:
    # Gaps are measured where the searches start, not where the test happens to look: on a loaded
    # machine the test's own polling can lag by more than a pause.
    advisor = TimedAdvisor()
    app = Py2048App(data_dir=data_dir, seed=5, advisor=advisor)
    async with app.run_test() as pilot:
        for _ in AUTOPLAY_DELAYS:
            await pilot.press("minus")
        assert panel_of(app).speed == (1, len(AUTOPLAY_DELAYS))
        await pilot.press("p")
        await wait_until(pilot, lambda: len(advisor.started_at) >= 2, "a second move")
        first, second = advisor.started_at[:2]
        assert second - first >= 0.9 * AUTOPLAY_DELAYS[0], "the slowest speed waits between moves"
        for _ in AUTOPLAY_DELAYS:
            await pilot.press("plus")
        assert panel_of(app).speed == (len(AUTOPLAY_DELAYS), len(AUTOPLAY_DELAYS))
        await wait_until(pilot, lambda: len(advisor.started_at) >= 12, "10 more moves")
        await pilot.press("p")
    fast = advisor.started_at[2:12]
    gaps = [later - earlier for earlier, later in pairwise(fast)]
    assert min(gaps) < AUTOPLAY_DELAYS[0] / 2, "the fastest speed does not wait a second"


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


async def test_the_hint_grades_each_move_beside_its_final_score(data_dir: Path) -> None:
    """The search's values are the points still to come: the panel shows the final score each
    move leads to (score + value), best first, and each move's grade in the review's words
    (200 of the best's 1,200 points still to come is 16.7%: a mistake)."""

    def advisor(board: list[list[int]], preset: str) -> FakeAdvice:
        values = {Direction.LEFT: 1000.4, Direction.UP: 1200.0, Direction.DOWN: 1195.0}
        return FakeAdvice(Direction.UP, values)

    board = [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 0]]
    write_save(data_dir, Game.from_board(board, score=20))
    app = Py2048App(data_dir=data_dir, advisor=advisor)
    async with app.run_test() as pilot:
        await pilot.press("i")
        await wait_until(pilot, lambda: panel_of(app).advice is not None, "the hint")
        lines = str(panel_of(app).render()).splitlines()
    assert lines[:5] == [
        "Best move: ↑ up",
        "Final score after each:",
        "↑ up    1,220  best",
        "↓ down  1,215  good",
        "← left  1,020  mistake",
    ]


async def test_the_autoplay_speed_and_the_strength_come_back_after_a_restart(
    data_dir: Path,
) -> None:
    app = Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor())
    async with app.run_test() as pilot:
        await pilot.press("plus", "plus", "m")
        await pilot.pause()
        speed, preset = game_screen(app).speed, game_screen(app).preset
    assert speed == 5 and preset == "strong"
    advisor = FirstLegalAdvisor()
    app = Py2048App(data_dir=data_dir, advisor=advisor)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert (screen.speed, screen.preset) == (5, "strong")
        assert panel_of(app).speed == (6, len(AUTOPLAY_DELAYS))
        assert panel_of(app).border_title == "Solver: strong"
        await pilot.press("i")
        await wait_until(pilot, lambda: advisor.calls, "the hint")
    assert advisor.calls[0][1] == "strong"


@pytest.mark.parametrize("content", ["{not json", "[]", '{"autoplay_speed": "x", "strength": 7}'])
async def test_unreadable_settings_mean_the_defaults(data_dir: Path, content: str) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / SETTINGS_FILE).write_text(content)
    app = Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor())
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert (screen.speed, screen.preset) == (DEFAULT_SPEED, DEFAULT_PRESET)


@dataclass(frozen=True)
class TableAdvice:
    direction: Direction | None
    values: dict[Direction, float]
    source: str = "table"
    table_target: int = 256


async def test_a_hint_from_an_endgame_table_speaks_of_chances(data_dir: Path) -> None:
    def advisor(board: list[list[int]], preset: str) -> TableAdvice:
        return TableAdvice(Direction.LEFT, {Direction.LEFT: 0.8734, Direction.DOWN: 0.8012})

    write_save(data_dir, Game.from_board([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0] * 4]))
    app = Py2048App(data_dir=data_dir, advisor=advisor)
    async with app.run_test() as pilot:
        await pilot.press("i")
        await wait_until(pilot, lambda: panel_of(app).advice is not None, "the hint")
        lines = str(panel_of(app).render()).splitlines()
    assert lines[:5] == [
        "Best move: ← left",
        "Chance of making 256:",
        "← left  87.3%  best",
        "↓ down  80.1%  mistake",
        "from an endgame table",
    ]


async def test_a_balanced_hint_on_a_loaded_machine_still_looks_its_minimum_depth_ahead(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A time cap already spent when the search starts stands for a loaded machine: the
    balanced hint still searches d2 (three moves ahead), its minimum, and says "moves"."""
    import dataclasses

    from py2048.solver import hint as hint_module
    from py2048.solver.presets import PRESETS

    spent = {name: dataclasses.replace(p, time_ms=1e-6) for name, p in PRESETS.items()}
    monkeypatch.setattr(hint_module, "PRESETS", spent)
    app = Py2048App(data_dir=data_dir, seed=2001)
    async with app.run_test() as pilot:
        await pilot.press(*"asdwasdw")
        await pilot.press("i")
        await wait_until(pilot, lambda: panel_of(app).advice is not None, "the hint")
        advice = panel_of(app).advice
        lines = str(panel_of(app).render()).splitlines()
    minimum = PRESETS[DEFAULT_PRESET].min_depth
    assert advice.depth == minimum
    (ahead,) = [line for line in lines if " ahead, " in line]
    assert ahead.startswith(f"{minimum + 1} moves ahead, ")


def test_one_move_ahead_is_said_in_the_singular() -> None:
    from py2048.solver import Hint
    from py2048.tui.widgets.advice import advice_lines

    values = {Direction.UP: 10.0, Direction.LEFT: 5.0}
    for depth, said in ((0, "1 move ahead, 88.0 ms"), (1, "2 moves ahead, 88.0 ms")):
        hint = Hint(Direction.UP, values, depth, 88.0, 4, "ntuple-snake")
        assert str(advice_lines(hint, 0)[-1]) == said
