"""Small formations (a few hundred to a thousand positions) and their tables, built once."""

from __future__ import annotations

from pathlib import Path

import pytest

from py2048.tables import Formation
from py2048.tables.builder import build_table

ROW3 = Formation("row3-16", fixed=tuple(range(12)), target=16, target_cells=(12,))
"""12 fixed cells (the top three rows), the bottom row free, build a 16 at its left end."""
ROW3_32 = Formation("row3-32", fixed=tuple(range(12)), target=32, target_cells=(13, 14))
"""The same block, build a 32 in the middle of the bottom row (625 positions)."""
SNAKE11 = Formation("snake11-16", fixed=tuple(range(11)), target=16, target_cells=(11,))
"""11 fixed cells, 5 free; no symmetry maps the formation onto itself."""
COLUMN = Formation(
    "column-8", fixed=tuple(c for c in range(16) if c not in (0, 4, 8)), target=8, target_cells=(8,)
)
"""Three free cells above a fixed one, walls can slide into them; an 8 wanted at cell 8 (t = 3)."""

CAPPED = Formation(
    "capped-32", fixed=tuple(range(11)), target=32, target_cells=(11,), caps=(16, 4, 8, 8, 16)
)
"""11 fixed cells; 5 free, whose tiles may reach only 16, 4, 8, 8 and 16 (1,200 positions):
the two 16s that make the 32 meet in the right-hand column."""

SMALL = (ROW3, ROW3_32, SNAKE11, COLUMN, CAPPED)


def fixed_clock() -> float:
    return 0.0


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the tables of SMALL."""
    folder = tmp_path_factory.mktemp("tables")
    for formation in SMALL:
        build_table(formation, folder, clock=fixed_clock)
    return folder
