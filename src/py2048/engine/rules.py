"""The rules as plain functions on lists of tiles: the public face of the compiled kernels.

A board is a list of rows of tile values, top to bottom, 0 for empty; its shape is its size
(3 to 8 rows of 3 to 8 tiles; 4x4 goes through the packed fast path).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from py2048.engine import grid
from py2048.engine.board import ROW_TABLES, move, pack, unpack
from py2048.engine.board import can_move as _can_move
from py2048.engine.direction import Direction

Board = list[list[int]]


def slide(
    board: Sequence[Sequence[int]], direction: Direction | str | int
) -> tuple[Board, int, bool]:
    """Slide ``board`` one way, without spawning: ``(new_board, gain, moved)``.

    ``board`` is rows of tile values, top to bottom, 0 for empty (any size from 3x3 to 8x8);
    ``direction`` is "up", "down", "left", "right" or a :class:`Direction`. ``gain`` is the
    sum of the tiles the merges created; ``moved`` says whether anything changed. The input is
    not modified. Raises ValueError (BoardError) for a board that is not a 2048 board.
    """
    d = Direction.parse(direction)
    if not _classic(board):
        size, exponents = grid.read_board(board)
        cells = np.array(exponents, dtype=np.uint8)
        out = grid.new_cells(size)
        gain, moved = grid.slide_into(cells, size.rows, size.cols, int(d), out)
        if gain < 0:
            gain = grid.gain_of(exponents, size, int(d))
        return grid.tiles(out.tolist(), size), gain, moved
    lo, hi = pack(board)
    # u8 words: see board.py
    new_lo, new_hi, gain = move(lo, hi, int(d), ROW_TABLES)  # type: ignore[arg-type]
    moved = (int(new_lo), int(new_hi)) != (lo, hi)
    return unpack(new_lo, new_hi), int(gain), moved  # type: ignore[arg-type]


def can_move(board: Sequence[Sequence[int]]) -> bool:
    """False exactly when the board is full and no two orthogonal neighbours are equal."""
    if not _classic(board):
        size, exponents = grid.read_board(board)
        return bool(grid.can_move(np.array(exponents, dtype=np.uint8), size.rows, size.cols))
    lo, hi = pack(board)
    return bool(_can_move(lo, hi, ROW_TABLES))  # type: ignore[arg-type]  # u8: see board.py


def _classic(board: object) -> bool:
    """Whether ``board`` has the 4x4 shape (then the packed kernels and their messages apply).

    Anything that is not rows of tiles counts as 4x4, so that the 4x4 reader says what is wrong.
    """
    if isinstance(board, np.ndarray):
        return bool(board.shape == (4, 4))
    if isinstance(board, (str, bytes)) or not isinstance(board, Sequence):
        return True
    return len(board) == 4 and all(
        not isinstance(row, (Sequence, np.ndarray)) or len(row) == 4 for row in board
    )
