"""A slow, obviously correct expectimax in plain Python, to check the compiled search against."""

from __future__ import annotations

from py2048.engine.board import pack, pack_exponents
from py2048.engine.direction import Direction
from py2048.engine.rules import slide
from py2048.evaluation.contract import Evaluator

Board = list[list[int]]


def evaluate(board: Board, evaluator: Evaluator) -> float:
    exponents = [tile.bit_length() - 1 if tile else 0 for row in board for tile in row]
    return evaluator(*pack_exponents(exponents))


def lost_value(board: Board, evaluator: Evaluator) -> float:
    """A lost position: 0, or its evaluation minus the penalty when the evaluator has one."""
    if evaluator.lost_penalty == 0:
        return 0.0
    return evaluate(board, evaluator) - evaluator.lost_penalty


def cornered(board: Board) -> tuple[int, int] | None:
    """Where the largest tile is, if in a corner (its first cell in reading order)."""
    cells = [(r, c) for r in range(4) for c in range(4)]
    r, c = max(cells, key=lambda rc: (board[rc[0]][rc[1]], -cells.index(rc)))
    return (r, c) if r in (0, 3) and c in (0, 3) else None


def chance_value(
    board: Board,
    depth: int,
    evaluator: Evaluator,
    cprob: float = 1.0,
    cutoff: float = 0.0,
    keep_corner: bool = True,
) -> float:
    """Expected value of an afterstate: every spawn, then the best move.

    A spawn reached with probability below ``cutoff`` is answered by the best reply's
    evaluation, without searching further. A reply that would be searched but takes the
    largest tile out of its corner is judged by its evaluation instead (unless not
    ``keep_corner``: then every reply is searched).
    """
    if depth == 0:
        return evaluate(board, evaluator)
    empties = [(r, c) for r in range(4) for c in range(4) if board[r][c] == 0]
    total = 0.0
    for r, c in empties:
        for tile, p in ((2, 0.9), (4, 0.1)):
            spawned = [row[:] for row in board]
            spawned[r][c] = tile
            child_cprob = cprob * p / len(empties)
            below = depth - 1 if child_cprob >= cutoff else 0
            corner = cornered(spawned) if below > 0 and keep_corner else None
            replies = [
                evaluator.gain_weight * gain
                + (
                    evaluate(after, evaluator)  # leaves the corner: judged, not searched
                    if corner and after[corner[0]][corner[1]] < spawned[corner[0]][corner[1]]
                    else chance_value(after, below, evaluator, child_cprob, cutoff, keep_corner)
                )
                for after, gain, moved in (slide(spawned, d) for d in Direction)
                if moved
            ]
            total += p * (max(replies) if replies else lost_value(spawned, evaluator))
    return total / len(empties)


def move_values(
    board: Board, depth: int, evaluator: Evaluator, cutoff: float = 0.0, keep_corner: bool = True
) -> dict[Direction, float]:
    """Each legal direction's value at ``depth`` (dN = N + 1 player moves), less the
    evaluator's baseline for the board, as hints report them."""
    shift = evaluator.baseline(*pack(board)) if evaluator.baseline else 0.0
    values = {}
    for d in Direction:
        after, gain, moved = slide(board, d)
        if moved:
            values[d] = (
                evaluator.gain_weight * gain
                + chance_value(after, depth, evaluator, 1.0, cutoff, keep_corner)
            ) - shift
    return values
