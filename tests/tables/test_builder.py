"""A table holds, for every position, the value of a plain exhaustive expectimax, and the
values of the dense builder py2048 had before layer-ordered tables."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from py2048.tables import Formation, table_path
from py2048.tables.builder import build_table, layer_count
from py2048.tables.ranking import offsets_of_indices
from py2048.tables.storage import PAYLOAD_OFFSET
from tests.tables.conftest import COLUMN, ROW3, ROW3_32, SMALL, fixed_clock, no_memory
from tests.tables.reference import SCALE, Reference


def stored_values(folder: Path, formation: Formation) -> np.ndarray:
    """The table's values in the order of the positions' dense index."""
    raw = np.fromfile(table_path(formation.name, folder), dtype="<u2", offset=PAYLOAD_OFFSET)
    return raw[offsets_of_indices(formation, np.arange(formation.entries))]


DENSE_DIGESTS = {
    "row3-16": "8293e7e91cbc9e32a2888ba06a9fbe2f14650b0538cbf7a6381453788fd00418",
    "row3-32": "a66aa8667bb3fde5a416722c912590b0f133159a287e8c9d29a64c4eae2a1e3a",
    "snake11-16": "9389ee7fee50dd535c03e01ecfdbb9b1710462dd15d4e746a8acf5228fcfc83d",
    "column-8": "473e34b947f40e30895bdd577d40b23096bf1149e59a2a3f463d5dec6f9a4618",
    "capped-32": "6753ec9ffcf5cebf8ee24646b1e9e9d87654b09f73a331cd96b01084b2415173",
}
"""The blake2b-256 digests of the payloads the dense builder (py2048 before layer-ordered
tables, format version 1, values in dense index order) wrote for the small formations."""


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_every_value_equals_the_dense_builders(formation: Formation, built: Path) -> None:
    dense = stored_values(built, formation).astype("<u2").tobytes()
    assert hashlib.blake2b(dense, digest_size=32).hexdigest() == DENSE_DIGESTS[formation.name]


def ranks_of(index: int, radices: tuple[int, ...]) -> list[int]:
    """The free cells' ranks of a position: the digits of its index in the mixed radix."""
    ranks = []
    for radix in radices:
        index, rank = divmod(index, radix)
        ranks.append(rank)
    return ranks


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_every_position_holds_the_plain_expectimax_value(formation: Formation, built: Path) -> None:
    values = stored_values(built, formation)
    assert values.size == formation.entries
    args = (formation.fixed, formation.target, formation.target_cells)
    quantized = Reference(*args, quantized=True, caps=formation.caps)
    exact = Reference(*args, quantized=False, caps=formation.caps)
    # Each stored value is rounded once; the errors of the children add up at most layer by
    # layer, half a step each.
    tolerance = layer_count(formation) * 0.5 / SCALE
    for index in range(formation.entries):
        board = quantized.board(ranks_of(index, formation.radices))
        assert values[index] == quantized.value(board), index
        assert abs(values[index] / SCALE - exact.value(board)) <= tolerance, index
    # The tables are not trivial: some positions are lost, some won, most in between.
    assert values.min() == 0
    assert values.max() == SCALE
    assert np.mean((values > 0) & (values < SCALE)) > 0.2


def test_a_position_whose_only_moves_break_the_formation_is_lost(built: Path) -> None:
    # Column 0 holds: empty, 2, 4 above the fixed cell 12. Up and left would slide walls
    # (cell 12 up, row 0's walls left); right and down change nothing.
    values = stored_values(built, COLUMN)
    index = 0 * 1 + 1 * 3 + 2 * 9
    assert values[index] == 0
    reference = Reference(COLUMN.fixed, COLUMN.target, COLUMN.target_cells, quantized=False)
    assert reference.direction_values(reference.board([0, 1, 2])) == [-1.0] * 4


def test_making_the_target_on_the_target_cell_wins_and_elsewhere_loses(built: Path) -> None:
    values = stored_values(built, ROW3)  # bottom row free, a 16 wanted at cell 12
    t = ROW3.rank_limit
    # 8 8 _ _ : left makes 16 on cell 12 -> 1.
    assert values[3 * 1 + 3 * t] == SCALE
    # _ _ 8 8 : left gives 16 at cell 12 as well; right gives it at cell 15 (a loss), so the
    # best is still 1.
    assert values[3 * t**2 + 3 * t**3] == SCALE
    # Full and stuck: 2 4 2 4 -> no move at all.
    assert values[1 + 2 * t + 1 * t**2 + 2 * t**3] == 0


def test_threads_do_not_change_a_single_value(tmp_path: Path) -> None:
    one = build_table(ROW3_32, tmp_path / "one", threads=1, clock=fixed_clock, memory=no_memory)
    two = build_table(ROW3_32, tmp_path / "two", threads=2, clock=fixed_clock, memory=no_memory)
    assert one.read_bytes()[PAYLOAD_OFFSET:] == two.read_bytes()[PAYLOAD_OFFSET:]
