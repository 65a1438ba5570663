"""What a game review grades by: its settings and the grade thresholds; and how a review is
stopped before it is done (:class:`ReviewCancelled`). The rule book's mistakes a review names
are :mod:`py2048.solver.mistakes`'.

The definitions only, with nothing compiled, so that the command line and the web API can name
the settings without loading the search; :mod:`py2048.solver.reviewer` does the grading and
explains every figure.
"""

from __future__ import annotations

from dataclasses import dataclass

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes of a move, best first."""
GOOD_LIMIT = 0.01
INACCURACY_LIMIT = 0.05
MISTAKE_LIMIT = 0.20
"""A move is good below GOOD_LIMIT of relative loss, an inaccuracy below INACCURACY_LIMIT, a
mistake below MISTAKE_LIMIT, and a blunder from there."""
ACCURACY_ZERO = 0.05
"""The relative loss at which a move's accuracy reaches 0."""
TIE = 1e-9
"""Values closer than this share of the best are the same value."""
COSTLIEST = 5
"""How many of the costliest moves a review lists."""


def relative_loss(best_value: float, value: float) -> tuple[float, float]:
    """(loss, relative loss) of a move worth ``value`` where the best is worth ``best_value``:
    the loss is what it gives up, 0 for a tie; the relative loss is the loss as a share of the
    best value (1 where nothing was left to lose, at most 1)."""
    loss = best_value - value
    if loss <= TIE * max(1.0, abs(best_value)):
        return 0.0, 0.0
    if best_value > 0.0:
        return loss, min(1.0, loss / best_value)
    return loss, 1.0


def grade_of(loss: float, relative: float) -> str:
    """The grade (one of :data:`GRADES`) of a move that gives up ``loss`` (``relative`` of the
    best): the review's words, which a hint uses too."""
    if loss == 0.0:
        return "best"
    if relative < GOOD_LIMIT:
        return "good"
    if relative < INACCURACY_LIMIT:
        return "inaccuracy"
    if relative < MISTAKE_LIMIT:
        return "mistake"
    return "blunder"


def grade_values(values: dict[str, float]) -> dict[str, str]:
    """The grade of every move of ``values`` (each legal move's value, in one unit) against the
    best of them."""
    if not values:
        return {}
    best_value = max(values.values())
    return {name: grade_of(*relative_loss(best_value, value)) for name, value in values.items()}


class ReviewCancelled(Exception):
    """A review stopped before it was done because whoever asked for it left (the player closed
    it in the terminal, the page's client went away): a review's progress callback raises it,
    and :func:`py2048.solver.review` lets it through."""


@dataclass(frozen=True)
class ReviewSetting:
    """How deep the review searches each position (dN looks N + 1 moves ahead)."""

    name: str
    depth: int
    summary: str


REVIEW_SETTINGS: dict[str, ReviewSetting] = {
    setting.name: setting
    for setting in (
        ReviewSetting("quick", 1, "d1: about 0.15 s for a 5,000-move game"),
        ReviewSetting("standard", 2, "d2, the default: about 1.1 s for a 5,000-move game"),
        ReviewSetting("deep", 3, "d3: about 6 s for a 5,000-move game"),
    )
}
"""Every review setting by name, quickest first."""
DEFAULT_SETTING = "standard"
