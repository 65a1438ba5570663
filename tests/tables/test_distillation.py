"""Distillation: where a table's own play goes, counted exactly, and what the compact keeps."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

from py2048 import slide
from py2048.engine.board import pack
from py2048.tables import open_table
from py2048.tables.compact import decode_chance
from py2048.tables.distillation import (
    board_index,
    compact_answers,
    direction_chances,
    expected_visits,
    most_visited,
)
from py2048.tables.lookup import Table
from tests.tables.conftest import CAPPED, SNAKE11

LARGE = [2 ** (6 + cell) for cell in range(11)]
"""Tiles for the 11 fixed cells of SNAKE11 and CAPPED: all different, all above their targets."""


def board_of(free: dict[int, int]) -> list[list[int]]:
    flat = [*LARGE, 0, 0, 0, 0, 0]
    for cell, tile in free.items():
        flat[cell] = tile
    return [flat[4 * r : 4 * r + 4] for r in range(4)]


def plain_visits(table: Table, start: list[list[int]], min_probability: float) -> Counter[int]:
    """Expected visits of every position, by following every spawn of the table's best move
    in plain Python (the engine's ``slide`` for moves, the table's own advice for choices)."""
    formation = table.formation
    free = formation.free_cells
    caps = dict(zip(free, formation.radices, strict=True))

    def free_sum(board: tuple[int, ...]) -> int:
        return sum(board[c] for c in free)

    pending: defaultdict[int, Counter[tuple[int, ...]]] = defaultdict(Counter)
    first = tuple(v for row in start for v in row)
    pending[free_sum(first)][first] += 1.0
    visits: Counter[int] = Counter()
    while pending:
        for flat, seen in pending.pop(min(pending)).items():
            board = [list(flat[4 * r : 4 * r + 4]) for r in range(4)]
            visits[board_index(table, *pack(board))] += seen
            advice = table.lookup(board)
            assert advice is not None
            if advice.direction is None or advice.probability < min_probability:
                continue
            moved, _, _ = slide(board, advice.direction)
            after = [v for row in moved for v in row]
            if any(after[c] >= formation.target or after[c] >= 1 << caps[c] for c in free):
                continue  # the target made (or a cap passed): the phase is over
            empty = [c for c in free if after[c] == 0]
            for cell in empty:
                for tile, share in ((2, 0.9), (4, 0.1)):
                    child = after.copy()
                    child[cell] = tile
                    pending[free_sum(tuple(child))][tuple(child)] += seen * share / len(empty)
    return visits


@pytest.mark.parametrize(
    ("formation", "start"),
    [(SNAKE11, {12: 2, 15: 2}), (SNAKE11, {11: 4, 13: 2, 14: 8}), (CAPPED, {14: 2, 15: 4})],
)
@pytest.mark.parametrize("min_probability", [0.0, 0.3])
def test_visits_are_those_of_following_every_spawn_of_the_tables_moves(
    built: Path, formation, start: dict[int, int], min_probability: float
) -> None:
    table = open_table(formation, built)
    expected = plain_visits(table, board_of(start), min_probability)
    first = board_index(table, *pack(board_of(start)))
    indices, visits = expected_visits(
        table, np.array([first]), min_probability=min_probability, min_visits=0.0
    )
    assert len(indices) == len(set(indices.tolist())) == len(expected)
    assert dict(zip(indices.tolist(), visits.tolist(), strict=True)) == pytest.approx(expected)
    assert visits[indices.tolist().index(first)] == 1.0


def visits_from(table: Table, *starts: int, counts=None, min_visits=0.0) -> dict[int, float]:
    indices, visits = expected_visits(
        table, np.array(starts), counts, min_probability=0.0, min_visits=min_visits
    )
    return dict(zip(indices.tolist(), visits.tolist(), strict=True))


def test_starts_add_up_and_small_shares_are_not_followed(built: Path) -> None:
    table = open_table(SNAKE11, built)
    a = board_index(table, *pack(board_of({12: 2, 15: 2})))
    b = board_index(table, *pack(board_of({13: 2, 14: 4})))
    both = visits_from(table, a, b, counts=np.array([3.0, 1.0]))
    alone_a, alone_b = visits_from(table, a), visits_from(table, b)
    assert both == pytest.approx(
        {k: 3 * alone_a.get(k, 0.0) + alone_b.get(k, 0.0) for k in alone_a.keys() | alone_b.keys()}
    )
    pruned = visits_from(table, a, min_visits=0.05)
    assert 0 < len(pruned) < len(alone_a)
    assert all(seen <= alone_a[k] + 1e-12 for k, seen in pruned.items())


def test_answers_are_the_tables_chances_in_its_own_orientation(built: Path) -> None:
    table = open_table(SNAKE11, built)
    board = board_of({11: 4, 13: 2, 14: 8})
    index = board_index(table, *pack(board))
    assert direction_chances(table, np.array([index]))[0].tolist() == pytest.approx(
        list(table.lookup(board).values)
    )
    compact = compact_answers([table], {table.name: np.array([index, index])}, "test")
    assert compact.keys.tolist() == [index]
    assert [decode_chance(b) for b in compact.chances[0]] == pytest.approx(
        list(table.lookup(board).values), abs=0.02
    )


def test_the_most_visited_positions_are_kept_over_all_tables() -> None:
    visits = {
        "a": (np.array([5, 1, 9]), np.array([0.5, 3.0, 0.1])),
        "b": (np.array([7, 2]), np.array([2.0, 0.2])),
    }
    assert {k: v.tolist() for k, v in most_visited(visits, 3).items()} == {"a": [1, 5], "b": [7]}
    assert {k: v.tolist() for k, v in most_visited(visits, 10).items()} == {
        "a": [1, 5, 9],
        "b": [2, 7],
    }
