"""The help screen: the rules in two lines and every key."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from py2048.tui.keys import APP_KEYS, GAME_KEYS, key_labels

RULES = (
    "Slide all tiles with one key; two equal tiles that meet merge into their sum, which is "
    "added to the score. Make a 2048 tile to win, then keep going if you like."
)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 78;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    HelpScreen Static { margin: 0 0 1 0; }
    HelpScreen DataTable { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,enter", "app.pop_screen", "Close", show=False)
    ]

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.data_dir = data_dir

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "2048: help (Esc closes)"
            yield Static(RULES, markup=False)
            table: DataTable[str] = DataTable(show_cursor=False, zebra_stripes=True)
            table.add_columns("Keys", "Does")
            for key in GAME_KEYS + APP_KEYS:
                table.add_row(key_labels(key), key.help)
            yield table
            yield Static(f"Saves are kept in {self.data_dir}", markup=False)
