"""Where whole games are lost on the way to 32768: before or after the last stage begins.

The last stage is a 16384, 8192, 4096 and 2048 along the snake from a corner (the formation of
``snake4-2048``, whose chance from that stage's start is 68.4%). This plays games with the
solver, keeps every move's board and what chose it (a table or the search), and counts the games
that reached the stage and made 32768 from it, and those lost before it: stopped below 16384, or
lost with a 16384 on the board before its chain of four stood, where no table fits and the search
on the network decides. It also says which tables chose the stage's moves.

    PY2048_TABLES_DIR=/path/to/tables python benchmarks/stage_entry.py --games 60
    python benchmarks/stage_entry.py --games 60 --depth 2 --seed 2001 --workers 2

Pin ``PY2048_TABLES_DIR``: the built tables change the games. Spawns are c-rand's, seeds from
``--seed`` on, as ``2048 bench --rng c-rand`` plays them (the same games, move for move).
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from multiprocessing import get_context
from typing import NamedTuple

import numpy as np
from rich.console import Console
from rich.table import Table as RichTable

# internal: a game's trace of boards and choosers, and the snake paths from each corner
from py2048.evaluation.snake import SNAKE_PATHS
from py2048.solver.autoplay import SEARCHED, autoplay
from py2048.solver.endgame import endgame_tables
from py2048.solver.hint import resolve_plan

CHAIN = np.array([14, 13, 12, 11])
"""16384, 8192, 4096, 2048 as exponents: the last stage's chain along the snake."""
TRACE_ROWS = 80_000


class Game(NamedTuple):
    seed: int
    max_exponent: int
    stage_moves: int
    """Moves played with the last stage's chain in place and no 32768 yet."""
    choosers: dict[str, int]
    """Who chose those moves: a table's name, or "search"."""


def exponents(trace: np.ndarray) -> np.ndarray:
    """(moves, 16) tile exponents of the traced boards."""
    lo = trace[:, 1][:, None]
    hi = trace[:, 2][:, None]
    shifts = np.arange(16, dtype=np.uint64)
    low = (lo >> (np.uint64(4) * shifts)) & np.uint64(15)
    high = ((hi >> shifts) & np.uint64(1)) * np.uint64(16)
    return (low + high).astype(np.int64)


def in_last_stage(cells: np.ndarray) -> np.ndarray:
    """Per board: the chain 16384, 8192, 4096, 2048 starts a snake from a corner, no 32768."""
    along = cells[:, SNAKE_PATHS[:, : len(CHAIN)]]  # (moves, paths, 4)
    chained = (along == CHAIN).all(axis=2).any(axis=1)
    return chained & (cells.max(axis=1) == CHAIN[0])


def play(seed: int, depth: int) -> Game:
    names = endgame_tables().names
    trace = np.zeros((TRACE_ROWS, 3), dtype=np.uint64)
    record = autoplay(seed, resolve_plan(depth), rng="c-rand", trace=trace)
    rows = trace[: min(record.moves, TRACE_ROWS)]
    cells = exponents(rows)
    stage = in_last_stage(cells)
    choosers: Counter[str] = Counter()
    for chooser in rows[stage, 0]:
        choosers["search" if chooser == SEARCHED else names[int(chooser)]] += 1
    return Game(seed, record.max_tile.bit_length() - 1, int(stage.sum()), dict(choosers))


def _play(args: tuple[int, int]) -> Game:
    return play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2001)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    console = Console()
    console.print(
        f"tables: {os.environ.get('PY2048_TABLES_DIR', 'the default folder')} "
        f"({', '.join(endgame_tables().names) or 'none'}); d{args.depth}, c-rand, seeds "
        f"{args.seed}-{args.seed + args.games - 1}"
    )
    jobs = [(seed, args.depth) for seed in range(args.seed, args.seed + args.games)]
    with get_context("spawn").Pool(args.workers) as pool:
        games = sorted(pool.imap_unordered(_play, jobs))
    entered = [g for g in games if g.stage_moves]
    others = [g for g in games if not g.stage_moves]
    rows = [
        ("games", len(games)),
        ("reached the last stage", len(entered)),
        ("  of which made 32768", sum(g.max_exponent >= 15 for g in entered)),
        ("stopped below 16384", sum(g.max_exponent < 14 for g in others)),
        ("lost with a 16384, before the last stage", sum(g.max_exponent == 14 for g in others)),
        ("made 32768 without the stage's chain", sum(g.max_exponent >= 15 for g in others)),
    ]
    table = RichTable(title="Where the games went")
    table.add_column("games")
    table.add_column("count", justify="right")
    for label, count in rows:
        table.add_row(label, str(count))
    console.print(table)
    choosers: Counter[str] = Counter()
    for game in entered:
        choosers.update(game.choosers)
    total = sum(choosers.values())
    if total:
        shares = ", ".join(f"{name} {n / total:.1%}" for name, n in choosers.most_common())
        console.print(f"the last stage's {total:,} moves were chosen by: {shares}")


if __name__ == "__main__":
    main()
