"""The rules as plain functions on 4x4 lists of tiles: the public face of the compiled kernels."""

from __future__ import annotations

from collections.abc import Sequence

from py2048.engine.board import ROW_TABLES, move, pack, unpack
from py2048.engine.board import can_move as _can_move
from py2048.engine.direction import Direction

Board = list[list[int]]


def slide(
    board: Sequence[Sequence[int]], direction: Direction | str | int
) -> tuple[Board, int, bool]:
    """Slide ``board`` one way, without spawning: ``(new_board, gain, moved)``.

    ``board`` is 4 rows of 4 tile values, top to bottom, 0 for empty; ``direction`` is "up",
    "down", "left", "right" or a :class:`Direction`. ``gain`` is the sum of the tiles the merges
    created; ``moved`` says whether anything changed. The input is not modified. Raises
    ValueError (BoardError) for a board that is not a 2048 board.
    """
    d = Direction.parse(direction)
    lo, hi = pack(board)
    # u8 words: see board.py
    new_lo, new_hi, gain = move(lo, hi, int(d), ROW_TABLES)  # type: ignore[arg-type]
    moved = (int(new_lo), int(new_hi)) != (lo, hi)
    return unpack(new_lo, new_hi), int(gain), moved  # type: ignore[arg-type]


def can_move(board: Sequence[Sequence[int]]) -> bool:
    """False exactly when the board is full and no two orthogonal neighbours are equal."""
    lo, hi = pack(board)
    return bool(_can_move(lo, hi, ROW_TABLES))  # type: ignore[arg-type]  # u8: see board.py
