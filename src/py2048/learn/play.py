"""Greedy play with a network and no learning: how strong the network is on its own."""

from __future__ import annotations

import numpy as np

from py2048.engine.board import ROW_TABLES
from py2048.engine.rng import seed_key, validate_seed
from py2048.learn.kernels import (
    BOARD_COLUMNS,
    COUNTER_COLUMNS,
    COUNTER_IN_PROGRESS,
    RECORD_COLUMNS,
    RESULT_COLUMNS,
    Games,
    Learning,
    Output,
    scratch_rows,
)
from py2048.learn.network import NTupleNetwork
from py2048.learn.training import GameResult

_SEGMENT = 100_000


def play_greedy(network: NTupleNetwork, games: int, seed: int = 0) -> list[GameResult]:
    """Play ``games`` games choosing the move with the best ``gain + V(afterstate)``.

    Games spawn tiles exactly as training game numbers ``0 .. games-1`` of a run with this seed
    would, so a run's seed also names the games it was measured on.
    """
    if games < 1:
        raise ValueError(f"games must be 1 or more, got {games}")
    base_key = np.uint64(seed_key(np.uint64(validate_seed(seed))))
    boards = np.zeros((1, BOARD_COLUMNS), dtype=np.uint64)
    counters = np.zeros((1, COUNTER_COLUMNS), dtype=np.int64)
    no_restarts = np.zeros((0, 2), dtype=np.uint64)
    games_record = Games(boards, counters, base_key, 1, games, 0, 0.0, no_restarts, 0)
    output = Output(
        np.zeros((1, 0, RECORD_COLUMNS), dtype=np.uint64),
        np.zeros(1, dtype=np.int64),
        np.zeros((1, _SEGMENT + 1, RESULT_COLUMNS), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((1, 0, 2), dtype=np.uint64),
        np.zeros(1, dtype=np.int64),
        scratch_rows(1, len(network.layout)),
    )
    learning = Learning(network.weights.reshape(-1, 1), 0.0, False, False, False)
    finished: list[GameResult] = []
    while len(finished) < games or counters[0, COUNTER_IN_PROGRESS]:
        network.kernels.play_segment(0, _SEGMENT, learning, games_record, output, ROW_TABLES)
        finished.extend(
            GameResult.from_row(row) for row in output.results[0, : output.result_counts[0]]
        )
    return finished
