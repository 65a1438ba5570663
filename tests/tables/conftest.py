"""Small formations (a few hundred to a thousand positions) and their tables, built once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from py2048.tables import Formation
from py2048.tables.builder import build_table, layer_count, partial_layers
from py2048.tables.storage import progress_path

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


def no_memory() -> int:
    """A build's memory as a reproducible build records it: not at all."""
    return 0


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the tables of SMALL."""
    folder = tmp_path_factory.mktemp("tables")
    for formation in SMALL:
        build_table(formation, folder, clock=fixed_clock, memory=no_memory)
    return folder


KILLED = Formation("snake8-64", fixed=tuple(range(8)), target=64, target_cells=(8,))
"""Large enough (1.7 million positions, 37 layers) for a build to be killed in its middle."""
_BUILD_KILLED = (
    "import sys; from py2048.tables import Formation, build_table; "
    "build_table(Formation('snake8-64', fixed=tuple(range(8)), target=64, target_cells=(8,)), "
    "sys.argv[1], clock=lambda: 0.0, memory=lambda: 0, width=int(sys.argv[2]))"
)


def kill_a_build_midway(folder: Path, width: int = 2) -> int:
    """Build :data:`KILLED` into ``folder`` in another process, kill it (SIGKILL: no handler
    runs) once at least 12 layers are recorded, and return the layers its record holds."""
    process = subprocess.Popen([sys.executable, "-c", _BUILD_KILLED, str(folder), str(width)])
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and process.poll() is None:
            layers = partial_layers(KILLED, folder)
            if layers is not None and layers >= 12:
                break
            time.sleep(0.01)
        process.kill()
    finally:
        process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    done = json.loads(progress_path(KILLED.name, folder).read_text())["layers_done"]
    assert 12 <= done < layer_count(KILLED)
    return int(done)
