"""A labelled score: the current score (with what the last move added) or the best score."""

from __future__ import annotations

from textual.app import RenderResult
from textual.reactive import reactive
from textual.widget import Widget


class ScoreBox(Widget):
    DEFAULT_CSS = """
    ScoreBox {
        height: 3;
        border: round $primary;
        padding: 0 1;
    }
    """

    value: reactive[int] = reactive(0)
    gain: reactive[int] = reactive(0)
    """Points the last move scored, shown as "+N" after the value; 0 shows nothing."""

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = label

    def render(self) -> RenderResult:
        gain = f"  [$success]+{self.gain:,}[/]" if self.gain else ""
        return f"[b]{self.value:,}[/b]{gain}"
