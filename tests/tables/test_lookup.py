"""A real board, in any orientation, reads the table as the builder computed it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from py2048.engine.board import ROW_TABLES, pack
from py2048.engine.geometry import SYMMETRIES
from py2048.tables import (
    Formation,
    available_tables,
    best_table_move_values,
    open_table,
    table_move_values,
)
from py2048.tables import formations as formations_module
from py2048.tables.layout import layout
from tests.tables.conftest import CAPPED, COLUMN, ROW3, SMALL, SNAKE11
from tests.tables.reference import DIRECTIONS, SCALE, Reference, slide

Grid = list[list[int]]


def transforms() -> list:
    """The board's 8 symmetries, on 4x4 grids, written with numpy's rotations and flips."""
    rotations = [lambda g, k=k: np.rot90(np.array(g), k) for k in range(4)]
    return [*rotations, *(lambda g, r=r: np.fliplr(r(g)) for r in rotations)]


def as_grid(array: np.ndarray) -> Grid:
    return [[int(v) for v in row] for row in array]


def direction_map(transform) -> list[int]:
    """``image[d]``: the direction on the transformed board that is direction d on the board,
    found by sliding a lopsided board both ways (the reference move, no geometry by hand)."""
    board = [2, 0, 0, 4, 0, 8, 0, 0, 0, 0, 16, 2, 32, 0, 0, 0]

    def moved(cells: list, direction: str) -> Grid:
        return as_grid(np.array(slide(cells, direction)).reshape(4, 4))

    image = as_grid(transform([board[4 * r : 4 * r + 4] for r in range(4)]))
    flat_image = [v for row in image for v in row]
    mapping = []
    for direction in DIRECTIONS:
        want = as_grid(transform(moved(board, direction)))
        (match,) = [i for i, d in enumerate(DIRECTIONS) if moved(flat_image, d) == want]
        mapping.append(match)
    return mapping


def real_board(formation: Formation, ranks: list[int], rng: random.Random) -> Grid:
    """The position as a real board: fixed cells get distinct tiles of at least the target."""
    big = [formation.target << k for k in range(len(formation.fixed))]
    rng.shuffle(big)
    tiles = dict(zip(formation.fixed, big, strict=True))
    for cell, rank in zip(formation.free_cells, ranks, strict=True):
        tiles[cell] = (1 << rank) if rank else 0
    return [[tiles[4 * r + c] for c in range(4)] for r in range(4)]


def all_ranks(formation: Formation):
    """Every position's ranks in index order (the first free cell's rank changes fastest)."""
    for reversed_ranks in itertools.product(*(range(r) for r in reversed(formation.radices))):
        yield reversed_ranks[::-1]


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_each_direction_reads_the_plain_expectimax_value(formation: Formation, built: Path):
    table = open_table(formation, built)
    reference = Reference(
        formation.fixed, formation.target, formation.target_cells, True, formation.caps
    )
    rng = random.Random(1)
    out = np.empty(4)
    for ranks in all_ranks(formation):
        lo, hi = pack(real_board(formation, list(ranks), rng))
        assert table_move_values(
            np.uint64(lo), np.uint64(hi), table.values, table.ranks, layout(formation),
            formation.rank_limit, ROW_TABLES, out,
        )  # fmt: skip
        want = reference.direction_values(reference.board(list(ranks)))
        assert out.tolist() == want
        index = sum(
            r * formation.place_values[c] for c, r in zip(formation.free_cells, ranks, strict=True)
        )
        assert table.dense_values(np.array([index]))[0] == int(max(0.0, *out) * SCALE + 0.5)


def test_every_symmetric_image_reads_the_same_values(built: Path) -> None:
    table = open_table(SNAKE11, built)  # no symmetry maps this formation onto itself
    rng = random.Random(2)
    maps = [direction_map(transform) for transform in transforms()]
    for ranks in all_ranks(SNAKE11):
        board = real_board(SNAKE11, list(ranks), rng)
        symmetry, values = table.move_values(*pack(board))
        assert symmetry == 0
        fits = set()
        for transform, image_of in zip(transforms(), maps, strict=True):
            symmetry, image_values = table.move_values(*pack(as_grid(transform(board))))
            fits.add(symmetry)
            assert [image_values[image_of[d]] for d in range(4)] == values.tolist()
        assert fits == set(range(8))


def test_a_symmetric_formation_takes_the_better_reading(built: Path) -> None:
    # The top three rows fixed also fit mirrored, with the target at cell 15 instead of 12.
    table = open_table(ROW3, built)
    block = [[4096, 2048, 1024, 512], [32, 64, 128, 256], [8192, 16384, 32768, 65536]]
    board = [*block, [2, 0, 8, 8]]  # right makes the 16 on cell 15, left on cell 13
    out = np.empty(4)
    lo, hi = (np.uint64(word) for word in pack(board))
    assert table_move_values(lo, hi, table.values, table.ranks, layout(ROW3), 4, ROW_TABLES, out)
    assert out.tolist() == [-1.0, 0.0, -1.0, 0.0]  # as built: both lose
    advice = table.lookup(board)
    assert advice is not None
    assert SYMMETRIES[advice.symmetry][15] == 12  # read mirrored: cell 15 is the target
    assert (advice.direction, advice.probability, advice.values) == (1, 1.0, (-1, 1, -1, 0))


def test_boards_outside_the_formation_do_not_fit(built: Path) -> None:
    table = open_table(ROW3, built)
    block = [[4096, 2048, 1024, 512], [32, 64, 128, 256], [8192, 16384, 32768, 65536]]
    assert table.lookup([*block, [2, 4, 8, 0]]) is not None
    assert table.lookup([*block, [2, 4, 16, 0]]) is None  # a free tile as large as the target
    small = [row[:] for row in block]
    small[1][0] = 8  # a fixed tile below the target
    assert table.lookup([*small, [2, 4, 8, 0]]) is None
    twins = [row[:] for row in block]
    twins[1][1] = twins[1][0]  # two equal neighbours in the block would merge
    assert table.lookup([*twins, [2, 4, 8, 0]]) is None
    apart = [row[:] for row in block]
    apart[1][2] = apart[1][0]  # equal but not neighbours: still fits
    assert table.lookup([*apart, [2, 4, 8, 0]]) is not None


def test_a_free_tile_above_its_cap_does_not_fit(built: Path) -> None:
    table = open_table(CAPPED, built)  # free: cell 11 up to 16, row 3 up to 4, 8, 8, 16
    block = [[64, 128, 256, 512], [1024, 2048, 4096, 8192], [32, 64, 128, 16]]
    assert table.lookup([*block, [4, 8, 8, 16]]) is not None
    assert table.lookup([*block, [8, 0, 0, 0]]) is None
    assert table.lookup([*block, [4, 16, 0, 0]]) is None


def test_a_board_whose_only_moves_break_the_formation_reads_zero(built: Path) -> None:
    table = open_table(COLUMN, built)
    board = [[0, 8, 16, 32], [2, 64, 128, 256], [4, 512, 1024, 2048], [4096, 8192, 16, 32]]
    advice = table.lookup(board)
    assert advice == advice.__class__(None, 0.0, (-1.0, -1.0, -1.0, -1.0), 0)
    # The same board with the 2 and 4 swapped down: down makes the 8 on cell 8.
    board[0][0], board[1][0], board[2][0] = 0, 4, 4
    assert table.lookup(board).values[2] == 1.0


def test_available_tables_lists_the_built_formations(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(formations_module, "FORMATIONS", [*SMALL])
    assert available_tables(built) == [f.name for f in SMALL]
    assert available_tables(built / "nowhere") == []


def test_symmetries_are_permutations_of_the_cells() -> None:
    for permutation in SYMMETRIES:
        assert sorted(permutation) == list(range(16))
    assert len(set(SYMMETRIES)) == 8


@njit(nogil=True, cache=True)
def _advice_in_a_kernel(lo, hi, values, ranks, arrays, rank_limit, tables):
    out = np.empty(4)
    symmetry = best_table_move_values(lo, hi, values, ranks, arrays, rank_limit, tables, out)
    return symmetry, out


def test_the_kernels_can_be_called_from_other_kernels(built: Path) -> None:
    table = open_table(SNAKE11, built)
    board = real_board(SNAKE11, [1, 0, 2, 1, 0], random.Random(3))
    lo, hi = (np.uint64(word) for word in pack(board))
    symmetry, out = _advice_in_a_kernel(
        lo, hi, table.values, table.ranks, table.layouts, table.rank_limit, ROW_TABLES
    )
    assert (symmetry, out.tolist()) == (0, table.move_values(lo, hi)[1].tolist())
    writable = np.array(table.values)  # the kernels take writable values too
    assert _advice_in_a_kernel(lo, hi, writable, table.ranks, table.layouts, 4, ROW_TABLES)[0] == 0
