"""benchmarks/endgame.py: late-game positions played on, and where their large tile stands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from benchmarks.endgame import main, phase, play_until, write_positions

from py2048.engine.board import max_exponent, pack, unpack
from py2048.engine.geometry import SNAKE
from py2048.evaluation.registry import get_evaluator
from py2048.solver import crand
from py2048.solver.endgame import NO_TABLES
from py2048.solver.hint import resolve_plan

STAGE = 14  # 16384


def board_with(along_snake: list[int], extra: dict[int, int] | None = None) -> list[list[int]]:
    """A board with these tiles down the snake from the top-left corner, and others by cell."""
    cells = [0] * 16
    for cell, tile in zip(SNAKE, along_snake, strict=False):
        cells[cell] = tile
    for cell, tile in (extra or {}).items():
        cells[cell] = tile
    return [cells[row * 4 : row * 4 + 4] for row in range(4)]


def rotated(board: list[list[int]]) -> list[list[int]]:
    """The board turned a quarter clockwise."""
    return [list(row) for row in zip(*board[::-1], strict=True)]


def phase_of(board: list[list[int]], stage: int = STAGE) -> int | None:
    return phase(*pack(board), stage)


def test_phase_counts_the_large_tiles_down_the_snake_from_the_corner() -> None:
    board = board_with([16384, 8192, 4096, 2048, 128, 1024], {12: 2, 15: 4})
    assert phase_of(board) == 4  # 128 breaks the chain: the 1024 after it does not count
    assert phase_of(board_with([16384, 2, 8192])) == 1
    assert phase_of(board_with([16384, 4096, 8192])) == 2  # 8192 after 4096 is not a chain


def test_phase_reads_every_symmetry_of_a_board_alike() -> None:
    board = board_with([16384, 8192, 4096, 256], {10: 2})
    mirrored = [row[::-1] for row in board]
    for start in (board, mirrored):
        turned = start
        for _ in range(4):
            assert phase_of(turned) == 4
            turned = rotated(turned)


def test_phase_tells_a_large_tile_off_its_corner_and_boards_of_other_stages() -> None:
    off_corner = board_with([2, 16384, 8192])
    assert phase_of(off_corner) == -1
    assert phase_of(board_with([8192, 4096])) is None  # no 16384 yet
    assert phase_of(board_with([32768, 16384])) is None  # past the stage


def test_play_until_stops_at_the_tile_it_is_told() -> None:
    state = crand.new_state()
    crand.seed(np.uint64(7), state)
    board = board_with([1024, 1024], {15: 2})
    lo, hi, score, moves, table_moves = play_until(
        *(np.uint64(half) for half in pack(board)),
        state,
        resolve_plan(depth=1),
        get_evaluator(),
        NO_TABLES,
        11,
    )
    assert max_exponent(lo, hi) == 11
    assert score >= 2048 and moves >= 1
    assert table_moves == 0
    grown = sum(map(sum, unpack(int(lo), int(hi)))) - sum(map(sum, board))
    assert 2 * moves <= grown <= 4 * moves  # merges keep the tile sum; each spawn adds 2 or 4


def test_play_until_ends_when_no_move_is_left() -> None:
    full = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    lo, hi, score, moves, _ = play_until(
        *(np.uint64(half) for half in pack(full)),
        crand.new_state(),
        resolve_plan(depth=1),
        get_evaluator(),
        NO_TABLES,
        11,
    )
    assert (score, moves) == (0, 0)
    assert unpack(int(lo), int(hi)) == full


def test_positions_file_has_one_position_a_line_and_reads_back(tmp_path: Path) -> None:
    positions = [
        {"seed": 2001, "moves": 9000, "score": 150_000, "board": board_with([16384, 2])},
        {"seed": 2002, "moves": 9100, "score": 151_000, "board": board_with([16384, 4])},
    ]
    document = {"description": "two", "command": "made by hand", "tile": 16384}
    path = tmp_path / "positions.json"
    write_positions({**document, "positions": positions}, path)
    assert json.loads(path.read_text()) == {**document, "positions": positions}
    lines = path.read_text().splitlines()
    assert [json.loads(line.strip().rstrip(",")) for line in lines[5:7]] == positions


@pytest.mark.slow
def test_measure_plays_each_position_to_its_target_and_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    almost = board_with([512, 512], {15: 2})
    stuck = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 512]]
    positions = tmp_path / "positions.json"
    write_positions(
        {
            "description": "one that makes its 1024 at once, one with no move left",
            "command": "made by hand",
            "tile": 512,
            "positions": [
                {"seed": 1, "moves": 500, "score": 5000, "board": almost},
                {"seed": 2, "moves": 600, "score": 6000, "board": stuck},
            ],
        },
        positions,
    )
    report = tmp_path / "report.json"
    argv = ["endgame.py", "--depth", "1", "--no-tables", "--stop-at-target"]
    argv += ["--positions", str(positions), "--json", str(report)]
    monkeypatch.setattr(sys, "argv", argv)
    assert main() == 0
    assert "1 of 2 positions reached 1024: 50.0%" in capsys.readouterr().out
    written = json.loads(report.read_text())
    assert written["summary"]["reached"] == 1
    made, lost = written["results"]
    assert made["max_tile"] == 1024 and made["final_score"] >= 5000 + 1024
    assert (lost["max_tile"], lost["moves"], lost["final_score"]) == (512, 0, 6000)
