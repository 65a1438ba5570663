"""Every key of the terminal game, in one table that feeds both the bindings and the help screen.

Moves follow the original game: arrows, W/A/S/D and vim's H/J/K/L. Move keys held with Ctrl,
Alt or Shift are not bound, so they do nothing, as in the original.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

from py2048.solver.presets import describe_presets


@dataclass(frozen=True, slots=True)
class Key:
    keys: str
    """Textual key names, comma-separated."""
    action: str
    help: str
    footer: str | None = None
    """Short label in the footer; None keeps the key out of the footer."""

    def binding(self) -> Binding:
        return Binding(
            self.keys, self.action, self.footer or self.help, show=self.footer is not None
        )


GAME_KEYS: tuple[Key, ...] = (
    Key("up,w,k", "move('up')", "Move up"),
    Key("right,d,l", "move('right')", "Move right"),
    Key("down,s,j", "move('down')", "Move down"),
    Key("left,a,h", "move('left')", "Move left"),
    Key("n", "new_game", "New game (asks first while a game is in progress)", "New game"),
    Key(
        "b",
        "choose_size",
        "Board size: 3x3 to 8x8 and rectangles (each keeps its own game, best score and "
        "statistics)",
    ),
    Key("r", "new_game_or_review", "New game; after game over, its review (every move graded)"),
    Key("u,ctrl+z", "undo", "Undo the last move, as many as you like (practice mode only)"),
    Key("z", "toggle_practice", "Practice mode on / off (a game with Undo sets no best score)"),
    Key("i", "hint", "Hint: the best move, each move graded beside its final score", "Hint"),
    Key("p", "autoplay", "Autoplay on / off; any move key takes over", "Autoplay"),
    Key("plus,equals_sign", "autoplay_speed(1)", "Autoplay faster"),
    Key("minus", "autoplay_speed(-1)", "Autoplay slower"),
    Key("escape", "stop_autoplay", "Stop autoplay"),
    Key("m", "next_strength", f"Solver strength: {describe_presets(limits=False)}"),
    Key("g", "records", "Statistics and past games (open any in the review)"),
)

APP_KEYS: tuple[Key, ...] = (
    Key("question_mark,f1", "help", "Show this help", "Help"),
    Key("t", "toggle_theme", "Light / dark theme"),
    Key("q", "quit", "Quit (so does Ctrl+Q); the game is saved after every move", "Quit"),
)

_KEY_LABELS = {
    "up": "↑",
    "right": "→",
    "down": "↓",
    "left": "←",
    "plus": "+",
    "equals_sign": "=",
    "minus": "-",
    "question_mark": "?",
    "escape": "Esc",
    "f1": "F1",
    "ctrl+q": "Ctrl+Q",
    "ctrl+z": "Ctrl+Z",
}


def key_labels(key: Key) -> str:
    """The keys as a player reads them, for example ``↑ W K``."""
    return " ".join(_KEY_LABELS.get(name, name.upper()) for name in key.keys.split(","))
