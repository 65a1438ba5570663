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
from py2048.tables.compact import (
    CompactTables,
    compact_move_values,
    direction_maps,
    shipped_compact_tables,
)
from py2048.tables.formations import Formation
from py2048.tables.kernels import best_table_move_values
from py2048.tables.layout import FIXED, LAYOUT_ROWS, layouts
from py2048.tables.lookup import Table, available_tables, open_table
from py2048.tables.storage import TableError

VALUES = types.Array(types.uint16, 1, "C", readonly=True)
"""A 2-byte table's values as the kernels read them: its read-only memory map."""
CODES = types.Array(types.uint8, 1, "C", readonly=True)
"""A 1-byte table's codes (``py2048.tables.codebook``) as the kernels read them."""
RANKS = types.Array(types.int64, 3, "C", readonly=True)
"""A table's ``RANKS`` (``py2048.tables.ranking``), read-only."""

MIN_PROBABILITY = 0.3
"""A table that sees less chance than this leaves the board to the search."""
MIN_TAIL = 8
"""A table answers only for boards whose smallest large tile is at least 2**8 = 256: smaller
tiles are not worth holding in place. Measured with the shipped 8 x 6-tuple network (d2, the
nine default tables, 200 games): chains from 256 reached 32768 in 46.5%, from 128 in 34.0%, from
512 in 47.5% (the 256 tables seldom answer); the 4 x 6 network shipped before it was best from 128
(45.5%, and 38.5% from 256), so this setting goes with the network (``docs/ntuple.md``, "The 8 x
6 network ships"). The pull counts from 256 (:data:`py2048.evaluation.snake.MIN_EXPONENT`), a
setting measured apart."""
VETO = 0.0
"""The search does not check the tables' moves by default (measured: ``docs/solver-reference.md``,
"Playing with the tables")."""
GOOD_PROBABILITY = 0.5
"""Tables with more free cells (bigger goals) are asked first; the first that fits with at
least this success probability answers (as the record programs prefer their larger tables)."""


class TablePolicy(NamedTuple):
    """When a table's answer is taken (see :func:`table_choice`)."""

    min_probability: float
    """A table's advice is taken only from this success probability up."""
    good_probability: float
    """The first table (in order) offering this much answers without asking the others."""
    min_tail: int
    """A table answers only for boards whose smallest large tile has at least this exponent."""
    grow: bool
    """Tables also answer where their target is half the smallest large tile (they build the
    next tile of the chain), not only where it equals it (they complete the chain)."""
    veto: float
    """0 for none; else the search checks every table move (see :func:`choose`)."""


class CompactRecord(NamedTuple):
    """The compact table's answers (:mod:`py2048.tables.compact`) for compiled code."""

    keys: np.ndarray
    chances: np.ndarray
    layouts: np.ndarray
    """int64 (formations, 8, LAYOUT_ROWS, 16), for the formations consulted (those without a full
    table)."""
    rank_limits: np.ndarray
    ids: np.ndarray
    """Each consulted formation's number in the compact file's keys."""
    maps: np.ndarray
    """:func:`py2048.tables.compact.direction_maps`."""


class EndgameTables(NamedTuple):
    """The tables the solver consults, in the order it asks them, as compiled code sees them:
    the full tables, then the compact table's formations that have no full table."""

    values: List
    """One read-only uint16 array per 2-byte table (a ``numba.typed.List``)."""
    codes: List
    """One read-only uint8 array per 1-byte table (a ``numba.typed.List``)."""
    slots: np.ndarray
    """int64: where each table's values are: ``values[s]`` for ``s >= 0``, ``codes[-1 - s]``
    for ``s < 0``."""
    ranks: List
    """Where each table's positions lie in its values (``tables.ranking``), one per table."""
    layouts: np.ndarray
    """int64 (tables, 8, LAYOUT_ROWS, 16): each table's per-symmetry arrays (``tables.layout``)."""
    rank_limits: np.ndarray
    """int64: log2 of each table's target tile."""
    compact: CompactRecord
    policy: TablePolicy


_READ_ONLY_KEYS = types.Array(types.uint64, 1, "C", readonly=True)
_READ_ONLY_CHANCES = types.Array(types.uint8, 2, "C", readonly=True)
TABLE_POLICY = types.NamedTuple(
    (types.float64, types.float64, types.int64, types.boolean, types.float64), TablePolicy
)
COMPACT_RECORD = types.NamedTuple(
    (
        _READ_ONLY_KEYS,
        _READ_ONLY_CHANCES,
        types.int64[:, :, :, ::1],
        types.int64[::1],
        types.int64[::1],
        types.int64[:, ::1],
    ),
    CompactRecord,
)
ENDGAME_TABLES = types.NamedTuple(
    (
        types.ListType(VALUES),
        types.ListType(CODES),
        types.int64[::1],
        types.ListType(RANKS),
        types.int64[:, :, :, ::1],
        types.int64[::1],
        COMPACT_RECORD,
        TABLE_POLICY,
    ),
    EndgameTables,
)


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def _layouts(formations: list[Formation]) -> np.ndarray:
    if not formations:
        return np.zeros((0, 8, LAYOUT_ROWS, 16), dtype=np.int64)
    return np.ascontiguousarray(np.stack([layouts(f) for f in formations]), dtype=np.int64)


@dataclass(frozen=True)
class TableSet:
    """Opened tables: their names and targets (for hints to say which answered) and their
    record for compiled code."""

    names: tuple[str, ...]
    targets: tuple[int, ...]
    record: EndgameTables
    checksums: tuple[str, ...] = ()
    """The built tables' checksums (their headers' ``checksum``), in the order of the first
    names: what tells two builds of one name apart (other caps, another code book)."""

    @property
    def labels(self) -> tuple[str, ...]:
        """The names as reports show them: a 1-byte table's with " (1 byte)" after it."""
        slots = self.record.slots  # where a table's values are; negative for 1-byte codes
        return tuple(
            f"{name} (1 byte)" if i < slots.shape[0] and slots[i] < 0 else name
            for i, name in enumerate(self.names)
        )

    @classmethod
    def of(
        cls,
        tables: list[Table],
        compact: CompactTables | None = None,
        *,
        min_probability: float = MIN_PROBABILITY,
        good_probability: float = GOOD_PROBABILITY,
        min_tail: int = MIN_TAIL,
        grow: bool = True,
        veto: float = VETO,
    ) -> TableSet:
        """These opened tables, and the compact table's answers for formations without one.

        Asked in order of their free cells, most first, then of their targets, largest first
        (full tables before compact ones).
        """
        order = lambda f: (-len(f.free_cells), -f.target)  # noqa: E731
        tables = sorted(tables, key=lambda t: order(t.formation))
        values = List.empty_list(VALUES)
        codes = List.empty_list(CODES)
        slots = []
        ranks = List.empty_list(RANKS)
        for table in tables:
            if table.width == 1:
                slots.append(-1 - len(codes))
                codes.append(table.values)
            else:
                slots.append(len(values))
                values.append(table.values)
            ranks.append(table.ranks)
        full = [t.formation for t in tables]
        compact_formations = () if compact is None else compact.formations
        kept = [f for f in compact_formations if f not in full]
        kept.sort(key=order)
        compact_record = CompactRecord(
            _read_only(compact.keys if compact else np.zeros(0, dtype=np.uint64)),
            _read_only(compact.chances if compact else np.zeros((0, 4), dtype=np.uint8)),
            _layouts(kept),
            np.array([f.rank_limit for f in kept], dtype=np.int64),
            np.array([compact_formations.index(f) for f in kept], dtype=np.int64),
            direction_maps(),
        )
        policy = TablePolicy(
            float(min_probability), float(good_probability), int(min_tail), bool(grow), float(veto)
        )
        record = EndgameTables(
            values,
            codes,
            np.array(slots, dtype=np.int64),
            ranks,
            _layouts(full),
            np.array([f.rank_limit for f in full], dtype=np.int64),
            compact_record,
            policy,
        )
        names = tuple(f.name for f in full) + tuple(f"{f.name} (compact)" for f in kept)
        targets = tuple(f.target for f in full + kept)
        return cls(names, targets, record, tuple(t.header.checksum for t in tables))


NO_TABLES = TableSet.of([])
"""The set without tables: the solver only searches."""

_loaded: TableSet | None = None
_lock = threading.Lock()


def endgame_tables() -> TableSet:
    """The built tables of the tables folder (``py2048.tables.tables_dir``), and the shipped
    compact table for the formations not built there, opened once per process. A damaged
    file is left out with a warning that names it and says what is wrong."""
    global _loaded
    with _lock:
        if _loaded is None:
            opened = []
            for name in available_tables():
                try:
                    opened.append(open_table(name))
                except TableError as exc:
                    warnings.warn(str(exc), stacklevel=2)
            try:
                compact = shipped_compact_tables()
            except ValueError as exc:
                warnings.warn(f"{exc}; the solver goes on without it", stacklevel=2)
                compact = None
            _loaded = TableSet.of(opened, compact)
        return _loaded


def forget_tables() -> None:
    """Open the tables again on next use (after a build, or in tests)."""
    global _loaded
    with _lock:
        _loaded = None


@njit(cache=True, nogil=True, inline="always")
def _continues_chain(lo, hi, layout, rank, policy):
    """The table's target continues the board's chain (see :func:`table_choice`)."""
    tail = 99
    for cell in range(16):
        if layout[FIXED, cell] != 0:
            tail = min(tail, cell_exponent(lo, hi, cell))
    return policy.min_tail <= tail <= rank + policy.grow


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
    policy = endgame.policy
    scratch = np.empty(4, dtype=np.float64)
    chosen = -1
    best = policy.min_probability
    full = endgame.slots.shape[0]
    compact = endgame.compact
    for t in range(full + compact.ids.shape[0]):
        if t < full:
            rank = endgame.rank_limits[t]
            layouts = endgame.layouts[t]
            slot = endgame.slots[t]
            if slot >= 0:
                symmetry = best_table_move_values(
                    lo, hi, endgame.values[slot], endgame.ranks[t], layouts, rank, tables, scratch
                )
            else:
                symmetry = best_table_move_values(
                    lo, hi, endgame.codes[-1 - slot], endgame.ranks[t], layouts, rank, tables,
                    scratch,
                )  # fmt: skip
        else:
            c = t - full
            rank = compact.rank_limits[c]
            layouts = compact.layouts[c]
            symmetry = compact_move_values(
                lo, hi, compact.ids[c], compact.keys, compact.chances, layouts, rank,
                compact.maps, scratch,
            )  # fmt: skip
        if symmetry < 0 or not _continues_chain(lo, hi, layouts[symmetry], rank, policy):
            continue
        top = max(scratch[0], scratch[1], scratch[2], scratch[3])
        if top > 0.0 and (top > best or (chosen < 0 and top >= best)):
            chosen = t
            best = top
            for d in range(4):
                out[d] = scratch[d]
            if top >= policy.good_probability:
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
    with its values in ``out`` (depth -1: no move exists). With ``veto``, the search also
    checks the table's move, and answers instead when it finds that move worse than its own
    best by more than that share of the best's value.
    """
    if endgame.slots.shape[0] == 0 and endgame.compact.ids.shape[0] == 0:
        return -1, decide(lo, hi, plan, evaluate, evaluation, table, run, out)
    chances = np.empty(4, dtype=np.float64)
    answered = table_choice(lo, hi, endgame, run.tables, chances)
    veto = endgame.policy.veto
    if answered >= 0 and veto <= 0.0:
        out[:] = chances
        return answered, 0
    reached = decide(lo, hi, plan, evaluate, evaluation, table, run, out)
    if answered < 0:
        return -1, reached
    advised = 0
    for d in range(1, 4):
        if chances[d] > chances[advised]:
            advised = d
    best = max(out[0], out[1], out[2], out[3])
    if out[advised] < best - veto * abs(best):
        return -1, reached
    out[:] = chances
    return answered, 0
