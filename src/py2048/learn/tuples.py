"""Which cells the network looks at: n-tuples and their eight symmetric placements.

An n-tuple is a list of board cells (``4*row + column``). The network keeps one lookup table
per tuple, indexed by the tile exponents on its cells (cell ``i`` of the tuple in bits
``4i..4i+3`` of the index), and reads that table at all eight placements of the tuple under
the board's symmetries (four rotations, each optionally mirrored). Summing over every
placement makes the value of a board equal to the value of each of its rotations and
reflections, and every game position trains all eight placements.

Reading a tuple at every placement is the same as reading it at its own cells on each of the
eight transformed boards, which is how the kernels do it: eight cheap bit transforms of the
board, then each index is a few masks and shifts, one per run of consecutive cells.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

CELL_VALUES = 16
"""Values one cell takes in a table index: exponents 0..15; 65536 and 131072 read as 32768."""

MAX_TUPLE_LENGTH = 7
"""Longest tuple: a table has 16**length entries, so 7 cells already take 1 GiB of float32."""

MAX_ENTRIES = 1 << 31
"""Most table entries a network may have in all (8 GiB of float32)."""

DEFAULT_TUPLES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4, 5),
    (4, 5, 6, 7, 8, 9),
    (0, 1, 2, 4, 5, 6),
    (4, 5, 6, 8, 9, 10),
)
"""Four 6-tuples (two straight-and-bent, two rectangles), the layout of Yeh et al. 2016."""

DEFAULT_SPEC = "0,1,2,3,4,5/4,5,6,7,8,9/0,1,2,4,5,6/4,5,6,8,9,10"

SYMMETRY_COUNT = 8

LAYOUT_OFFSET, LAYOUT_RUNS, LAYOUT_FIRST_RUN = 0, 1, 2
LAYOUT_COLUMNS = LAYOUT_FIRST_RUN + 3 * MAX_TUPLE_LENGTH


def parse_tuples(spec: str) -> tuple[tuple[int, ...], ...]:
    """Parse ``"0,1,2,3/4,5,6,7"`` (tuples split by ``/``, cells by ``,``) and validate it."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("tuples must be cells like '0,1,2,3/4,5,6,7', got an empty value")
    tuples = []
    for part in spec.split("/"):
        try:
            tuples.append(tuple(int(cell) for cell in part.split(",")))
        except ValueError:
            raise ValueError(
                f"tuple {part.strip()!r} must be comma-separated cell numbers 0-15"
            ) from None
    return validate_tuples(tuples)


def format_tuples(tuples: Sequence[Sequence[int]]) -> str:
    """The inverse of :func:`parse_tuples`."""
    return "/".join(",".join(str(cell) for cell in cells) for cells in tuples)


def validate_tuples(tuples: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Return the tuples as tuples of ints, or raise ValueError naming the faulty one."""
    if len(tuples) == 0:
        raise ValueError("a network needs at least one tuple")
    checked = []
    for number, cells in enumerate(tuples):
        cells = tuple(int(cell) for cell in cells)
        if not 1 <= len(cells) <= MAX_TUPLE_LENGTH:
            raise ValueError(
                f"tuple {number} has {len(cells)} cells; a tuple has 1 to {MAX_TUPLE_LENGTH}"
            )
        if any(not 0 <= cell < 16 for cell in cells):
            raise ValueError(f"tuple {number} {cells}: cells are numbered 0 to 15 (4*row+column)")
        if len(set(cells)) != len(cells):
            raise ValueError(f"tuple {number} {cells} names a cell twice")
        checked.append(cells)
    entries = sum(CELL_VALUES ** len(cells) for cells in checked)
    if entries > MAX_ENTRIES:
        raise ValueError(f"these tuples need {entries} table entries; the most is {MAX_ENTRIES}")
    return tuple(checked)


def table_sizes(tuples: Sequence[Sequence[int]]) -> np.ndarray:
    """Entries in each tuple's table."""
    return np.array([CELL_VALUES ** len(cells) for cells in tuples], dtype=np.int64)


def tuple_layout(tuples: Sequence[Sequence[int]]) -> np.ndarray:
    """The int64 array the kernels read, one row per tuple.

    A row holds where the tuple's table starts in the flat weights, its number of runs of
    consecutive cells, then for each run ``(source shift, mask, target shift)``: the run's
    index bits are ``(board >> source) & mask``, placed at ``target`` in the tuple's index.
    Tuple ``0,1,2,4,5,6`` is two runs: cells 0-2 (bits 0-11 of the board) and cells 4-6.
    """
    layout = np.zeros((len(tuples), LAYOUT_COLUMNS), dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(table_sizes(tuples))[:-1]))
    for t, cells in enumerate(tuples):
        layout[t, LAYOUT_OFFSET] = starts[t]
        runs = 0
        first = 0
        for i in range(1, len(cells) + 1):
            if i == len(cells) or cells[i] != cells[i - 1] + 1:
                column = LAYOUT_FIRST_RUN + 3 * runs
                layout[t, column] = 4 * cells[first]
                layout[t, column + 1] = (1 << (4 * (i - first))) - 1
                layout[t, column + 2] = 4 * first
                runs += 1
                first = i
        layout[t, LAYOUT_RUNS] = runs
    return layout
