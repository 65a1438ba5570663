"""Where a fixed-depth search's time goes: the same boards searched with each evaluation and
probability cutoff, in one compiled loop.

Collects every board the search (not a table) answered in solver games (c-rand, the default
evaluation and tables, ``--depth``), then searches them all again at that depth with each
evaluation of ``--evaluators`` and each cutoff of ``--cutoffs`` ("rule" is the solver's own,
:func:`py2048.solver.search.probability_cutoff`; ``32`` means 1 in 32), and prints moves per
second, nodes per move and nodes per second. The loop over the boards is compiled, so no Python
call overhead is timed (about 200 µs a call, a third of a d2 search). Whole games decide the
solver's speed figures (``2048 bench``); this says which part of a search costs what.

    nice python benchmarks/search_time.py --games 2 --seed 2001
    python benchmarks/search_time.py --evaluators ntuple-snake --cutoffs rule,32,16
    python benchmarks/search_time.py --evaluators ntuple-snake,ntuple-snake@as-is --rounds 3

A name ending in ``@as-is`` is that network evaluation reading every board as it is, without
the solver's downgrading from :data:`py2048.evaluation.tuples.DOWNGRADE_FROM` up (what the
downgrading costs). A name ``ntuple@FILE`` or ``ntuple-snake@FILE`` is that evaluation with the
network of a weights file (``2048 train --export``) instead of the one in use, so networks of
other shapes are timed on the same boards in the same run; the boards are those the network in
use chose, and the tree of a search does not depend on the evaluation's values, so every
network searches the same positions. ``--rounds`` repeats the whole comparison, interleaved.

    python benchmarks/search_time.py --evaluators ntuple-snake,ntuple-snake@net-6x6.npz --rounds 2

``--leaves both`` searches every board twice, with the solver's transposition table and with one
that does not remember leaf evaluations (its chance-node entries only), so what remembering
leaves saves is timed on the same boards in the same run; the positions are the same by design.

    python benchmarks/search_time.py --evaluators ntuple-snake --depth 3 --leaves both --rounds 3
"""

from __future__ import annotations

import argparse
import time
from itertools import product

import numpy as np
from numba import njit

# internal but for the evaluation: this script times the search kernel itself, with its counters
from py2048.engine.board import ROW_TABLES
from py2048.evaluation import Evaluator, get_evaluator
from py2048.evaluation.ntuple import chosen_network, int16_evaluator, playing_with
from py2048.evaluation.snake import PULL
from py2048.evaluation.tuples import tuple_layout
from py2048.solver.autoplay import SEARCHED, autoplay
from py2048.solver.search import (
    COUNTER_SLOTS,
    LEAF_SLOTS,
    NODES,
    Run,
    SearchPlan,
    probability_cutoff,
    search_root,
    transposition_table,
)

TRACE_ROWS = 60_000
"""Moves of one game that are kept (a d2 game rarely plays 30,000)."""


@njit(nogil=True)
def search_all(boards, depth, evaluate, evaluation, table, tables, counters, cutoff, generation):
    """Search every board at ``depth``; the nodes visited in all. Each search takes a fresh
    generation from ``generation`` on, so no search reads another's table entries."""
    out = np.empty(4)
    nodes = 0
    for i in range(boards.shape[0]):
        counters[:] = 0
        run = Run(tables, np.uint64(generation + i), counters, 0.0, cutoff, 0)
        search_root(boards[i, 0], boards[i, 1], depth, evaluate, evaluation, table, run, out)
        nodes += counters[NODES]
    return nodes


def searched_boards(games: int, seed: int, depth: int) -> np.ndarray:
    """The (lo, hi) of every move the search chose in these games."""
    plan = SearchPlan(depth, depth, 0.0, adaptive=False)
    found = []
    for game_seed in range(seed, seed + games):
        trace = np.zeros((TRACE_ROWS, 3), dtype=np.uint64)
        record = autoplay(game_seed, plan, rng="c-rand", trace=trace)
        rows = trace[: min(record.moves, TRACE_ROWS)]
        found.append(rows[rows[:, 0] == SEARCHED][:, 1:])
    return np.ascontiguousarray(np.concatenate(found))


def timed_search(
    boards: np.ndarray, depth: int, evaluator: Evaluator, cutoff: float, leaves: bool = True
) -> tuple[int, float]:
    """Nodes and seconds of :func:`search_all` over ``boards``, each search with generations of
    its own in a fresh transposition table (compiled first on two boards, in another table);
    without ``leaves``, a table of chance-node entries only."""
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    warm_up, timed = transposition_table(depth), transposition_table(depth)
    if not leaves:
        warm_up, timed = warm_up[:-LEAF_SLOTS].copy(), timed[:-LEAF_SLOTS].copy()

    def search(some: np.ndarray, table: np.ndarray) -> int:
        kernel, data = evaluator.kernel, evaluator.data
        return search_all(some, depth, kernel, data, table, ROW_TABLES, counters, cutoff, 1)

    search(boards[:2], warm_up)
    started = time.perf_counter()
    nodes = search(boards, timed)
    return nodes, time.perf_counter() - started


AS_IS = "@as-is"


def evaluator_named(name: str) -> Evaluator:
    """The evaluation of this name; with ``@as-is``, a network one that never downgrades; with
    ``@FILE``, that evaluation as the solver makes it with the network of that weights file."""
    if "@" not in name:
        return get_evaluator(name)
    base, _, where = name.partition("@")
    if base not in ("ntuple", "ntuple-snake"):
        raise SystemExit(f"@ applies to ntuple and ntuple-snake, not {base!r}")
    if where != AS_IS[1:]:
        try:
            with playing_with(where):
                return get_evaluator(base)
        except (OSError, ValueError) as error:
            raise SystemExit(f"{name}: {error}") from None
    weights = chosen_network().weights
    return int16_evaluator(
        tuple_layout(weights.tuples, weights.stage_tiles),
        weights.scale,
        weights.entries,
        name,
        PULL if base == "ntuple-snake" else 0.0,
        downgrade_from=0,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2001)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--evaluators", default="ntuple,ntuple-snake,heuristic")
    parser.add_argument("--cutoffs", default="rule", help="'rule' or N for 1 in N, by commas")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the comparison")
    parser.add_argument(
        "--leaves",
        choices=["yes", "no", "both"],
        default="yes",
        help="remember leaf evaluations (the solver's table), not, or both in turn",
    )
    args = parser.parse_args()
    boards = searched_boards(args.games, args.seed, args.depth)
    print(
        f"{len(boards):,} searched boards of {args.games} d{args.depth} "
        f"game{'s' if args.games != 1 else ''} (seeds {args.seed}+, c-rand), searched again "
        f"at d{args.depth}:"
    )
    evaluators = {name: evaluator_named(name) for name in args.evaluators.split(",")}
    width = max(14, *(len(name) for name in evaluators))
    leaf_settings = {"yes": [True], "no": [False], "both": [True, False]}[args.leaves]
    print(
        f"{'evaluation':<{width}} {'cutoff':>8} {'leaves':>6} {'moves/s':>9} {'nodes/move':>11} "
        f"{'M nodes/s':>10}"
    )
    for _, (name, evaluator) in product(range(args.rounds), evaluators.items()):
        for cutoff_name, leaves in product(args.cutoffs.split(","), leaf_settings):
            cutoff = (
                probability_cutoff(args.depth) if cutoff_name == "rule" else 1 / int(cutoff_name)
            )
            nodes, seconds = timed_search(boards, args.depth, evaluator, cutoff, leaves)
            print(
                f"{name:<{width}} {'1/' + str(round(1 / cutoff)):>8} "
                f"{'yes' if leaves else 'no':>6} {len(boards) / seconds:>9,.0f} "
                f"{nodes / len(boards):>11,.0f} {nodes / seconds / 1e6:>10.2f}"
            )


if __name__ == "__main__":
    main()
