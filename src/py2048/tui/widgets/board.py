"""The 4x4 board: sixteen tiles in a grid that grows and shrinks with the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from py2048.engine.board import SIZE
from py2048.tui.palette import BOARD, EMPTY_CELL, colour_system, tile_colours


class Tile(Static):
    """One cell: its value in the tile's colours (as this terminal shows them), or empty."""

    DEFAULT_CSS = f"""
        Tile {{
            width: 1fr;
            height: 1fr;
            min-width: 6;
            content-align: center middle;
            text-style: bold;
            background: {EMPTY_CELL};
        }}
        Tile.spawned {{ text-style: bold underline; }}
        """

    def show(self, value: int, *, spawned: bool = False) -> None:
        self.set_classes(f"tile-{value}" if value else "empty")
        self.set_class(spawned, "spawned")
        if value:
            system = colour_system(self.app.console.color_system)
            self.styles.background, self.styles.color = tile_colours(value, system)
        else:
            self.styles.background = None
            self.styles.color = None
        self.update(str(value) if value else "")


class Board(Widget):
    """The board. ``show`` draws a board as the engine gives it (4 rows of 4 values)."""

    DEFAULT_CSS = f"""
    Board {{
        layout: grid;
        grid-size: {SIZE} {SIZE};
        grid-gutter: 1 2;
        padding: 1 2;
        width: 1fr;
        height: 1fr;
        max-width: 74;
        max-height: 33;
        background: {BOARD};
    }}
    """

    def compose(self) -> ComposeResult:
        for row in range(SIZE):
            for col in range(SIZE):
                yield Tile(id=f"cell-{row}-{col}")

    def show(self, board: Sequence[Sequence[int]], spawned: tuple[int, int] | None = None) -> None:
        """Draw ``board``; the tile at ``spawned`` (row, col), if any, is marked as new."""
        for row, values in enumerate(board):
            for col, value in enumerate(values):
                tile = self.query_one(f"#cell-{row}-{col}", Tile)
                tile.show(value, spawned=(row, col) == spawned)
