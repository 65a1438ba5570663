"""The solver with endgame tables: a table answers where a board fits its formation."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import can_move, slide
from py2048.engine.board import pack, unpack_exponents
from py2048.evaluation.registry import get_evaluator
from py2048.solver import autoplay as autoplay_module
from py2048.solver.autoplay import SEARCHED, autoplay
from py2048.solver.endgame import NO_TABLES, TableSet, endgame_tables, forget_tables
from py2048.solver.hint import resolve_plan, search_packed
from py2048.tables import Formation, open_table
from py2048.tables.builder import build_table
from py2048.tables.distillation import board_index, compact_answers

ROW3 = Formation("row3-32", fixed=tuple(range(12)), target=32, target_cells=(12,))
"""The top three rows hold large tiles; build a 32 at the bottom row's left end."""
TOP = [[65536, 32768, 16384, 8192], [512, 1024, 2048, 4096], [128, 256, 64, 128]]
"""Three rows of large tiles, no two equal neighbours (65536 only in the first row)."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built: Path = tmp_path_factory.mktemp("tables")
    build_table(ROW3, built, clock=lambda: 0.0, memory=lambda: 0)
    return built


@pytest.fixture(scope="module")
def row3(folder: Path) -> TableSet:
    """The small table, asked for chains from 64 up and whatever its chance (the defaults ask
    only from 256 up, with at least a 30% chance, which a 4-cell table never offers)."""
    return TableSet.of([open_table(ROW3, folder)], min_probability=0.0, min_tail=6)


def advise(board: list[list[int]], tables: TableSet, preset: str = "fast"):
    return search_packed(*pack(board), resolve_plan(preset=preset), get_evaluator(), tables)


def test_a_board_that_fits_is_answered_by_the_table(row3: TableSet, folder: Path) -> None:
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 4, 8]]
    hint = advise(board, row3)
    advice = open_table(ROW3, folder).lookup(board)
    assert advice is not None
    assert hint.source == "table" and hint.table == "row3-32" and hint.table_target == 32
    assert hint.direction == advice.direction
    assert hint.values == {d: p for d, p in enumerate(advice.values) if p >= 0.0}
    assert hint.depth == 0 and hint.nodes == 0
    assert all(0.0 <= p <= 1.0 for p in hint.values.values())
    assert hint.values[hint.direction] == max(hint.values.values()) > 0.0
    # Only moves that keep the three large rows in place are offered: up would lift the 2.
    assert set(hint.values) <= {d for d in range(4) if slide(board, d)[2]}


def test_a_board_that_does_not_fit_is_searched(row3: TableSet) -> None:
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 64, 8]]  # a 64 among the small tiles
    hint = search_packed(*pack(board), resolve_plan(depth=1), get_evaluator(), row3)
    assert hint.source == "search" and hint.table is None and hint.depth == 1


def test_without_tables_the_same_board_is_searched(row3: TableSet) -> None:
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 4, 8]]
    assert advise(board, NO_TABLES).source == "search"


def test_a_table_set_knows_each_built_table_by_its_checksum(row3: TableSet, folder: Path) -> None:
    assert row3.checksums == (open_table(ROW3, folder).header.checksum,)
    assert row3.checksums[0].startswith("blake2b-256")
    assert TableSet.of([]).checksums == ()


def test_by_default_a_table_answers_only_for_a_chain_of_large_tiles(folder: Path) -> None:
    defaults = TableSet.of([open_table(ROW3, folder)])
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 4, 8]]  # the chain ends in a 64
    assert advise(board, defaults).source == "search"


def test_a_table_answers_only_where_its_target_continues_the_chain(row3: TableSet) -> None:
    # The smallest large tile is 128, four times the target: building a 32 does not continue
    # the chain, so the table does not answer.
    board = [*TOP[:2], [128, 256, 512, 128], [2, 0, 4, 8]]
    assert advise(board, row3).source == "search"


small = st.sampled_from([0, 0, 2, 4, 8, 16])


@settings(max_examples=60, deadline=None)
@given(st.lists(small, min_size=4, max_size=4), st.sampled_from(["fast", "balanced"]))
def test_with_tables_every_answer_is_a_legal_move(row3: TableSet, bottom, preset) -> None:
    board = [*TOP[:2], [128, 256, 64, 128], bottom]
    hint = advise(board, row3, preset)
    if not can_move(board):
        assert hint.direction is None
        return
    assert hint.direction is not None and slide(board, hint.direction)[2]


def test_a_whole_game_from_a_fitting_board_plays_table_moves(
    row3: TableSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(autoplay_module, "endgame_tables", lambda: row3)
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 0, 0]]
    with_tables = autoplay(7, resolve_plan(depth=1), board=board)
    without = autoplay(7, resolve_plan(depth=1), board=board, tables=False)
    assert with_tables.table_moves > 0 and without.table_moves == 0
    assert with_tables.moves >= with_tables.table_moves


def test_a_trace_holds_every_move_of_the_game_and_who_chose_it(row3: TableSet) -> None:
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 0, 0]]
    trace = np.zeros((10_000, 3), dtype=np.uint64)
    record = autoplay(7, resolve_plan(depth=1), board=board, tables=row3, trace=trace)
    played = trace[: record.moves]
    assert record.moves < len(trace) and not trace[record.moves :].any()
    assert tuple(played[0, 1:]) == pack(board)
    chosen_by_table = played[:, 0] != SEARCHED
    assert chosen_by_table.sum() == record.table_moves > 0
    assert set(played[chosen_by_table, 0]) == {0}  # the set's only table
    # Each board is the one before it after a move and one new 2 or 4.
    sums = [sum(2**e for e in unpack_exponents(int(lo), int(hi)) if e) for lo, hi in played[:, 1:]]
    assert {b - a for a, b in pairwise(sums)} <= {2, 4}
    # A trace shorter than the game keeps its first moves, and the game is the same.
    short = np.zeros((5, 3), dtype=np.uint64)
    again = autoplay(7, resolve_plan(depth=1), board=board, tables=row3, trace=short)
    assert again == replace(record, seconds=again.seconds) and (short == played[:5]).all()


def test_the_compact_table_answers_where_no_full_table_is_built(folder: Path) -> None:
    table = open_table(ROW3, folder)
    board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 4, 8]]
    compact = compact_answers([table], {table.name: [board_index(table, *pack(board))]}, "test")
    only_compact = TableSet.of([], compact, min_probability=0.0, min_tail=6)
    hint = advise(board, only_compact)
    assert hint.source == "table" and hint.table == "row3-32 (compact)"
    assert hint.direction == table.lookup(board).direction
    # A board it did not keep is searched.
    other = [*TOP[:2], [128, 256, 64, 128], [2, 4, 0, 8]]
    assert advise(other, only_compact).source == "search"


def test_a_damaged_shipped_compact_table_is_left_out_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = tmp_path / "compact.npz"
    damaged.write_bytes(b"PK\x03\x04 not an archive")
    monkeypatch.setattr("py2048.tables.compact.shipped_path", lambda: damaged)
    forget_tables()
    try:
        with pytest.warns(UserWarning, match=r"compact\.npz: cannot be read.*without it"):
            tables = endgame_tables()
        assert tables.names == ()
        board = [*TOP[:2], [128, 256, 64, 128], [2, 0, 4, 8]]
        assert advise(board, tables).source == "search"
    finally:
        forget_tables()
