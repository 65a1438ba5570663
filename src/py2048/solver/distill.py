"""``2048 distill``: the compact table, from the positions the solver's own games meet.

Plays whole games with the built endgame tables (``2048 tables build``), keeps every position
where a table chose the move, and writes the tables' answers for the most frequent of them to a
compact file (:mod:`py2048.tables.compact`): what ``pip install`` ships, so that the solver has
those answers without building the tables.

    2048 distill --games 400 --seed 100001 --depth 2 --out compact.npz
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from py2048.argtypes import non_negative_int, positive_int

if TYPE_CHECKING:
    from py2048.tables.compact import CompactTables
    from py2048.tables.lookup import Table

HELP = "collect the endgame tables' answers where games meet them, into a compact table"
MOVES_PER_GAME = 100_000
"""Most moves of one game looked at (a game rarely makes 30,000)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play whole games with the built endgame tables (2048 tables build), keep every "
        "position where a table chose the move, and write the tables' answers for the most "
        "frequent of them to a compact file: what the package ships, so that the solver has "
        "those answers without building the tables."
    )
    parser.add_argument(
        "--games", type=positive_int, default=200, help="games to play (default: %(default)s)"
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=100_001,
        help="c-rand seed of game 0; game i uses seed+i (default: %(default)s, far from the "
        "seeds the benchmarks use)",
    )
    parser.add_argument(
        "--depth", type=non_negative_int, default=2, help="search depth (default: %(default)s)"
    )
    parser.add_argument(
        "--max-positions",
        type=positive_int,
        default=600_000,
        help="keep at most this many positions, the most frequent (default: %(default)s)",
    )
    parser.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    parser.add_argument("--out", required=True, metavar="PATH", help="the compact file to write")


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    out = Path(args.out)
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: the folder {out.parent} does not exist")
    compact, met = distill(args.games, args.seed, args.depth, args.max_positions, args.workers)
    compact.save(out)
    print(
        f"{len(compact.keys):,} positions kept of {met:,} met in {args.games} games, "
        f"{out.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - started:,.0f} s: {out}"
    )
    return 0


def _table_moves(seed: int, depth: int) -> list[tuple[str, int, int]]:
    """One game's table moves: (table name, lo, hi)."""
    from py2048.solver.autoplay import SEARCHED, autoplay
    from py2048.solver.endgame import endgame_tables
    from py2048.solver.hint import resolve_plan

    tables = endgame_tables()
    trace = np.zeros((MOVES_PER_GAME, 3), dtype=np.uint64)
    record = autoplay(seed, resolve_plan(depth=depth), rng="c-rand", trace=trace)
    played = trace[: min(record.moves, MOVES_PER_GAME)]
    chosen = played[played[:, 0] != SEARCHED]
    return [(tables.names[int(t)], int(lo), int(hi)) for t, lo, hi in chosen]


def distill(
    games: int, seed: int, depth: int, max_positions: int, workers: int = 1
) -> tuple[CompactTables, int]:
    """The compact table of the positions met in these games, and how many distinct were met.

    Raises ValueError when no full table is built (there is nothing to distill).
    """
    from py2048.tables.lookup import available_tables, open_table

    full = [open_table(name) for name in available_tables()]
    if not full:
        raise ValueError("no endgame table is built: run 2048 tables build first")
    seeds = range(seed, seed + games)
    met: Counter[tuple[str, int, int]] = Counter()
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        for moves in pool.map(_table_moves, seeds, [depth] * games):
            met.update(moves)
    return answers_of(met, full, max_positions), len(met)


def answers_of(
    met: Counter[tuple[str, int, int]], tables: list[Table], max_positions: int
) -> CompactTables:
    """The answers of these opened full tables for the ``max_positions`` boards (of ``met``:
    table name, lo, hi) met most often."""
    from py2048.tables.compact import KEY_SHIFT, NOT_ALLOWED, STEPS, CompactTables, direction_maps
    from py2048.tables.kernels import position_index

    opened = {table.name: table for table in tables}
    names = [table.name for table in tables]
    formations = tuple(table.formation for table in tables)
    maps = direction_maps()
    rows: dict[int, np.ndarray] = {}
    for (name, lo, hi), _ in met.most_common():
        if len(rows) >= max_positions:
            break
        table = opened[name]
        symmetry, values = table.move_values(lo, hi)
        index = position_index(np.uint64(lo), np.uint64(hi), table.layouts[symmetry])
        key = names.index(name) << KEY_SHIFT | int(index)
        chances = np.full(4, NOT_ALLOWED, dtype=np.uint8)
        for d in range(4):
            if values[d] >= 0.0:
                chances[maps[symmetry, d]] = round(values[d] * STEPS)
        rows[key] = chances
    keys = np.array(sorted(rows), dtype=np.uint64)
    chances = np.array([rows[int(k)] for k in keys], dtype=np.uint8).reshape(-1, 4)
    source = f"{sum(met.values()):,} table moves ({len(met):,} boards) met in games"
    return CompactTables(formations, keys, chances, source)
