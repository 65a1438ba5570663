"""The terminal game, ``2048 play``: a Textual app around the engine's Game.

Start-up decides which game to show: the saved one, or a new one for ``--new`` and ``--seed``
(the save stays untouched until the new game's first move). Unreadable saves are moved aside
and the player is told, on top of the new game. Each board size (``--size``, or B in the game)
keeps its own save, best score and statistics; without ``--size`` the game opens on the size
last played.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import BindingType

from py2048.engine import Game
from py2048.engine.size import BoardSize, parse_size
from py2048.solver.warmup import warm_up_in_background
from py2048.tui.advisor import Advisor, solver_advice
from py2048.tui.keys import APP_KEYS
from py2048.tui.screens.game import GameScreen
from py2048.tui.screens.help import HelpScreen
from py2048.tui.session import open_session
from py2048.tui.settings import Settings
from py2048.tui.storage import Storage, default_data_dir


class Py2048App(App[int]):
    TITLE = "2048"
    ENABLE_COMMAND_PALETTE = False
    """Every command has its own key (the help lists them); the footer keeps its room for them."""
    BINDINGS: ClassVar[list[BindingType]] = [key.binding() for key in APP_KEYS]

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        seed: int | None = None,
        new: bool = False,
        size: BoardSize | tuple[int, int] | str | None = None,
        advisor: Advisor = solver_advice,
    ) -> None:
        """``data_dir``: where saves live (default: see ``storage.default_data_dir``).

        ``seed`` starts a reproducible new game; ``new`` a random one. Either way the save is
        kept until the new game's first move. ``size`` is the board (``"5x5"``, ``(5, 5)``):
        its saved game, or a new one; without it, the size last played. A bad seed or size
        raises ValueError here, before the terminal is taken over.
        """
        super().__init__()
        directory = data_dir if data_dir is not None else default_data_dir()
        if size is None:
            size = Settings.load(directory).size
        self.board_size = parse_size(size, "size")
        self.storage = Storage(directory, self.board_size)
        self.advisor = advisor
        self.fresh_game = Game(seed, size=self.board_size) if seed is not None or new else None

    @property
    def directory(self) -> Path:
        return self.storage.directory

    def get_default_screen(self) -> GameScreen:
        session, notices = open_session(self.directory, self.board_size, self.fresh_game)
        return GameScreen(session, self.advisor, notices)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.storage.directory))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"


def run(seed: int | None = None, new: bool = False, size: BoardSize | str | None = None) -> int:
    """Play in this terminal; returns the exit code."""
    app = Py2048App(seed=seed, new=new, size=size)
    warm_up_in_background()
    app.run()
    return app.return_code or 0
