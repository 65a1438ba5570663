"""Dialogs over the board: win banner, game over, New game confirmation, save problems.

Each is dismissed with the id of the choice made (or None), which the game screen acts on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from py2048.tui.screens.box import BoxScreen

KEEP_GOING = "keep-going"
NEW_GAME = "new-game"
REVIEW = "review"
UNDO = "undo"
CANCEL = "cancel"


class Dialog(BoxScreen[str | None]):
    """A centred box: a title, a message and a row of buttons."""

    DEFAULT_CSS = """
    Dialog > .box { width: 60; padding: 1 2; }
    Dialog .title { width: 100%; text-style: bold; text-align: center; }
    Dialog .message { width: 100%; margin: 1 0; text-align: center; }
    Dialog Horizontal { height: auto; align: center middle; }
    Dialog Button { margin: 0 1; }
    NoticeScreen .message { text-align: left; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, title: str, message: str, choices: Sequence[tuple[str, str]]) -> None:
        """``choices``: (id, label) for each button, the default choice (focused, so Enter
        chooses it) first."""
        super().__init__()
        self.title_text = title
        self.message = message
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(self.title_text, classes="title", markup=False)
            yield Static(self.message, classes="message", markup=False)
            with Horizontal():
                for index, (choice, label) in enumerate(self.choices):
                    variant: ButtonVariant = "primary" if index == 0 else "default"
                    yield Button(label, id=choice, variant=variant)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)


class WinScreen(Dialog):
    """The win banner: Keep going (when a move is left) or New game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", f"choose('{KEEP_GOING}')", "Keep going"),
        Binding("n", f"choose('{NEW_GAME}')", "New game"),
    ]

    def __init__(self, score: int, *, can_keep_going: bool) -> None:
        message = f"You made 2048! Score: {score:,}."
        choices = [(NEW_GAME, "New game (N)")]
        if can_keep_going:
            message += " Keep going for 4096 and beyond?"
            choices.insert(0, (KEEP_GOING, "Keep going (K)"))
        else:
            message += " No move is left on the board."
        super().__init__("You win!", message, choices)


class GameOverScreen(Dialog):
    """No move is left: the final score, then New game, the review of the game, or a last look
    at the board (U takes the last move back in practice mode)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", f"choose('{NEW_GAME}')", "New game"),
        Binding("r", f"choose('{REVIEW}')", "Review"),
        Binding("u,ctrl+z", f"choose('{UNDO}')", "Undo", show=False),
        Binding("escape", "choose(None)", "Look at the board"),
    ]

    def __init__(self, score: int, best_score: int, *, practice: bool = False) -> None:
        message = f"Final score: {score:,}    Best: {best_score:,}"
        if practice:
            message += "\nA practice game (Undo was used): it does not count for the best score."
        super().__init__(
            "Game over",
            message,
            [
                (NEW_GAME, "New game (N)"),
                (REVIEW, "Review (R)"),
                ("look", "Board (Esc)"),
            ],
        )


class ConfirmNewGameScreen(Dialog):
    """Asked before a New game would throw away a game in progress. Keeping the game is the
    default (Enter), as in the browser: only Y or the New game button throws it away."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", f"choose('{NEW_GAME}')", "Yes"),
        Binding("n,escape", "choose(None)", "No"),
    ]

    def __init__(self, score: int) -> None:
        super().__init__(
            "Start a new game?",
            f"The game in progress (score {score:,}) will be lost.\n"
            "(B plays another board size instead, and keeps this game.)",
            [(CANCEL, "Keep playing (N)"), (NEW_GAME, "New game (Y)")],
        )


class NoticeScreen(Dialog):
    """Tells the player something went wrong with a save, and what was done about it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "choose(None)", "OK")]

    def __init__(self, title: str, message: str) -> None:
        super().__init__(title, message, [("ok", "OK")])
