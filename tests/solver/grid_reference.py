"""A slow, obviously correct expectimax in plain Python on boards of any size, to check the
compiled search of :mod:`py2048.solver.grid_search` against."""

from __future__ import annotations

import numpy as np

from py2048.engine.direction import Direction
from py2048.engine.grid import read_board
from py2048.engine.rules import slide
from py2048.evaluation.lines import LineEvaluation

Board = list[list[int]]


def evaluate(board: Board, evaluation: LineEvaluation) -> float:
    _, exponents = read_board(board)
    return evaluation(np.array(exponents, dtype=np.uint8))


def chance_value(
    board: Board, depth: int, evaluation: LineEvaluation, cprob: float, cutoff: float
) -> float:
    """Expected value of an afterstate: every spawn (a 2 at 0.9, a 4 at 0.1 on each empty
    cell), then the best move; a spawn less likely than ``cutoff``, or at the last level, is
    answered by the best reply's evaluation; a spawn after which nothing moves is worth its
    evaluation less the price of losing."""
    empties = [(r, c) for r, row in enumerate(board) for c, tile in enumerate(row) if tile == 0]
    total = 0.0
    for r, c in empties:
        for tile, p in ((2, 0.9), (4, 0.1)):
            spawned = [row[:] for row in board]
            spawned[r][c] = tile
            child_cprob = cprob * p / len(empties)
            at_leaf = depth <= 1 or child_cprob < cutoff
            replies = [
                evaluate(after, evaluation)
                if at_leaf
                else chance_value(after, depth - 1, evaluation, child_cprob, cutoff)
                for after, _, moved in (slide(spawned, d) for d in Direction)
                if moved
            ]
            if replies:
                best = max(replies)
            else:
                best = evaluate(spawned, evaluation) - evaluation.weights.lost_penalty
            total += p * best
    return total / len(empties)


def move_values(
    board: Board, depth: int, evaluation: LineEvaluation, cutoff: float = 0.0
) -> dict[Direction, float]:
    """Each legal direction's value at ``depth`` (dN = N + 1 player moves)."""
    values = {}
    for d in Direction:
        after, _, moved = slide(board, d)
        if moved:
            values[d] = (
                evaluate(after, evaluation)
                if depth == 0
                else chance_value(after, depth, evaluation, 1.0, cutoff)
            )
    return values
