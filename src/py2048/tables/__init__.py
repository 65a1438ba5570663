"""Endgame tables: exact success probabilities for formations of large tiles held in place.

A table answers, for every position of a :class:`Formation`'s free cells, the probability that
best play builds the formation's target tile on a target cell without ever moving a fixed
(large) tile. ``2048 tables build`` computes them (:mod:`.builder`), the files live in
:func:`tables_dir` (:mod:`.storage` describes the format), and :func:`open_table` reads them
for real boards in any orientation (:mod:`.lookup`; the numba kernels for the solver are in
:mod:`.kernels`). ``docs/solver-reference.md`` ("Endgame tables") has their sizes and build
times.

The formations and file locations load with the package; the builder and the look-up (compiled
kernels) on first use, so the command line can list tables without loading them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from py2048._lazy import lazy_names
from py2048.tables.formations import FORMATIONS, Formation, default_formations, get_formation
from py2048.tables.storage import TableError, table_path, tables_dir

# Loaded on first use (py2048._lazy): each name is written only here. "X as X" says that the
# package exports it; isort is off so that each module keeps one statement.
# isort: off
if TYPE_CHECKING:
    from py2048.tables.builder import BuildProgress as BuildProgress, build_table as build_table
    from py2048.tables.kernels import (
        best_table_move_values as best_table_move_values,
        table_move_values as table_move_values,
    )
    from py2048.tables.lookup import (
        Table as Table,
        TableAnswer as TableAnswer,
        available_tables as available_tables,
        open_table as open_table,
    )
# isort: on

__getattr__, __dir__, _LAZY = lazy_names(__name__)

__all__ = [
    "FORMATIONS",
    "Formation",
    "TableError",
    "default_formations",
    "get_formation",
    "table_path",
    "tables_dir",
    *_LAZY,
]
