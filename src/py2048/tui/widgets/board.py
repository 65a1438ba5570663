"""The board of any size (3 to 8 rows and columns): a grid of tiles that grows and shrinks with
the terminal.

:func:`fit` lays it out: the largest tiles (all of one size) that fit the room, with the widest
spacing that still leaves every number its room, so an 8x8 board fits an 80x24 terminal and a
4x4 one gets big tiles. A number too wide for its tile is written short (``128k`` for 131072).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult, RenderResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from py2048.engine.size import DEFAULT_SIZE, BoardSize
from py2048.tui.palette import BOARD, EMPTY_CELL, colour_system, tile_colours

MAX_TILE_WIDTH = 16
MAX_TILE_HEIGHT = 7
"""The largest tile, in characters: a 4x4 board in a big terminal stops growing at 74x33."""
SPACINGS = ((2, 1, 2, 1), (1, 1, 1, 1), (1, 0, 1, 0), (0, 0, 1, 0))
"""(padding left and right, padding above and below, gap between columns, gap between rows),
the most generous first: the board takes the first that leaves its numbers room."""
FIRST_ROOM = (48, 18)
"""The room a board is laid out in before its container says how much it has: the least any
terminal the game lays out in gives it."""
_UNITS = ((60, "E"), (50, "P"), (40, "T"), (30, "G"), (20, "M"), (10, "k"))
SHORT_WIDTH = 4
"""Characters any number takes written short (``512k``, ``32E``): the least room a tile is
given where a spacing allows it, so that the next, larger numbers still fit."""


def label(value: int, width: int) -> str:
    """The number on a tile ``width`` characters wide: in full when it fits, else in binary
    thousands (``128k`` for 131072, ``1M`` for 1048576); "" for an empty cell."""
    if not value:
        return ""
    text = str(value)
    if len(text) <= width:
        return text
    for shift, unit in _UNITS:
        if value >= 1 << shift:
            return f"{value >> shift}{unit}"
    return text


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes on a board of ``size``, in characters."""

    size: BoardSize
    tile_width: int
    tile_height: int
    pad_x: int
    pad_y: int
    gap_x: int
    gap_y: int

    @property
    def width(self) -> int:
        cols = self.size.cols
        return 2 * self.pad_x + cols * self.tile_width + (cols - 1) * self.gap_x

    @property
    def height(self) -> int:
        rows = self.size.rows
        return 2 * self.pad_y + rows * self.tile_height + (rows - 1) * self.gap_y


def fit(size: BoardSize, width: int, height: int, widest: int = 1) -> Layout:
    """The layout of a board of ``size`` in ``width`` x ``height`` characters, whose widest
    number is ``widest`` characters: the most generous spacing of :data:`SPACINGS` that leaves
    that number a character either side with tiles at least :data:`SHORT_WIDTH` wide, else one
    where it fits exactly (in tiles that wide still), else the one with the widest tiles. Tiles
    are as large as the room allows, up to the largest tile, and never more than about twice as
    wide as tall (a terminal's characters are twice as tall as wide)."""
    rows, cols = size
    layouts = []
    for pad_x, pad_y, gap_x, gap_y in SPACINGS:
        tile_height = (height - 2 * pad_y - (rows - 1) * gap_y) // rows
        tile_height = min(tile_height, MAX_TILE_HEIGHT)
        tile_width = (width - 2 * pad_x - (cols - 1) * gap_x) // cols
        tile_width = min(tile_width, MAX_TILE_WIDTH, max(2 * tile_height + 2, 6))
        layouts.append(Layout(size, tile_width, tile_height, pad_x, pad_y, gap_x, gap_y))
    shown = [layout for layout in layouts if layout.tile_height >= 1] or layouts[-1:]
    for room in (max(widest + 2, SHORT_WIDTH), max(widest, SHORT_WIDTH)):
        for layout in shown:
            if layout.tile_width >= room:
                return layout
    return max(shown, key=lambda layout: layout.tile_width)


class Tile(Widget):
    """One cell: its value in the tile's colours (as this terminal shows them), or empty."""

    DEFAULT_CSS = f"""
        Tile {{
            width: 1fr;
            height: 1fr;
            content-align: center middle;
            text-style: bold;
            background: {EMPTY_CELL};
        }}
        Tile.spawned {{ text-style: bold underline; }}
        """

    value: reactive[int] = reactive(0)

    def show(self, value: int, *, spawned: bool = False) -> None:
        self.set_classes(f"tile-{value}" if value else "empty")
        self.set_class(spawned, "spawned")
        if value:
            system = colour_system(self.app.console.color_system)
            self.styles.background, self.styles.color = tile_colours(value, system)
        else:
            self.styles.background = None
            self.styles.color = None
        self.value = value

    def render(self) -> RenderResult:
        return label(self.value, self.content_size.width)


class Board(Widget):
    """The board. ``show`` draws a board as the engine gives it (rows of tile values), of any
    size: a board of another shape than the last replaces the tiles."""

    DEFAULT_CSS = f"""
    Board {{
        layout: grid;
        width: auto;
        height: auto;
        background: {BOARD};
    }}
    """

    def __init__(self, size: BoardSize = DEFAULT_SIZE) -> None:
        super().__init__()
        self.board_size = size
        self.room = Size(0, 0)
        """The room the board may take (its container's), known after the first resize."""
        self.widest = 1
        self.layout_now: Layout | None = None
        self._apply(fit(size, *FIRST_ROOM))

    def compose(self) -> ComposeResult:
        yield from self._tiles()

    def _tiles(self) -> list[Tile]:
        rows, cols = self.board_size
        return [Tile(id=f"cell-{row}-{col}") for row in range(rows) for col in range(cols)]

    def show(self, board: Sequence[Sequence[int]], spawned: tuple[int, int] | None = None) -> None:
        """Draw ``board``; the tile at ``spawned`` (row, col), if any, is marked as new."""
        size = BoardSize(len(board), len(board[0]))
        if size != self.board_size:
            self.board_size = size
            self.layout_now = None
            self.call_later(self._replace_tiles, board, spawned)
            return
        for row, values in enumerate(board):
            for col, value in enumerate(values):
                tile = self.query_one(f"#cell-{row}-{col}", Tile)
                tile.show(value, spawned=(row, col) == spawned)
        self.widest = max(len(str(value)) for values in board for value in values)
        self.fit_to(self.room)

    async def _replace_tiles(
        self, board: Sequence[Sequence[int]], spawned: tuple[int, int] | None
    ) -> None:
        """The tiles of another size, in place of the old ones, then ``board`` on them."""
        await self.remove_children()
        await self.mount_all(self._tiles())
        self.show(board, spawned)

    def fit_to(self, room: Size) -> None:
        """Lay the board out in ``room`` (width, height), when it changed or a wider number
        came."""
        self.room = room
        if room.width <= 0 or room.height <= 0:
            return
        self._apply(fit(self.board_size, room.width, room.height, self.widest))

    def _apply(self, layout: Layout) -> None:
        if layout == self.layout_now:
            return
        self.layout_now = layout
        styles = self.styles
        styles.grid_size_columns, styles.grid_size_rows = layout.size.cols, layout.size.rows
        styles.grid_columns = f"{max(layout.tile_width, 1)}"
        styles.grid_rows = f"{max(layout.tile_height, 1)}"
        styles.grid_gutter_horizontal = layout.gap_y  # Textual's: the gutter between rows
        styles.grid_gutter_vertical = layout.gap_x
        styles.padding = (layout.pad_y, layout.pad_x)
        styles.width = layout.width
        styles.height = layout.height


class BoardArea(Vertical):
    """The room beside the sidebar: the board sits in its middle at the size that fits."""

    DEFAULT_CSS = """
    BoardArea { width: 1fr; height: 1fr; align: center middle; }
    """

    def on_resize(self, event: events.Resize) -> None:
        for board in self.query(Board):
            board.fit_to(self.content_size)
