"""The solver's panel: the advised move, the expected value of each direction, autoplay state."""

from __future__ import annotations

from textual.app import RenderResult
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from py2048.engine import Direction
from py2048.solver.presets import DEFAULT_PRESET
from py2048.tui.advisor import Advice

ARROWS = {Direction.UP: "↑", Direction.RIGHT: "→", Direction.DOWN: "↓", Direction.LEFT: "←"}


class AdvicePanel(Widget):
    DEFAULT_CSS = """
    AdvicePanel {
        height: auto;
        min-height: 8;
        border: round $secondary;
        padding: 0 1;
    }
    """

    preset: reactive[str] = reactive(DEFAULT_PRESET)
    advice: reactive[Advice | None] = reactive(None)
    thinking: reactive[bool] = reactive(False)
    problem: reactive[str | None] = reactive(None)
    autoplay: reactive[bool] = reactive(False)
    speed: reactive[tuple[int, int]] = reactive((1, 1))
    """(level, number of levels) of the autoplay speed, drawn as a bar."""

    def watch_preset(self, preset: str) -> None:
        self.border_title = f"Solver: {preset}"

    def clear(self) -> None:
        """Forget advice given for an earlier board."""
        self.advice = None
        self.thinking = False
        self.problem = None

    def render(self) -> RenderResult:
        lines: list[Content] = []
        if self.problem:
            lines.append(Content.styled(self.problem, "$error"))
        elif self.advice is not None:
            lines += _advice_lines(self.advice)
        elif self.thinking:
            lines.append(Content.styled("Thinking…", "italic"))
        else:
            lines.append(Content("I: hint   P: autoplay"))
        level, levels = self.speed
        state = "on " if self.autoplay else "off"
        lines.append(Content(f"Autoplay {state} {'▮' * level}{'▯' * (levels - level)}"))
        return Content("\n").join(lines)


def _advice_lines(advice: Advice) -> list[Content]:
    if advice.direction is None:
        return [Content("No move left")]
    lines = [Content.styled(f"Advised: {ARROWS[advice.direction]} {advice.direction}", "bold")]
    ranked = sorted(advice.values.items(), key=lambda item: item[1], reverse=True)
    figures = {direction: f"{value:,.0f}" for direction, value in ranked}
    width = max(len(figure) for figure in figures.values())
    for direction, figure in figures.items():
        style = "bold $success" if direction == advice.direction else ""
        line = f"{ARROWS[direction]} {direction!s:<6}{figure:>{width}}"
        lines.append(Content.styled(line, style))
    return lines
