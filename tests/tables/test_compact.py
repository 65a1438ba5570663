"""The compact table: the full tables' answers for chosen positions, in any orientation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from py2048 import slide
from py2048.engine.board import pack
from py2048.engine.geometry import SYMMETRIES
from py2048.tables import open_table
from py2048.tables.compact import (
    COMPACT_FORMAT,
    CompactTables,
    compact_move_values,
    decode_chance,
    direction_maps,
    encode_chances,
)
from py2048.tables.distillation import board_index, compact_answers
from tests.tables.conftest import ROW3_32, SNAKE11

BOARDS = [
    [[4096, 2048, 1024, 512], [32, 64, 128, 256], [512, 1024, 2048, 4096], [0, 2, 4, 8]],
    [[4096, 2048, 1024, 512], [32, 64, 128, 256], [512, 1024, 2048, 4096], [2, 2, 0, 16]],
    [[8192, 4096, 2048, 1024], [64, 128, 256, 512], [32, 16, 2, 4], [0, 0, 8, 2]],
]


def image(board: list[list[int]], k: int) -> list[list[int]]:
    """The board as symmetry ``k`` shows it (cell c goes to SYMMETRIES[k][c])."""
    flat = [0] * 16
    for cell in range(16):
        flat[SYMMETRIES[k][cell]] = board[cell // 4][cell % 4]
    return [flat[4 * r : 4 * r + 4] for r in range(4)]


@pytest.mark.parametrize("k", range(8))
def test_each_real_direction_is_the_mapped_direction_of_the_image(k: int) -> None:
    maps = direction_maps()
    board = [[2, 4, 0, 8], [0, 16, 2, 0], [4, 0, 0, 2], [32, 2, 64, 4]]
    for d in range(4):
        moved, _, _ = slide(board, d)
        moved_image, _, _ = slide(image(board, k), int(maps[k, d]))
        assert image(moved, k) == moved_image


def compact_of(folder: Path, boards: list[list[list[int]]]) -> CompactTables:
    """The compact table of these boards' positions (in every orientation) in two tables."""
    tables = [open_table(ROW3_32, folder), open_table(SNAKE11, folder)]
    kept = {
        table.name: [
            board_index(table, *pack(image(board, k)))
            for board in boards
            for k in range(8)
            if table.lookup(image(board, k)) is not None
        ]
        for table in tables
    }
    return compact_answers(tables, kept, "test")


def test_a_kept_position_reads_the_full_tables_answer_in_every_orientation(
    built: Path,
) -> None:
    compact = compact_of(built, BOARDS[:2])
    table = open_table(ROW3_32, built)
    layouts = compact.layouts
    out = np.empty(4)
    for board in BOARDS[:2]:
        for k in range(8):
            turned = image(board, k)
            advice = table.lookup(turned)
            assert advice is not None
            symmetry = compact_move_values(
                *(np.uint64(x) for x in pack(turned)), 0, compact.keys, compact.chances,
                layouts[0], ROW3_32.rank_limit, direction_maps(), out,
            )  # fmt: skip
            assert symmetry >= 0
            expected = [decode_chance(b) for b in encode_chances(np.array(advice.values))]
            assert out.tolist() == pytest.approx(expected)


def test_a_position_not_kept_is_not_answered(built: Path) -> None:
    compact = compact_of(built, BOARDS[:1])
    out = np.empty(4)
    symmetry = compact_move_values(
        *(np.uint64(x) for x in pack(BOARDS[1])), 0, compact.keys, compact.chances,
        compact.layouts[0], ROW3_32.rank_limit, direction_maps(), out,
    )  # fmt: skip
    assert symmetry == -1


def test_the_compact_file_round_trips_and_refuses_other_files(built: Path, tmp_path: Path) -> None:
    compact = compact_of(built, BOARDS)
    path = tmp_path / "compact.npz"
    compact.save(path)
    again = CompactTables.load(path)
    assert again.formations == compact.formations and again.source == compact.source
    assert np.array_equal(again.keys, compact.keys)
    assert np.array_equal(again.chances, compact.chances)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, format=np.array("something else"))
    for bad in (foreign, tmp_path / "missing.npz"):
        with pytest.raises(ValueError, match="cannot be read as compact tables"):
            CompactTables.load(bad)


def test_a_chance_is_stored_in_a_byte_finely_near_certainty() -> None:
    chances = np.array([-1.0, 0.0, 0.3, 0.5, 0.9, 0.9995, 0.9997, 1.0])
    stored = encode_chances(chances)
    decoded = np.array([decode_chance(b) for b in stored])
    assert stored[0] == 255 and decoded[0] == -1.0
    assert decoded[1] == 0.0 and decoded[-1] == 1.0
    assert np.all(np.diff(stored[1:].astype(int)) > 0)  # near-certain chances stay apart
    assert np.abs(decoded[1:] - chances[1:]).max() < 0.02
    assert abs(decoded[-2] - 0.9997) < 0.00005


def test_a_damaged_or_older_compact_file_is_refused_with_its_name(
    built: Path, tmp_path: Path
) -> None:
    path = tmp_path / "compact.npz"
    compact_of(built, BOARDS).save(path)
    with np.load(path) as archive:
        arrays = dict(archive)
    cut = tmp_path / "cut.npz"
    np.savez(cut, **{**arrays, "chances": arrays["chances"][:-9]})
    garbled = tmp_path / "garbled.npz"
    garbled.write_bytes(path.read_bytes()[:1000])
    older = tmp_path / "older.npz"
    np.savez(older, format=np.array(COMPACT_FORMAT), version=np.array(1))
    for bad, problem in (
        (cut, "cannot be read"),
        (garbled, "cannot be read"),
        (older, "older py2048"),
    ):
        with pytest.raises(ValueError, match=problem) as caught:
            CompactTables.load(bad)
        assert str(bad) in str(caught.value)
