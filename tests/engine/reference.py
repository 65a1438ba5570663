"""An independent, deliberately plain implementation of one move, used as the tests' oracle."""

from __future__ import annotations

import numpy as np


def slide_row_left(row: list[int]) -> tuple[list[int], int]:
    """Slide one row of tile values left: pair equal tiles from the left edge, once each."""
    tiles = [v for v in row if v]
    out: list[int] = []
    gain = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < 131072:
            out.append(tiles[i] * 2)
            gain += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out)), gain


def transpose(board: list[list[int]]) -> list[list[int]]:
    return [list(col) for col in zip(*board, strict=True)]


def mirror(board: list[list[int]]) -> list[list[int]]:
    return [row[::-1] for row in board]


def reference_slide(board: list[list[int]], direction: str) -> tuple[list[list[int]], int]:
    """The board after sliding ``direction`` (no spawn) and the score gained."""
    if direction == "left":
        rows = [slide_row_left(list(r)) for r in board]
        return [r for r, _ in rows], sum(g for _, g in rows)
    if direction == "right":
        moved, gain = reference_slide(mirror(board), "left")
        return mirror(moved), gain
    if direction == "up":
        moved, gain = reference_slide(transpose(board), "left")
        return transpose(moved), gain
    moved, gain = reference_slide(transpose(board), "right")
    return transpose(moved), gain


def symmetries(board: list[list[int]]) -> list[list[list[int]]]:
    """The board's 8 images under rotations and reflections."""
    grid = np.array(board)
    turns = [np.rot90(grid, k) for k in range(4)]
    return [t.tolist() for t in turns + [np.fliplr(t) for t in turns]]
