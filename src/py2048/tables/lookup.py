"""Reading tables: open a built table and ask it about real boards.

From Python::

    from py2048.tables import open_table

    table = open_table("snake8-128")  # checks size and checksum; TableError if bad
    board = [[16384, 8192, 4096, 2048], [128, 256, 512, 1024], [64, 8, 0, 2], [0, 4, 0, 0]]
    advice = table.lookup(board)  # None if the board does not fit the formation
    advice.direction, advice.probability  # 3 (left), 0.730...
    advice.values  # each direction's probability, -1 where not allowed

From numba kernels (the solver): pass ``table.values``, ``table.ranks``, ``table.layouts`` and
``table.rank_limit`` to :func:`best_table_move_values` (every symmetry), or one
``table.layouts[k]`` to :func:`table_move_values`, with the engine's ``ROW_TABLES``. Both are
compiled with explicit types, ``cache=True`` and ``nogil=True``; see :mod:`.kernels`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from py2048.engine.board import ROW_TABLES, pack
from py2048.tables import formations
from py2048.tables.codebook import CODE_BOOK
from py2048.tables.formations import Formation, get_formation
from py2048.tables.kernels import best_table_move_values, table_move_values
from py2048.tables.layout import layouts
from py2048.tables.ranking import offsets_of_indices, ranks_array
from py2048.tables.storage import (
    DTYPES,
    PAYLOAD_OFFSET,
    TableError,
    TableHeader,
    check_file,
    read_header,
    table_path,
)

__all__ = [
    "Table",
    "TableAnswer",
    "available_tables",
    "best_table_move_values",
    "open_table",
    "table_move_values",
]


@dataclass(frozen=True)
class TableAnswer:
    """A table's answer for a real board."""

    direction: int | None
    """The best direction (0 up, 1 right, 2 down, 3 left); None if no move keeps the
    formation (then ``probability`` is 0)."""
    probability: float
    """The probability that best play makes the target from here."""
    values: tuple[float, float, float, float]
    """Each direction's success probability; -1 where the move is not allowed."""
    symmetry: int
    """The symmetry under which the board fits (:data:`py2048.engine.geometry.SYMMETRIES`)."""


class Table:
    """An opened, verified table: ``values`` is a read-only memory map of ``formation.entries``
    values in the file's layer order, uint16 (value / 65535 = probability) or, in a 1-byte
    table (``width`` 1), uint8 codes (:data:`.codebook.CODE_BOOK` ``[code]`` = probability);
    ``ranks`` where each position lies in it (:func:`.ranking.ranks_array`); ``layouts`` the
    ``(8, LAYOUT_ROWS, 16)`` arrays of every symmetry. The map is read a hundred values a move,
    so a table larger than memory works (the system keeps the pages it reads)."""

    def __init__(self, formation: Formation, path: Path, header: TableHeader) -> None:
        self.formation = formation
        self.path = path
        self.header = header
        self.rank_limit = formation.rank_limit
        self.width = header.width
        self.layouts = layouts(formation)
        self.ranks = ranks_array(formation)
        self.values: np.ndarray = np.memmap(
            path,
            dtype=DTYPES[header.width],
            mode="r",
            offset=PAYLOAD_OFFSET,
            shape=formation.entries,
        )

    @property
    def name(self) -> str:
        return self.formation.name

    def __repr__(self) -> str:
        return (
            f"<Table {self.name} ({self.formation.entries:,} positions, {self.width} "
            f"byte{'s' if self.width > 1 else ''} each) at {self.path}>"
        )

    def move_values(self, lo: int, hi: int) -> tuple[int, np.ndarray]:
        """``(symmetry, values)`` for a packed real board: each direction's success
        probability (-1 where not allowed); symmetry -1 (and -1 everywhere) if it fits none."""
        out = np.empty(4, dtype=np.float64)
        symmetry = best_table_move_values(
            np.uint64(lo), np.uint64(hi), self.values, self.ranks, self.layouts, self.rank_limit,
            ROW_TABLES, out,
        )  # fmt: skip
        return int(symmetry), out

    def lookup(self, board: Sequence[Sequence[int]]) -> TableAnswer | None:
        """The table's advice for a 4x4 list of tile values, or None if it fits no symmetry."""
        symmetry, values = self.move_values(*pack(board))
        if symmetry < 0:
            return None
        best = int(np.argmax(values))
        probability = max(float(values[best]), 0.0)
        return TableAnswer(
            direction=best if values[best] >= 0 else None,
            probability=probability,
            values=(float(values[0]), float(values[1]), float(values[2]), float(values[3])),
            symmetry=symmetry,
        )

    def dense_values(self, indices: np.ndarray) -> np.ndarray:
        """The stored values of the positions of these dense indices (uint16, or uint8 codes
        in a 1-byte table)."""
        return np.asarray(self.values[offsets_of_indices(self.formation, indices)])

    def probabilities(self, indices: np.ndarray) -> np.ndarray:
        """float64: the success probabilities of the positions of these dense indices."""
        stored = self.dense_values(indices)
        if self.width == 1:
            return np.asarray(CODE_BOOK[stored], dtype=np.float64)
        return np.asarray(stored / 65535.0, dtype=np.float64)


def open_table(
    formation: str | Formation, directory: str | os.PathLike[str] | None = None
) -> Table:
    """Open a built table by name (one of :data:`.formations.FORMATIONS`) or formation.

    Checks the file whole (header, size, blake2b checksum of the payload: 2-3 s per GB from
    the page cache) unless its seal says an earlier check found this very file good
    (:func:`.storage.check_file`); raises
    :class:`.storage.TableError` naming the file and the command that rebuilds it, so a bad
    file is never used. ValueError for an unknown name.
    """
    if isinstance(formation, str):
        formation = get_formation(formation)
    path = table_path(formation.name, directory)
    header = check_file(path, formation)
    return Table(formation, path, header)


def available_tables(directory: str | os.PathLike[str] | None = None) -> list[str]:
    """Names of the built-in formations whose table file is present and of the right size.

    Cheap (reads headers only); :func:`open_table` still checks the checksum.
    """
    names = []
    for formation in formations.FORMATIONS:
        path = table_path(formation.name, directory)
        try:
            header = read_header(path, formation.name)
        except TableError:
            continue
        if header.formation == formation and path.stat().st_size == header.file_size:
            names.append(formation.name)
    return names
