"""The terminal game, ``2048 play``: a Textual app around the engine's Game.

Start-up decides which game to show: the saved one, or a new one for ``--new`` and ``--seed``
(the save stays untouched until the new game's first move). Unreadable saves are moved aside
and the player is told, on top of the new game.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import BindingType

from py2048.engine import Game
from py2048.engine.save import MAX_MOVES
from py2048.solver.warmup import warm_up_in_background
from py2048.tui.advisor import Advisor, solver_advice
from py2048.tui.keys import APP_KEYS
from py2048.tui.screens.game import GameScreen
from py2048.tui.screens.help import HelpScreen
from py2048.tui.session import Session
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
        advisor: Advisor = solver_advice,
    ) -> None:
        """``data_dir``: where saves live (default: see ``storage.default_data_dir``).

        ``seed`` starts a reproducible new game; ``new`` a random one. Either way the save is
        kept until the new game's first move. A bad seed raises ValueError here, before the
        terminal is taken over.
        """
        super().__init__()
        self.storage = Storage(data_dir if data_dir is not None else default_data_dir())
        self.advisor = advisor
        self.fresh_game = Game(seed) if seed is not None or new else None

    def get_default_screen(self) -> GameScreen:
        notices: list[tuple[str, str]] = []
        before: int | None
        best_score, unreadable = self.storage.load_best_score()
        if unreadable:
            message = f"{unreadable.message} The best score starts again."
            notices.append(("Best score could not be read", message))
        if self.fresh_game is not None:
            game, before = self.fresh_game, best_score
            session = Session(
                self.storage, game, best_score, resumed=False, best_before_game=before
            )
        else:
            saved, unreadable = self.storage.load_game()
            if unreadable:
                message = f"{unreadable.message} A new game starts."
                notices.append(("Saved game could not be read", message))
            game = saved or Game()
            if game.moves >= MAX_MOVES:
                message = (
                    f"This saved game has made {MAX_MOVES} moves, the most a game can hold, so "
                    "it cannot move again. Press N for a new game."
                )
                notices.append(("This game cannot go on", message))
            before = self.storage.load_best_before_game() if saved is not None else best_score
            session = Session(
                self.storage, game, best_score, resumed=saved is not None, best_before_game=before
            )
        return GameScreen(session, self.advisor, notices)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.storage.directory))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"


def run(seed: int | None = None, new: bool = False) -> int:
    """Play in this terminal; returns the exit code."""
    app = Py2048App(seed=seed, new=new)
    warm_up_in_background()
    app.run()
    return app.return_code or 0
