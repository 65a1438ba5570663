"""The look of every screen shown over the board: one box, centred, with the accent border."""

from __future__ import annotations

from textual.screen import ModalScreen, ScreenResultType


class BoxScreen(ModalScreen[ScreenResultType]):
    """A modal screen showing one container of class ``box``; a subclass sets its width, height
    limit and padding. The help, the review and the dialogs share this rule, so they look alike."""

    DEFAULT_CSS = """
    BoxScreen { align: center middle; }
    BoxScreen > .box {
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
    }
    """
