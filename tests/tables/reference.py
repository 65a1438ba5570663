"""A plain, independent expectimax over a formation's positions: the tests' oracle.

Boards are flat lists of 16 cells (cell = 4 * row + column) holding tile values, 0 for empty
and ``WALL`` for a fixed cell. Nothing here comes from py2048: the move is written out again
on lists, walls are a token that equals nothing but itself and never merges.
"""

from __future__ import annotations

from functools import cache

WALL = "W"
DIRECTIONS = ("up", "right", "down", "left")
SCALE = 65535


def _slide_left(line: list) -> list:
    tiles = [v for v in line if v != 0]
    out = []
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] != WALL:
            out.append(tiles[i] * 2)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out))


def slide(cells: list, direction: str) -> list:
    """The 16 cells after a move (no spawn)."""
    grid = [cells[4 * r : 4 * r + 4] for r in range(4)]
    if direction in ("up", "down"):
        grid = [list(column) for column in zip(*grid, strict=True)]
    if direction in ("right", "down"):
        grid = [_slide_left(row[::-1])[::-1] for row in grid]
    else:
        grid = [_slide_left(row) for row in grid]
    if direction in ("up", "down"):
        grid = [list(column) for column in zip(*grid, strict=True)]
    return [v for row in grid for v in row]


class Reference:
    """Exact expectimax to the end for one formation, memoised by board.

    ``quantized``: store every position's value as round(p * 65535) and compute from those, as
    the tables do (the same float64 formula, spawns summed over the free cells in increasing
    order); otherwise exact floats all the way.
    """

    def __init__(
        self,
        fixed: tuple[int, ...],
        target: int,
        target_cells: tuple[int, ...],
        quantized: bool,
        caps: tuple[int, ...] = (),
    ) -> None:
        self.fixed = fixed
        self.free = [c for c in range(16) if c not in fixed]
        self.target = target
        self.target_cells = target_cells
        self.caps = dict(zip(self.free, caps, strict=True)) if caps else {}
        self.quantized = quantized
        self.value = cache(self._value)

    def board(self, ranks: list[int]) -> tuple:
        """The board of a position given as one rank per free cell (increasing cell order)."""
        cells: list = [WALL if c in self.fixed else 0 for c in range(16)]
        for cell, rank in zip(self.free, ranks, strict=True):
            cells[cell] = (1 << rank) if rank else 0
        return tuple(cells)

    def direction_values(self, board: tuple) -> list[float]:
        """Per direction: the afterstate's value, or -1 if the move is not allowed."""
        out = []
        for direction in DIRECTIONS:
            after = slide(list(board), direction)
            if after == list(board) or any(after[c] != WALL for c in self.fixed):
                out.append(-1.0)
            else:
                out.append(self.afterstate(after))
        return out

    def afterstate(self, after: list) -> float:
        if any(after[c] == self.target for c in self.target_cells):
            return 1.0
        if any(after[c] == self.target for c in self.free):
            return 0.0
        if any(after[c] > cap for c, cap in self.caps.items()):
            return 0.0  # a tile above its cell's cap: outside the table
        empty = [c for c in self.free if after[c] == 0]
        total = 0.0
        for cell in empty:
            children = []
            for tile in (2, 4):
                child = list(after)
                child[cell] = tile
                children.append(self.value(tuple(child)))
            total += 0.9 * children[0] + 0.1 * children[1]
        return total / (len(empty) * (SCALE if self.quantized else 1))

    def _value(self, board: tuple) -> float:
        """A position's value: a stored integer if quantized, else a probability."""
        best = max(0.0, *self.direction_values(board))
        return int(best * SCALE + 0.5) if self.quantized else best
