"""The rule book's four mistakes, and which of them a graded move matches.

A review (:mod:`py2048.solver.reviewer`) matches every move graded inaccuracy or worse, in this
order, against the four mistakes the rule book warns of: the largest tile left its corner where
the best move kept it there ("using all four directions"); a 2 or 4 ended walled in by tiles
of :data:`TRAPPING_TILE` or more where the best move left none so ("a trapped small tile"); the
move scored more at once than the best move ("rushing at every merge"); :data:`NEARLY_FULL` or
fewer cells were empty ("playing fast on a nearly full board"). The same rules hold on every
board size (:func:`grid_strategy_mistake`: the corners are the size's own). The definitions
load without the search, so the web API can name the mistakes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from py2048.engine import Direction, grid
from py2048.engine.board import ROW_TABLES, move, unpack_exponents
from py2048.engine.size import DEFAULT_SIZE, BoardSize

NEARLY_FULL = 3
"""Empty cells at or below which a board is nearly full (the rule book's fourth mistake)."""
TRAPPING_TILE = 32
"""A 2 or 4 is trapped when every neighbour is a tile of at least this (as /strategy counts)."""
_SMALL_EXPONENTS = (1, 2)


@dataclass(frozen=True)
class StrategyMistake:
    """One of the four mistakes the rule book warns of, as a review names it."""

    name: str
    rule: str
    """The mistake as the rule book lists it, in our words."""
    says: str
    """What the move did that matches it."""
    link: str
    """The paragraph of the "2048 strategy" page about it."""


STRATEGY_MISTAKES: dict[str, StrategyMistake] = {
    mistake.name: mistake
    for mistake in (
        StrategyMistake(
            "corner",
            "Using all four directions freely",
            "your largest tile left its corner, where the better move kept it",
            "/strategy#directions",
        ),
        StrategyMistake(
            "trapped",
            "Letting a small tile get trapped",
            "a 2 or 4 ended walled in by tiles of 32 or more, which the better move avoided",
            "/strategy#trapped",
        ),
        StrategyMistake(
            "merge",
            "Rushing at every merge",
            "the move scored more at once than the better move, and cost more later",
            "/strategy#merges",
        ),
        StrategyMistake(
            "full",
            "Playing fast when the board is nearly full",
            f"it came with {NEARLY_FULL} or fewer empty cells, where one hasty move is hard "
            "to take back",
            "/strategy#slow",
        ),
    )
}
"""The rule book's four mistakes, in the order a move is matched against them."""


def strategy_mistake(
    lo: int, hi: int, played: Direction, best: Direction
) -> StrategyMistake | None:
    """The first of the rule book's mistakes the move matches (None when none does)."""
    before = unpack_exponents(lo, hi)
    played_lo, played_hi, played_gain = move(np.uint64(lo), np.uint64(hi), played, ROW_TABLES)
    best_lo, best_hi, best_gain = move(np.uint64(lo), np.uint64(hi), best, ROW_TABLES)
    after_played = unpack_exponents(int(played_lo), int(played_hi))
    after_best = unpack_exponents(int(best_lo), int(best_hi))
    return _matched(
        DEFAULT_SIZE, before, (after_played, int(played_gain)), (after_best, int(best_gain))
    )


def grid_strategy_mistake(
    exponents: list[int], size: BoardSize, played: Direction, best: Direction
) -> StrategyMistake | None:
    """:func:`strategy_mistake` on a board of any ``size`` (row-major exponents)."""
    cells = np.array(exponents, dtype=np.uint8)
    after = []
    for direction in (played, best):
        out = grid.new_cells(size)
        gain, _ = grid.slide_into(cells, size.rows, size.cols, int(direction), out)
        if gain < 0:
            gain = grid.gain_of(exponents, size, int(direction))
        after.append((out.tolist(), int(gain)))
    return _matched(size, list(exponents), after[0], after[1])


def _matched(
    size: BoardSize,
    before: list[int],
    played: tuple[list[int], int],
    best: tuple[list[int], int],
) -> StrategyMistake | None:
    (after_played, played_gain), (after_best, best_gain) = played, best
    largest = max(before)
    if (
        _holds_corner(before, largest, size)
        and not _holds_corner(after_played, largest, size)
        and _holds_corner(after_best, largest, size)
    ):
        return STRATEGY_MISTAKES["corner"]
    trapped = _trapped(after_played, size)
    if trapped > _trapped(before, size) and trapped > _trapped(after_best, size):
        return STRATEGY_MISTAKES["trapped"]
    if played_gain > best_gain:
        return STRATEGY_MISTAKES["merge"]
    if before.count(0) <= NEARLY_FULL:
        return STRATEGY_MISTAKES["full"]
    return None


def _corners(size: BoardSize) -> tuple[int, ...]:
    rows, cols = size
    return (0, cols - 1, (rows - 1) * cols, rows * cols - 1)


def _holds_corner(exponents: list[int], at_least: int, size: BoardSize) -> bool:
    return any(exponents[cell] >= at_least for cell in _corners(size))


def _trapped(exponents: list[int], size: BoardSize) -> int:
    """How many 2s and 4s have only tiles of TRAPPING_TILE or more around them."""
    floor = TRAPPING_TILE.bit_length() - 1
    rows, cols = size
    count = 0
    for cell, exponent in enumerate(exponents):
        if exponent not in _SMALL_EXPONENTS:
            continue
        row, col = divmod(cell, cols)
        neighbours = [
            exponents[r * cols + c]
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < rows and 0 <= c < cols
        ]
        count += all(e >= floor for e in neighbours)
    return count
