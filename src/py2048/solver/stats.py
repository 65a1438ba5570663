"""Summary figures of a bench: scores, tile rates with Wilson intervals, speed."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from py2048.engine.size import DEFAULT_SIZE, BoardSize

if TYPE_CHECKING:
    from py2048.solver.autoplay import GameRecord

MILESTONES = (2048, 4096, 8192, 16384, 32768, 65536)
"""Tiles whose rates the bench reports on 4x4."""
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


def milestones_for(size: BoardSize, best: int = 0) -> tuple[int, ...]:
    """The tiles whose rates a bench on ``size`` reports: :data:`MILESTONES` on 4x4; elsewhere
    from 2048 (or, on boards that cannot make 2**14, the size's largest tile's eighth) to
    eight tiles up or the size's largest tile, and on to ``best`` (the largest tile made) if
    higher: 128 to 1024 on 3x3, 2048 to 262144 on 5x5."""
    if size == DEFAULT_SIZE:
        return MILESTONES
    low = min(11, size.max_exponent - 3)
    high = min(size.max_exponent, max(low + 7, best.bit_length() - 1))
    return tuple(1 << e for e in range(low, high + 1))


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
    capped: int = 0
    """Games stopped by a move cap (``2048 bench --max-moves``) before their end."""


def summarize(
    records: Sequence[GameRecord], wall_seconds: float, size: BoardSize = DEFAULT_SIZE
) -> Summary:
    """Figures over finished games on boards of ``size``; raises ValueError when there are
    none."""
    if not records:
        raise ValueError("no games to summarize")
    scores = [r.score for r in records]
    rates = []
    for tile in milestones_for(size, max(r.max_tile for r in records)):
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
        capped=sum(r.capped for r in records),
    )
