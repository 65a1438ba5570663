"""A table holds, for every position, the value of a plain exhaustive expectimax."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from py2048.tables import Formation, builder, table_path
from py2048.tables.builder import _count_by_layer, _gather_band, build_table, layer_count
from py2048.tables.storage import PAYLOAD_OFFSET
from tests.tables.conftest import COLUMN, ROW3, ROW3_32, SMALL, fixed_clock
from tests.tables.reference import SCALE, Reference


def stored_values(folder: Path, formation: Formation) -> np.ndarray:
    return np.fromfile(table_path(formation.name, folder), dtype="<u2", offset=PAYLOAD_OFFSET)


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
    one = build_table(ROW3_32, tmp_path / "one", threads=1, clock=fixed_clock)
    two = build_table(ROW3_32, tmp_path / "two", threads=2, clock=fixed_clock)
    assert one.read_bytes()[PAYLOAD_OFFSET:] == two.read_bytes()[PAYLOAD_OFFSET:]


@pytest.mark.parametrize(
    "radices", [(3,), (4, 4, 4, 4), (5, 5, 5, 5), (6, 6, 6), (5, 3, 4, 3), (3, 6, 4)]
)
@pytest.mark.parametrize("chunks", [1, 7])
def test_the_layers_hold_every_position_once_by_tile_sum(radices: tuple[int, ...], chunks: int):
    entries = int(np.prod(radices))
    layers = sum(1 << (radix - 2) for radix in radices) + 1
    counts = np.zeros((min(chunks, entries), layers), dtype=np.int64)
    digits = np.array(radices, dtype=np.int64)
    _count_by_layer(digits, counts)
    sizes = counts.sum(axis=0)
    assert sizes.sum() == entries
    seen: list[int] = []
    for low, high in [(0, layers), (0, layers // 2), (layers // 2, layers)]:
        order = np.empty(sizes[low:high].sum(), dtype=np.int64)
        _gather_band(digits, counts, low, high, order)
        start = 0
        for layer in range(low, high):
            members = order[start : start + sizes[layer]].tolist()
            start += sizes[layer]
            assert members == sorted(members)
            for index in members:
                ranks = ranks_of(index, radices)
                assert sum((1 << r) if r else 0 for r in ranks) == 2 * layer
            if (low, high) != (0, layers):
                seen.extend(members)
    assert sorted(seen) == list(range(entries))


def test_a_build_in_many_small_bands_gives_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = build_table(ROW3_32, tmp_path / "whole", clock=fixed_clock).read_bytes()
    monkeypatch.setattr(builder, "BAND_POSITIONS", 5)
    banded = build_table(ROW3_32, tmp_path / "banded", clock=fixed_clock).read_bytes()
    assert banded == whole
