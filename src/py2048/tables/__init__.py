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

from types import ModuleType
from typing import TYPE_CHECKING, Any

from py2048.tables.formations import FORMATIONS, Formation, default_formations, get_formation
from py2048.tables.storage import TableError, table_path, tables_dir

if TYPE_CHECKING:
    from py2048.tables.builder import BuildProgress, build_table
    from py2048.tables.kernels import best_table_move_values, table_move_values
    from py2048.tables.lookup import Table, TableAnswer, available_tables, open_table

__all__ = [
    "FORMATIONS",
    "BuildProgress",
    "Formation",
    "Table",
    "TableAnswer",
    "TableError",
    "available_tables",
    "best_table_move_values",
    "build_table",
    "default_formations",
    "get_formation",
    "open_table",
    "table_move_values",
    "table_path",
    "tables_dir",
]

_BUILDER_NAMES = frozenset({"BuildProgress", "build_table"})
_LOOKUP_NAMES = frozenset(
    {"Table", "TableAnswer", "available_tables", "best_table_move_values", "open_table",
     "table_move_values"}
)  # fmt: skip


def __getattr__(name: str) -> Any:
    """Load the builder or the look-up the first time one of their names is asked for."""
    module: ModuleType
    if name in _BUILDER_NAMES:
        from py2048.tables import builder as module
    elif name in _LOOKUP_NAMES:
        from py2048.tables import lookup as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value
