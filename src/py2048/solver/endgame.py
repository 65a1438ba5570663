"""Endgame tables in play: the solver asks the tables before it searches.

Where a board fits the formation of a built table (:mod:`py2048.tables`: large tiles held in
fixed cells, small tiles in the rest), the table knows the exact probability that best play
builds its target tile without moving the large ones, and which move keeps that probability.
The solver then plays the table's move; elsewhere, or when the best a table offers is below
``min_probability``, it searches (:mod:`py2048.solver.search`).

The tables travel to compiled code as one record, :class:`EndgameTables` (typed
:data:`ENDGAME_TABLES`); :func:`endgame_tables` opens the built ones once per process
(checking each file whole, see :func:`py2048.tables.open_table`).
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.typed import List

from py2048.engine.board import cell_exponent
from py2048.solver.search import SEARCH_PLAN, SEARCH_RECORDS, decide
from py2048.tables.kernels import best_table_move_values
from py2048.tables.layout import FIXED, LAYOUT_ROWS
from py2048.tables.lookup import available_tables, open_table
from py2048.tables.storage import TableError

VALUES = types.Array(types.uint16, 1, "C", readonly=True)
"""A table's values as the kernels read them: its read-only memory map."""

MIN_PROBABILITY = 0.3
"""A table that sees less chance than this leaves the board to the search."""
MIN_TAIL = 8
"""A table answers only for boards whose smallest large tile is at least 2**8 = 256: smaller
tiles are not worth holding in place (measured: see ``docs/solver-notes.md``)."""
GOOD_PROBABILITY = 0.5
"""Tables with more free cells (bigger goals) are asked first; the first that fits with at
least this success probability answers (as the record programs prefer their larger tables)."""


class EndgameTables(NamedTuple):
    """The tables the solver consults, in the order it asks them, as compiled code sees them."""

    values: List
    """One read-only uint16 array per table (a ``numba.typed.List``)."""
    layouts: np.ndarray
    """int64 (tables, 8, 4, 16): each table's per-symmetry arrays (``tables.layout``)."""
    rank_limits: np.ndarray
    """int64: log2 of each table's target tile."""
    min_probability: float
    """A table's advice is taken only from this success probability up."""
    good_probability: float
    """The first table (in order) offering this much answers without asking the others."""
    min_tail: int
    """A table answers only for boards whose smallest large tile has at least this exponent."""
    grow: bool
    """Tables also answer where their target is half the smallest large tile (they build the
    next tile of the chain), not only where it equals it (they complete the chain)."""


ENDGAME_TABLES = types.NamedTuple(
    (
        types.ListType(VALUES),
        types.int64[:, :, :, ::1],
        types.int64[::1],
        types.float64,
        types.float64,
        types.int64,
        types.boolean,
    ),
    EndgameTables,
)


@dataclass(frozen=True)
class TableSet:
    """Opened tables: their names (for hints to say which answered) and their record."""

    names: tuple[str, ...]
    record: EndgameTables

    @classmethod
    def of(
        cls,
        tables: list,
        min_probability: float = MIN_PROBABILITY,
        good_probability: float = GOOD_PROBABILITY,
        min_tail: int = MIN_TAIL,
        grow: bool = True,
    ) -> TableSet:
        """The set of these opened :class:`py2048.tables.Table` objects, asked in order of
        their free cells, most first, then of their targets, largest first."""
        tables = sorted(tables, key=lambda t: (-len(t.formation.free_cells), -t.formation.target))
        values = List.empty_list(VALUES)
        for table in tables:
            values.append(table.values)
        layouts = (
            np.ascontiguousarray(np.stack([t.layouts for t in tables]), dtype=np.int64)
            if tables
            else np.zeros((0, 8, LAYOUT_ROWS, 16), dtype=np.int64)
        )
        ranks = np.array([t.rank_limit for t in tables], dtype=np.int64)
        record = EndgameTables(
            values,
            layouts,
            ranks,
            float(min_probability),
            float(good_probability),
            int(min_tail),
            bool(grow),
        )
        return cls(tuple(t.name for t in tables), record)


NO_TABLES = TableSet.of([])
"""The set without tables: the solver only searches."""

_loaded: TableSet | None = None
_lock = threading.Lock()


def endgame_tables() -> TableSet:
    """The built tables of the tables folder (``py2048.tables.tables_dir``), opened once per
    process. A damaged file is left out with a warning that says how to rebuild it."""
    global _loaded
    with _lock:
        if _loaded is None:
            opened = []
            for name in available_tables():
                try:
                    opened.append(open_table(name))
                except TableError as exc:
                    warnings.warn(str(exc), stacklevel=2)
            _loaded = TableSet.of(opened)
        return _loaded


def forget_tables() -> None:
    """Open the tables again on next use (after a build, or in tests)."""
    global _loaded
    with _lock:
        _loaded = None


@njit(
    types.int64(
        types.uint64, types.uint64, ENDGAME_TABLES, types.uint32[:, ::1], types.float64[::1]
    ),
    cache=True,
    nogil=True,
)
def table_choice(lo, hi, endgame, tables, out):
    """The table that answers for this board, or -1; its direction values go to ``out``.

    A table is asked only when its target continues the board's chain of large tiles: the
    smallest of them (the *tail*) is the target (the table builds a second one, which merges
    into it) or, with ``grow``, twice the target (the table builds the next tile of the
    chain), and at least ``2**min_tail``. The tables are asked in order (most free cells
    first); the first the board fits (in any orientation) with a success probability of at
    least ``good_probability`` answers.
    Failing that, the fitting table offering the highest probability answers, if it reaches
    ``min_probability`` and is above 0 (a table that sees no chance left leaves the board to
    the search).
    """
    scratch = np.empty(4, dtype=np.float64)
    chosen = -1
    best = endgame.min_probability
    for t in range(len(endgame.values)):
        symmetry = best_table_move_values(
            lo, hi, endgame.values[t], endgame.layouts[t], endgame.rank_limits[t], tables, scratch
        )
        if symmetry < 0:
            continue
        rank = endgame.rank_limits[t]
        tail = 99
        for cell in range(16):
            if endgame.layouts[t, symmetry, FIXED, cell] != 0:
                tail = min(tail, cell_exponent(lo, hi, cell))
        if tail < endgame.min_tail or tail > rank + endgame.grow:
            continue
        top = max(scratch[0], scratch[1], scratch[2], scratch[3])
        if top > 0.0 and (top > best or (chosen < 0 and top >= best)):
            chosen = t
            best = top
            for d in range(4):
                out[d] = scratch[d]
            if top >= endgame.good_probability:
                break
    return chosen


@njit(
    types.UniTuple(types.int64, 2)(
        types.uint64,
        types.uint64,
        SEARCH_PLAN,
        *SEARCH_RECORDS,
        ENDGAME_TABLES,
        types.float64[::1],
    ),
    cache=True,
    nogil=True,
)
def choose(lo, hi, plan, evaluate, evaluation, table, run, endgame, out):
    """The solver's decision for one board: ``(table, depth)``.

    A table that answers (see :func:`table_choice`) gives ``(its index, 0)`` and its success
    probabilities in ``out``; otherwise the search does: ``(-1, the depth that answered)``
    with its values in ``out`` (depth -1: no move exists).
    """
    if len(endgame.values) > 0:
        answered = table_choice(lo, hi, endgame, run.tables, out)
        if answered >= 0:
            return answered, 0
    return -1, decide(lo, hi, plan, evaluate, evaluation, table, run, out)
