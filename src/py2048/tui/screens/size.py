"""The board size, over the board (B): the squares 3x3 to 8x8 in a list, any other size typed
as rows x columns. Each size keeps its own game, best score and statistics, so changing size
loses nothing: the game left behind waits on its own size. Dismissed with the size chosen, or
None."""

from __future__ import annotations

from collections.abc import Set
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from py2048.engine.size import MAX_SIDE, MIN_SIDE, BoardSize, parse_size
from py2048.tui.screens.box import BoxScreen

WIN_TILE = 2048
SQUARES = tuple(BoardSize(side, side) for side in range(MIN_SIDE, MAX_SIDE + 1))


def size_note(size: BoardSize) -> str:
    """What a player may wonder about a size: 3x3 cannot make 2048."""
    if size.max_tile < WIN_TILE:
        return (
            f"On {size} the largest tile possible is {size.max_tile}, so 2048 cannot be made "
            "and the game is never won: play for the score."
        )
    return ""


class SizeScreen(BoxScreen[BoardSize | None]):
    DEFAULT_CSS = """
    SizeScreen > .box { width: 60; max-height: 100%; padding: 0 1; }
    SizeScreen Static { height: auto; }
    SizeScreen OptionList { height: auto; max-height: 8; margin: 1 0 0 0; }
    SizeScreen Input { margin: 1 0 0 0; }
    SizeScreen #size-problem { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, current: BoardSize, saved: Set[BoardSize]) -> None:
        """``current``: the size being played; ``saved``: the sizes with a saved game."""
        super().__init__()
        self.current = current
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical(classes="box") as box:
            box.border_title = "Board size (Esc closes)"
            yield Static(
                "Each size keeps its own game, best score and statistics: a game left on one "
                "size waits there. The size being played starts a new game.",
                markup=False,
            )
            yield OptionList(*(Option(self._describe(s), id=str(s)) for s in SQUARES))
            yield Input(
                placeholder=f"or type rows x columns ({MIN_SIDE} to {MAX_SIDE}), like 4x6",
                id="size-input",
            )
            yield Static(id="size-problem", markup=False)

    def _describe(self, size: BoardSize) -> str:
        notes = []
        if size == self.current:
            notes.append("playing now: a new game")
        elif size in self.saved:
            notes.append("a saved game")
        if size.max_tile < WIN_TILE:
            notes.append(f"tiles up to {size.max_tile}, no 2048")
        return f"{size}" + (f"  ({', '.join(notes)})" if notes else "")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.current in SQUARES:
            options.highlighted = SQUARES.index(self.current)
        else:
            self.query_one(Input).value = str(self.current)
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(SQUARES[event.option_index])

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            size = parse_size(event.value, "the size")
        except ValueError as exc:
            self.query_one("#size-problem", Static).update(f"{exc}.")
            return
        self.dismiss(size)

    def action_close(self) -> None:
        self.dismiss(None)
