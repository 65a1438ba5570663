"""The solver's panel: the advised move and what each move is worth, in a player's words, and
the autoplay state. Every word the terminal game says about a hint is here.

The search values each legal direction by the points the game is still expected to score after
it, so the game's score plus that value is the final score the move leads to. Each move is
graded as a review grades it, by the share of the best move's value it gives up.
"""

from __future__ import annotations

from textual.app import RenderResult
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from py2048.solver.grades import grade_values
from py2048.solver.presets import DEFAULT_PRESET
from py2048.tui.advisor import Advice
from py2048.tui.palette import ARROWS

GRADE_STYLES = {
    "best": "",
    "good": "$success",
    "inaccuracy": "$warning",
    "mistake": "$warning",
    "blunder": "$error",
}


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
    advice: reactive[Advice | None] = reactive(None, layout=True)
    score: reactive[int] = reactive(0)
    """The game's score on the board the advice is for."""
    thinking: reactive[bool] = reactive(False, layout=True)
    problem: reactive[str | None] = reactive(None, layout=True)
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

    def show(self, advice: Advice, score: int) -> None:
        """Show ``advice`` for a board whose game has scored ``score``."""
        self.score = score
        self.advice = advice

    def render(self) -> RenderResult:
        lines: list[Content] = []
        if self.problem:
            lines.append(Content.styled(self.problem, "$error"))
        elif self.advice is not None:
            lines += advice_lines(self.advice, self.score)
        elif self.thinking:
            lines.append(Content.styled("Thinking…", "italic"))
        else:
            lines.append(Content("I: hint   P: autoplay"))
        level, levels = self.speed
        state = "on " if self.autoplay else "off"
        lines.append(Content(f"Autoplay {state} {'▮' * level}{'▯' * (levels - level)}"))
        return Content("\n").join(lines)


def advice_lines(advice: Advice, score: int) -> list[Content]:
    """The advice as the panel says it: the best move, then each legal move's grade in the
    review's words (best, good, inaccuracy, mistake, blunder, by the review's thresholds) beside
    its figure, then who answered. The search's figure is the final score the move leads to, as
    is perfect play's (``source`` "perfect", on 3x3: the exact expected final score); the
    heuristic's (the evaluation of every size but 4x4) is its own value, in no unit a player
    knows, so it is shown as it is; an endgame table's (``source`` "table") the chance of
    building its tile."""
    if advice.direction is None:
        return [Content("No move left")]
    by_table = getattr(advice, "source", "search") == "table"
    perfect = getattr(advice, "source", "search") == "perfect"
    if by_table:
        target = getattr(advice, "table_target", None)
        figure_of = {d: round(value * 100, 1) for d, value in advice.values.items()}
        heading = f"Chance of making {target}:"
        show = "{:.1f}%".format
    elif getattr(advice, "evaluator", None) == "heuristic" and not perfect:
        figure_of = {d: round(value) for d, value in advice.values.items()}
        heading = "Solver's value of each:"
        show = "{:,}".format
    else:
        figure_of = {d: round(score + value) for d, value in advice.values.items()}
        heading = "Final score after each:"
        show = "{:,}".format
    lines = [
        Content.styled(f"Best move: {ARROWS[advice.direction]} {advice.direction}", "bold"),
        Content.styled(heading, "dim"),
    ]
    ranked = sorted(advice.values, key=lambda d: (d == advice.direction, advice.values[d]))
    figures = {direction: show(figure_of[direction]) for direction in reversed(ranked)}
    width = max(len(figure) for figure in figures.values())
    grades = grade_values({str(d): v for d, v in advice.values.items()})
    for direction, figure in figures.items():
        grade = grades[str(direction)]
        style = "bold $success" if direction == advice.direction else GRADE_STYLES[grade]
        line = f"{ARROWS[direction]} {direction!s:<5} {figure:>{width}}  {grade}"
        lines.append(Content.styled(line, style))
    depth = getattr(advice, "depth", None)
    elapsed = getattr(advice, "elapsed_ms", None)
    if by_table:
        lines.append(Content.styled("from an endgame table", "dim"))
    elif perfect:
        lines.append(Content.styled("perfect play (exact values)", "dim"))
    elif depth is not None and depth >= 0 and elapsed is not None:
        ahead = depth + 1
        moves = "move" if ahead == 1 else "moves"
        lines.append(Content.styled(f"{ahead} {moves} ahead, {elapsed:.1f} ms", "dim"))
    return lines
