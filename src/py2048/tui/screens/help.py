"""The help screen: the rules in two lines and every key, wrapped to the terminal's width."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, VerticalScroll
from textual.widgets import Static

from py2048.tui.keys import APP_KEYS, GAME_KEYS, key_labels
from py2048.tui.screens.box import BoxScreen

RULES = (
    "Slide all tiles with one key; two equal tiles that meet merge into their sum, which is "
    "added to the score. Make a 2048 tile to win, then keep going if you like. Boards of 3 to "
    "8 rows and columns (B): on 3x3 the largest tile possible is 1024, so that game is never won."
)


class HelpScreen(BoxScreen[None]):
    DEFAULT_CSS = """
    HelpScreen > .box { width: 78; max-height: 100%; padding: 0 1; }
    HelpScreen .paragraph { margin: 0 0 1 0; }
    HelpScreen Grid {
        grid-size: 2;
        grid-columns: 10 1fr;
        grid-gutter: 0 1;
        height: auto;
        margin: 0 0 1 0;
    }
    HelpScreen Grid Static { height: auto; }
    HelpScreen .keys { text-style: bold; color: $text-accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,enter", "app.pop_screen", "Close", show=False)
    ]

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.data_dir = data_dir

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box") as box:
            box.border_title = "2048: help (Esc closes)"
            yield Static(RULES, classes="paragraph", markup=False)
            with Grid():
                for key in GAME_KEYS + APP_KEYS:
                    yield Static(key_labels(key), classes="keys", markup=False)
                    yield Static(key.help, classes="does", markup=False)
            yield Static(f"Saves are kept in {self.data_dir}", classes="paragraph", markup=False)
