"""A formation's per-cell arrays, in the orientation of a real board, for each symmetry.

A table is built for its formation in one orientation (the *canonical* one). A real board fits
it under any of the board's 8 symmetries (rotations and reflections). Rather than transforming
the board, the look-up reads the board as it is, through the formation's arrays laid out in
the real board's orientation: for symmetry ``k``, :func:`layouts` gives ``layout[k]``, an
``int64`` array of shape ``(LAYOUT_ROWS, 16)`` whose rows are

- ``FIXED``: 1 on the cells that hold the formation's large tiles;
- ``PLACE``: the place value of each free cell in the table's index, 0 on fixed cells;
- ``TARGET``: 1 on the cells where making the target counts as success;
- ``ORDER``: the real cells of the free cells in the order of the canonical free cells
  (increasing place value), then -1;
- ``RADIX``: how many ranks each free cell can hold (its cap's, see
  :attr:`~py2048.tables.formations.Formation.radices`), 0 on fixed cells.

``SYMMETRIES[k][cell]`` (:mod:`py2048.engine.geometry`) is the canonical cell that real ``cell``
plays under symmetry ``k`` (symmetry 0 is the identity). Since 2048's rules treat every
direction alike, a move on the real board is the symmetric move on the canonical one, so the
index a real afterstate reads through ``layout[k]`` is the index of its canonical image: no
direction needs mapping.
"""

from __future__ import annotations

import numpy as np

from py2048.engine.geometry import CELLS, SYMMETRIES
from py2048.tables.formations import Formation

FIXED, PLACE, TARGET, ORDER, RADIX = 0, 1, 2, 3, 4
LAYOUT_ROWS = 5


def layout(formation: Formation, symmetry: int = 0) -> np.ndarray:
    """The ``(LAYOUT_ROWS, 16)`` int64 per-cell arrays of ``formation`` read under ``symmetry``."""
    canonical = SYMMETRIES[symmetry]
    real_of = {canonical[cell]: cell for cell in range(CELLS)}
    place_values = formation.place_values
    arrays = np.zeros((LAYOUT_ROWS, CELLS), dtype=np.int64)
    arrays[ORDER] = -1
    for cell in range(CELLS):
        home = canonical[cell]
        arrays[FIXED, cell] = home in formation.fixed
        arrays[PLACE, cell] = place_values[home]
        arrays[TARGET, cell] = home in formation.target_cells
    for k, (home, radix) in enumerate(zip(formation.free_cells, formation.radices, strict=True)):
        arrays[ORDER, k] = real_of[home]
        arrays[RADIX, real_of[home]] = radix
    return arrays


def layouts(formation: Formation) -> np.ndarray:
    """The arrays of :func:`layout` for all 8 symmetries: shape ``(8, LAYOUT_ROWS, 16)``."""
    return np.ascontiguousarray(np.stack([layout(formation, k) for k in range(8)]))
