"""Helpers of the terminal game's tests: prepared boards and saves, and stand-in advisors.

App tests drive the real app headless with Textual's pilot, at 80x24 unless a test says
otherwise. The advisors here stand in for the solver where a test needs a known answer or a
search that waits; they take the legal moves from the engine, never from a rule of their own.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from textual.app import App

from py2048.engine import Direction, Game
from py2048.tui.screens.game import GameScreen
from py2048.tui.storage import GAME_FILE
from py2048.tui.widgets.board import Tile

LOST_ON_LEFT = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 8], [4, 2, 8, 8]]
"""Left merges the two 8s; whatever spawns in the freed corner, no move is left."""
WON_ON_LEFT = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
WON_AND_LOST_ON_LEFT = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 16], [1024, 1024, 32, 8]]
"""Left makes 2048 on the last possible move."""


def write_save(data_dir: Path, game: Game) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / GAME_FILE
    path.write_text(game.to_json(), encoding="utf-8")
    return path


def game_screen(app: App[int]) -> GameScreen:
    """The game screen, also while a dialog covers it."""
    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


def board_shown(screen: GameScreen) -> list[list[int]]:
    """The board as the player sees it: the number on each tile, 0 where none (a number
    written short, 128k for 131072, is read back in full)."""
    rows, cols = screen.session.game.size
    shown = [[screen.query_one(f"#cell-{r}-{c}", Tile) for c in range(cols)] for r in range(rows)]
    return [[tile_number(str(tile.render())) for tile in row] for row in shown]


def tile_number(text: str) -> int:
    """The number a tile's text stands for: ``128k`` is 131072, "" is 0."""
    units = {"k": 10, "M": 20, "G": 30, "T": 40, "P": 50, "E": 60}
    if not text:
        return 0
    if text[-1] in units:
        return int(text[:-1]) << units[text[-1]]
    return int(text)


@dataclass(frozen=True)
class FakeAdvice:
    direction: Direction | None
    values: Mapping[Direction, float]


@dataclass
class FirstLegalAdvisor:
    """Advises the first legal direction (in action order); records every call."""

    calls: list[tuple[list[list[int]], str]] = field(default_factory=list)

    def __call__(self, board: Sequence[Sequence[int]], preset: str) -> FakeAdvice:
        self.calls.append(([list(row) for row in board], preset))
        legal = Game.from_board(board).legal_moves()
        values = {d: float(len(legal) - i) for i, d in enumerate(legal)}
        return FakeAdvice(legal[0] if legal else None, values)


@dataclass
class WaitingAdvisor(FirstLegalAdvisor):
    """Like FirstLegalAdvisor, but each search waits until the test releases it."""

    release: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)

    def __call__(self, board: Sequence[Sequence[int]], preset: str) -> FakeAdvice:
        self.started.set()
        if not self.release.wait(timeout=10):
            raise TimeoutError("the test never released the search")
        return super().__call__(board, preset)


def failing_advisor(board: Sequence[Sequence[int]], preset: str) -> FakeAdvice:
    raise RuntimeError("search table exhausted")
