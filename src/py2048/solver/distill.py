"""``2048 distill``: the compact table, from the table phases the solver's own games meet.

Plays whole games with the built endgame tables (``2048 tables build``) and keeps the board on
which each table phase began (a table chose the move, and not the same table the move before).
From those boards it computes where each table's own play goes, the expected visits of every
position it reaches (:mod:`py2048.tables.distillation`), and writes the tables' answers for the
most visited positions to a compact file (:mod:`py2048.tables.compact`): what ``pip install``
ships, so that the solver has those answers without building the tables.

    2048 distill --games 400 --seed 100001 --depth 2 --out compact.npz

Every other command lives as ``<part>/command.py`` of the part it runs; this one is in
``solver/`` because the layering puts it there: it plays the solver's games, and the tables
sit below the solver (``tables`` never imports ``solver``), so ``tables/command.py`` could not.
"""

from __future__ import annotations

import argparse
import sys
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

HELP = "distil the built endgame tables into a compact table of the positions play visits most"
MOVES_PER_GAME = 100_000
"""Most moves of one game looked at (a game rarely makes 30,000)."""
MAX_POSITIONS = 4_000_000
"""The shipped file's size: about 7 MB (``docs/solver-reference.md``, "The compact table")."""
MIN_VISITS = 1e-5
"""A spawn's share of a position's expected visits below this is not followed."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play whole games with the built endgame tables (2048 tables build), keep the board "
        "on which each table phase began, compute how often each table's own play from there "
        "visits every position, and write the tables' answers for the most visited positions "
        "to a compact file: what the package ships, so that the solver has those answers "
        "without building the tables."
    )
    parser.add_argument(
        "--games", type=positive_int, default=400, help="games to play (default: %(default)s)"
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
        default=MAX_POSITIONS,
        help="keep at most this many positions, the most visited (default: %(default)s)",
    )
    parser.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    parser.add_argument("--out", required=True, metavar="PATH", help="the compact file to write")


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    out = Path(args.out)
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: the folder {out.parent} does not exist")
    from py2048.tables.lookup import available_tables

    built = available_tables()
    if not built:
        print(
            "2048 distill: no endgame table is built: run 2048 tables build first", file=sys.stderr
        )
        return 1
    compact = distill(args.games, args.seed, args.depth, args.max_positions, args.workers)
    if len(compact.keys) == 0:
        print(
            f"2048 distill: nothing to distil: {args.games} game(s) at d{args.depth} reached "
            f"no position of the built tables ({', '.join(built)}), so {out} was not written. "
            "Play more games (--games) or build the tables those games reach "
            "(2048 tables build).",
            file=sys.stderr,
        )
        return 1
    compact.save(out)
    print(
        f"{len(compact.keys):,} positions kept ({compact.source}), "
        f"{out.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - started:,.0f} s: {out}"
    )
    return 0


def _phase_starts(seed: int, depth: int) -> tuple[list[tuple[str, int, int]], int]:
    """One game's table phases: the board each began on (table name, lo, hi), and how many
    moves the tables chose."""
    from py2048.solver.autoplay import SEARCHED, autoplay
    from py2048.solver.endgame import endgame_tables
    from py2048.solver.hint import resolve_plan

    tables = endgame_tables()
    trace = np.zeros((MOVES_PER_GAME, 3), dtype=np.uint64)
    record = autoplay(seed, resolve_plan(depth=depth), rng="c-rand", trace=trace)
    played = trace[: min(record.moves, MOVES_PER_GAME)]
    chooser = played[:, 0]
    before = np.concatenate([[SEARCHED], chooser[:-1]])
    starts = played[(chooser != SEARCHED) & (chooser != before)]
    moves = int(np.count_nonzero(chooser != SEARCHED))
    return [(tables.names[int(t)], int(lo), int(hi)) for t, lo, hi in starts], moves


def distill(
    games: int, seed: int, depth: int, max_positions: int, workers: int = 1
) -> CompactTables:
    """The compact table of the positions most visited by table play from the table phases
    of these games. Raises ValueError when no full table is built (nothing to distil)."""
    from py2048.solver.endgame import MIN_PROBABILITY
    from py2048.tables.distillation import (
        board_index,
        compact_answers,
        expected_visits,
        most_visited,
    )
    from py2048.tables.lookup import available_tables, open_table

    tables = [open_table(name) for name in available_tables()]
    if not tables:
        raise ValueError("no endgame table is built: run 2048 tables build first")
    starts: Counter[tuple[str, int, int]] = Counter()
    table_moves = 0
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        seeds = range(seed, seed + games)
        for game_starts, moves in pool.map(_phase_starts, seeds, [depth] * games):
            starts.update(game_starts)
            table_moves += moves
    visits = {}
    for table in tables:
        indexed: Counter[int] = Counter()
        for (name, lo, hi), count in starts.items():
            if name == table.name:
                indexed[board_index(table, lo, hi)] += count
        indexed.pop(-1, None)
        if indexed:
            visits[table.name] = expected_visits(
                table,
                np.fromiter(indexed, dtype=np.int64),
                np.fromiter(indexed.values(), dtype=np.float64),
                min_probability=MIN_PROBABILITY,
                min_visits=MIN_VISITS,
            )
    kept = most_visited(visits, max_positions) if visits else {}
    source = (
        f"the positions most visited by table play from the {starts.total():,} table phases "
        f"of {games} games at d{depth} (c-rand seeds {seed}-{seed + games - 1}; "
        f"{table_moves:,} table moves)"
    )
    return compact_answers(tables, kept, source)
