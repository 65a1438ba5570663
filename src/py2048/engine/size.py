"""Board sizes: the one home of what a size is and what follows from it.

A board has ``rows`` rows and ``cols`` columns, each from :data:`MIN_SIDE` to :data:`MAX_SIDE`
(rectangles too); 4x4 (:data:`DEFAULT_SIZE`) is the classic game and the default everywhere.
The rules are the same on every size. Only what follows from the number of cells changes: a
board of ``n`` cells can make tiles up to ``2 ** (n + 1)`` (each of the other ``n - 1`` cells
holds one step of the ladder below it, and the last spawn is a 4), so 4x4 stops at 131072,
3x3 at 1024 (a 3x3 game can never make 2048), and 8x8 at ``2 ** 65``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from py2048.engine.integers import is_integer

MIN_SIDE = 3
MAX_SIDE = 8


class BoardSize(NamedTuple):
    """A board's shape: ``rows`` by ``cols``. Written ``"5x5"`` or ``"4x6"`` (rows first)."""

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def max_exponent(self) -> int:
        """The largest tile's exponent on this size: the number of cells plus one."""
        return self.cells + 1

    @property
    def max_tile(self) -> int:
        return 1 << self.max_exponent

    @property
    def classic(self) -> bool:
        """True for 4x4, which has its own packed fast path."""
        return self == DEFAULT_SIZE

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"


DEFAULT_SIZE = BoardSize(4, 4)
SIZES: tuple[BoardSize, ...] = tuple(
    BoardSize(r, c) for r in range(MIN_SIDE, MAX_SIDE + 1) for c in range(MIN_SIDE, MAX_SIDE + 1)
)
"""Every size py2048 plays, row counts first."""

_WRITTEN = re.compile(r"\s*([0-9]+)\s*[xX×]\s*([0-9]+)\s*")


def parse_size(value: object, name: str = "size") -> BoardSize:
    """A size from ``"5x5"``, ``"4x6"``, a single side ``5`` (square), or ``(rows, cols)``.

    Raises ValueError naming ``name`` and saying what a size must be.
    """
    rows: object
    cols: object
    if isinstance(value, BoardSize):
        rows, cols = value
    elif isinstance(value, str):
        match = _WRITTEN.fullmatch(value)
        if match is None:
            if value.strip().isdigit():
                rows = cols = int(value)
            else:
                raise ValueError(
                    f"{name} {value!r} is not a board size: write rows x columns, like 4x4 or 5x6"
                )
        else:
            rows, cols = int(match.group(1)), int(match.group(2))
    elif is_integer(value):
        rows = cols = int(value)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        rows, cols = value
    else:
        raise ValueError(f'{name} must be rows x columns (like "5x5" or (5, 5)), got {value!r}')
    if not (is_integer(rows) and is_integer(cols)):
        raise ValueError(f"{name} must be two whole numbers (rows, columns), got {value!r}")
    rows, cols = int(rows), int(cols)
    for side, what in ((rows, "rows"), (cols, "columns")):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(
                f"{name} {rows}x{cols}: {what} must be from {MIN_SIDE} to {MAX_SIDE}, got {side}"
            )
    return BoardSize(rows, cols)
