"""What the compact table keeps: the positions table play visits most, with the tables' answers.

A table plays its phase the same way from the same position, so where its play goes need not
be sampled from games: from a phase's first position, the expected number of visits of every
later position under the table's best moves follows exactly, in order of the free tiles' sum
(as the table is built, each move keeps the sum and each spawn adds 2 or 4). A position hands
its visits on through its best move to every spawn, 0.9 or 0.1 of them shared over the empty
free cells, until the target is made or lost, or the table's best chance falls below the
solver's threshold (where the search plays instead). Started from the first positions of the
phases that real games met (``2048 distill``), these visits rank the positions: a few hundred
thousand hold most of the visits of a table of a billion positions
(``docs/solver-reference.md``, "The compact table").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

from py2048.engine.board import ROW_TABLES, move
from py2048.engine.rng import SPAWN_ODDS
from py2048.tables.builder import layer_count, wall_board
from py2048.tables.compact import KEY_SHIFT, CompactTables, encode_chances
from py2048.tables.kernels import direction_value, position_index, wall_position
from py2048.tables.layout import ORDER, RADIX
from py2048.tables.lookup import Table

_NIBBLE = np.uint64(0xF)


@njit(cache=True, nogil=True)
def _layer(lo: np.uint64, layout: np.ndarray) -> int:
    """Half the sum of the free tiles of a wall board."""
    layer = 0
    for k in range(16):
        cell = layout[ORDER, k]
        if cell < 0:
            break
        rank = int((lo >> np.uint64(4 * cell)) & _NIBBLE)
        if rank > 0:
            layer += 1 << (rank - 1)
    return layer


@njit(cache=True, nogil=True)
def _ends_phase(after: np.uint64, layout: np.ndarray, rank_limit: int) -> bool:
    """A move made the target (anywhere) or a tile above a cell's cap: the phase is over."""
    for k in range(16):
        cell = layout[ORDER, k]
        if cell < 0:
            break
        rank = int((after >> np.uint64(4 * cell)) & _NIBBLE)
        if rank == rank_limit or rank >= layout[RADIX, cell]:
            return True
    return False


class _Reader(NamedTuple):
    """A table as the kernels here read it, in its canonical orientation."""

    values: np.ndarray
    ranks: np.ndarray
    layout: np.ndarray
    rank_limit: int


def _reader(table: Table) -> _Reader:
    return _Reader(table.values, table.ranks, table.layouts[0], table.rank_limit)


@njit(cache=True, nogil=True, inline="always")
def _value(lo, wall_hi, direction, reader, tables):
    return direction_value(
        lo, wall_hi, direction, reader.values, 0, reader.ranks, reader.layout, reader.rank_limit,
        tables,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def _visits(starts, counts, empty_lo, wall_hi, reader, layers, tables, min_visits, min_probability):
    """(indices, visits) of every position table play reaches from ``starts`` (wall boards,
    ``counts`` visits each); a spawn's share below ``min_visits`` is dropped."""
    layout = reader.layout
    rank_limit = reader.rank_limit
    pending = List()
    for _ in range(layers):
        pending.append(Dict.empty(types.uint64, types.float64))
    for s in range(starts.shape[0]):
        layer = pending[_layer(starts[s], layout)]
        layer[starts[s]] = layer.get(starts[s], 0.0) + counts[s]
    indices = List.empty_list(types.int64)
    visits = List.empty_list(types.float64)
    for layer_number in range(layers):
        layer = pending[layer_number]
        for lo, seen in layer.items():
            indices.append(position_index(lo, wall_hi, layout))
            visits.append(seen)
            best = -1.0
            direction = -1
            for d in range(4):
                value = _value(lo, wall_hi, d, reader, tables)
                if value > best:
                    best = value
                    direction = d
            if direction < 0 or best < min_probability:
                continue
            after, _, _ = move(lo, wall_hi, direction, tables)
            if _ends_phase(after, layout, rank_limit):
                continue
            empty = 0
            for k in range(16):
                cell = layout[ORDER, k]
                if cell < 0:
                    break
                if (after >> np.uint64(4 * cell)) & _NIBBLE == 0:
                    empty += 1
            for k in range(16):
                cell = layout[ORDER, k]
                if cell < 0:
                    break
                if (after >> np.uint64(4 * cell)) & _NIBBLE != 0:
                    continue
                for rank, share in SPAWN_ODDS:
                    passed = seen * share / empty
                    if passed < min_visits:
                        continue
                    child = after | (np.uint64(rank) << np.uint64(4 * cell))
                    target = pending[layer_number + rank]
                    target[child] = target.get(child, 0.0) + passed
        layer.clear()
    out_indices = np.empty(len(indices), dtype=np.int64)
    out_visits = np.empty(len(visits), dtype=np.float64)
    for k in range(len(indices)):
        out_indices[k] = indices[k]
        out_visits[k] = visits[k]
    return out_indices, out_visits


def expected_visits(
    table: Table,
    indices: np.ndarray,
    counts: np.ndarray | None = None,
    *,
    min_probability: float,
    min_visits: float = 1e-5,
) -> tuple[np.ndarray, np.ndarray]:
    """The expected visits of every position the table's own play reaches from ``indices``
    (positions of ``table``, each visited ``counts`` times, default once), as ``(indices,
    visits)``; play stops where the table's best chance is below ``min_probability``, and a
    spawn's share below ``min_visits`` is not followed (the visits are then a lower bound)."""
    formation = table.formation
    layout = table.layouts[0]
    empty_lo, wall_hi = (np.uint64(word) for word in wall_board(formation))
    starts = np.array([wall_position(int(i), empty_lo, layout) for i in indices], dtype=np.uint64)
    if counts is None:
        counts = np.ones(len(starts), dtype=np.float64)
    layers = layer_count(formation) + 2  # room for a spawn's share past the last layer
    return _visits(
        starts, np.asarray(counts, dtype=np.float64), empty_lo, wall_hi, _reader(table), layers,
        ROW_TABLES, float(min_visits), float(min_probability),
    )  # fmt: skip


@njit(cache=True, nogil=True)
def _direction_chances(indices, empty_lo, wall_hi, reader, tables, out):
    for i in range(indices.shape[0]):
        lo = wall_position(indices[i], empty_lo, reader.layout)
        for d in range(4):
            out[i, d] = _value(lo, wall_hi, d, reader, tables)


def direction_chances(table: Table, indices: np.ndarray) -> np.ndarray:
    """float64 (len(indices), 4): each direction's success probability at these positions of
    the table, in the formation's own orientation (-1 where a move is not allowed)."""
    empty_lo, wall_hi = (np.uint64(word) for word in wall_board(table.formation))
    out = np.empty((len(indices), 4), dtype=np.float64)
    _direction_chances(
        np.asarray(indices, dtype=np.int64), empty_lo, wall_hi, _reader(table), ROW_TABLES, out
    )
    return out


def board_index(table: Table, lo: int, hi: int) -> int:
    """The table's position of a real board that fits its formation (in the orientation that
    offers the most); -1 if it fits none."""
    symmetry, _ = table.move_values(lo, hi)
    if symmetry < 0:
        return -1
    return int(position_index(np.uint64(lo), np.uint64(hi), table.layouts[symmetry]))


def most_visited(
    visits: dict[str, tuple[np.ndarray, np.ndarray]], limit: int
) -> dict[str, np.ndarray]:
    """The ``limit`` positions with the most visits over all tables (``visits``: per table
    name, its ``(indices, visits)``), as sorted indices per table name."""
    names = list(visits)
    owner = np.concatenate([np.full(len(visits[n][0]), i) for i, n in enumerate(names)])
    indices = np.concatenate([visits[n][0] for n in names])
    counts = np.concatenate([visits[n][1] for n in names])
    kept = np.argsort(-counts, kind="stable")[:limit]
    return {n: np.unique(indices[kept][owner[kept] == i]) for i, n in enumerate(names)}


def compact_answers(tables: list[Table], kept: dict[str, np.ndarray], source: str) -> CompactTables:
    """A compact table of these tables' answers at the positions ``kept`` (indices per table
    name; a table without any is still listed, so that its key numbers stay those of
    ``tables``)."""
    keys = []
    chances = []
    for number, table in enumerate(tables):
        indices = np.unique(np.asarray(kept.get(table.name, ()), dtype=np.int64))
        keys.append((np.uint64(number) << np.uint64(KEY_SHIFT)) | indices.astype(np.uint64))
        chances.append(encode_chances(direction_chances(table, indices)))
    return CompactTables(
        tuple(table.formation for table in tables),
        np.concatenate(keys) if keys else np.zeros(0, dtype=np.uint64),
        np.concatenate(chances) if chances else np.zeros((0, 4), dtype=np.uint8),
        source,
    )
