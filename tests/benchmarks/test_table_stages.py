"""benchmarks/table_stages.py: where games ended, told from their move counts."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.table_stages import MEAN_SPAWN, ended_stages, entry_board

from py2048.engine.geometry import SNAKE


def moves_for(tile_sum: int) -> int:
    """The move count whose expected board tile sum is ``tile_sum`` (two tiles to start)."""
    return round(tile_sum / MEAN_SPAWN) - 2


def test_entry_board_is_the_snake_then_two_2s() -> None:
    board = entry_board(6, 16384)
    cells = [tile for row in board for tile in row]
    assert [cells[c] for c in SNAKE[:8]] == [16384, 8192, 4096, 2048, 1024, 512, 2, 2]
    assert sum(1 for tile in cells if tile) == 8


def test_games_are_placed_by_the_chain_their_tile_sum_covers(tmp_path: Path) -> None:
    games = [
        {"max_tile": 16384, "moves": moves_for(16384 + 5000)},  # building the 8192
        {"max_tile": 16384, "moves": moves_for(16384 + 8192 + 4096 + 1500)},  # the 2048
        {"max_tile": 16384, "moves": moves_for(30720 + 600)},  # chain of four: the 1024
        {"max_tile": 16384, "moves": moves_for(32256 + 300)},  # six or more
        {"max_tile": 16384, "moves": moves_for(32700)},  # six or more
        {"max_tile": 32768, "moves": moves_for(40000)},  # made the next tile: not counted
    ]
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"games": games}), encoding="utf-8")
    assert ended_stages([path], 16384) == {1: 1, 3: 1, 4: 1, 6: 2}
    assert ended_stages([path], 32768) == {1: 1}  # 40,000 is short of 32768 + 16384
