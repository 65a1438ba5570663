"""Summary figures of a bench: scores, tile rates with Wilson intervals, speed."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from py2048.solver.autoplay import GameRecord

MILESTONES = (2048, 4096, 8192, 16384, 32768, 65536)
"""Tiles whose rates the bench reports."""
Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); sound at 0% and 100%."""
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, got {successes}")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return low, high


@dataclass(frozen=True)
class TileRate:
    tile: int
    games: int
    """Games whose largest tile was at least ``tile``."""
    share: float
    low: float
    high: float


@dataclass(frozen=True)
class Summary:
    games: int
    mean_score: float
    median_score: float
    max_score: int
    rates: tuple[TileRate, ...]
    total_moves: int
    """Moves of all games together."""
    mean_moves: float
    """Moves per game, on average."""
    moves_per_second_per_worker: float
    """Moves per second of one worker: all moves over the time the games took, summed."""
    wall_seconds: float
    table_move_share: float = 0.0
    """The share of all moves that endgame tables chose (the others were searched)."""


def summarize(records: Sequence[GameRecord], wall_seconds: float) -> Summary:
    """Figures over finished games; raises ValueError when there are none."""
    if not records:
        raise ValueError("no games to summarize")
    scores = [r.score for r in records]
    rates = []
    for tile in MILESTONES:
        reached = sum(r.max_tile >= tile for r in records)
        low, high = wilson_interval(reached, len(records))
        rates.append(TileRate(tile, reached, reached / len(records), low, high))
    moves = sum(r.moves for r in records)
    busy = sum(r.seconds for r in records)
    return Summary(
        games=len(records),
        mean_score=statistics.fmean(scores),
        median_score=statistics.median(scores),
        max_score=max(scores),
        rates=tuple(rates),
        total_moves=moves,
        mean_moves=moves / len(records),
        moves_per_second_per_worker=moves / busy if busy > 0 else math.inf,
        wall_seconds=wall_seconds,
        table_move_share=sum(r.table_moves for r in records) / moves if moves else 0.0,
    )
