"""An independent, deliberately plain implementation of one move, used as the tests' oracle."""

from __future__ import annotations

import numpy as np


def slide_row_left(row: list[int], largest: int = 131072) -> tuple[list[int], int]:
    """Slide one row of tile values left: pair equal tiles from the left edge, once each.

    The row may have any length; two tiles of ``largest`` (the board's largest tile: 131072
    on 4x4, ``2 ** (cells + 1)`` on any size) do not merge.
    """
    tiles = [v for v in row if v]
    out: list[int] = []
    gain = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < largest:
            out.append(tiles[i] * 2)
            gain += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(row) - len(out)), gain


def transpose(board: list[list[int]]) -> list[list[int]]:
    return [list(col) for col in zip(*board, strict=True)]


def mirror(board: list[list[int]]) -> list[list[int]]:
    return [row[::-1] for row in board]


def reference_slide(
    board: list[list[int]], direction: str, largest: int | None = None
) -> tuple[list[list[int]], int]:
    """The board after sliding ``direction`` (no spawn) and the score gained.

    The board may have any shape; ``largest`` is its largest tile, ``2 ** (cells + 1)`` unless
    given (131072 on 4x4).
    """
    if largest is None:
        largest = 2 ** (len(board) * len(board[0]) + 1)
    if direction == "left":
        rows = [slide_row_left(list(r), largest) for r in board]
        return [r for r, _ in rows], sum(g for _, g in rows)
    if direction == "right":
        moved, gain = reference_slide(mirror(board), "left", largest)
        return mirror(moved), gain
    if direction == "up":
        moved, gain = reference_slide(transpose(board), "left", largest)
        return transpose(moved), gain
    moved, gain = reference_slide(transpose(board), "right", largest)
    return transpose(moved), gain


def symmetries(board: list[list[int]]) -> list[list[list[int]]]:
    """The board's 8 images under rotations and reflections."""
    grid = np.array(board)
    turns = [np.rot90(grid, k) for k in range(4)]
    return [t.tolist() for t in turns + [np.fliplr(t) for t in turns]]
