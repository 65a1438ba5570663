"""Which cells the network looks at: n-tuples and their eight symmetric placements.

An n-tuple is a list of board cells (``4*row + column``). The network keeps one lookup table
per tuple, indexed by the tile exponents on its cells, and reads that table at all eight
placements of the tuple under the board's symmetries (four rotations, each optionally
mirrored). Summing over every placement makes the value of a board equal to the value of each
of its rotations and reflections, and every game position trains all eight placements.
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

_SYMMETRIES = (
    lambda r, c: (r, c),
    lambda r, c: (c, 3 - r),
    lambda r, c: (3 - r, 3 - c),
    lambda r, c: (3 - c, r),
    lambda r, c: (r, 3 - c),
    lambda r, c: (c, r),
    lambda r, c: (3 - r, c),
    lambda r, c: (3 - c, 3 - r),
)
SYMMETRY_COUNT = len(_SYMMETRIES)


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


def symmetric_cells(cells: Sequence[int], symmetry: int) -> tuple[int, ...]:
    """The cells of a tuple moved by one of the eight board symmetries."""
    moved = []
    for cell in cells:
        r, c = _SYMMETRIES[symmetry](cell // 4, cell % 4)
        moved.append(4 * r + c)
    return tuple(moved)


def table_sizes(tuples: Sequence[Sequence[int]]) -> np.ndarray:
    """Entries in each tuple's table."""
    return np.array([CELL_VALUES ** len(cells) for cells in tuples], dtype=np.int64)


def feature_layout(tuples: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays the kernels read: ``(shifts, lengths, offsets)``, one row per feature.

    A feature is one placement of one tuple (tuple ``t`` owns features ``8t .. 8t+7``).
    ``shifts[f, i]`` is the bit position (4 * cell) of the feature's i-th cell in ``lo``,
    ``lengths[f]`` its number of cells, ``offsets[f]`` where its tuple's table starts in the
    flat weight array.
    """
    feature_count = len(tuples) * SYMMETRY_COUNT
    shifts = np.zeros((feature_count, MAX_TUPLE_LENGTH), dtype=np.uint64)
    lengths = np.zeros(feature_count, dtype=np.int64)
    offsets = np.zeros(feature_count, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(table_sizes(tuples))[:-1]))
    for t, cells in enumerate(tuples):
        for s in range(SYMMETRY_COUNT):
            f = t * SYMMETRY_COUNT + s
            moved = symmetric_cells(cells, s)
            shifts[f, : len(moved)] = [4 * cell for cell in moved]
            lengths[f] = len(moved)
            offsets[f] = starts[t]
    return shifts, lengths, offsets
