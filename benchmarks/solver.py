"""Hint latency of the solver presets on real positions: is every preset within its cap?

Collects positions from games played by the solver itself, then times ``best_move`` with
each preset on them (one thread, as a web or terminal hint runs) and prints the median, the
99th percentile and the maximum answer time against the preset's cap, and the depths reached.
Strength is measured by ``2048 bench`` instead (see docs/solver.md).

    nice -n 10 python benchmarks/solver.py --games 4 --every 10
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from py2048 import Game
from py2048.solver import PRESETS, best_move


def positions(games: int, every: int, seed: int) -> list[list[list[int]]]:
    """Every ``every``-th board of ``games`` games played by the solver at depth 1."""
    boards = []
    for g in range(games):
        game = Game(seed + g)
        while not game.over:
            if game.moves % every == 0:
                boards.append(game.board)
            game.move(best_move(game.board, depth=1).direction)
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2001)
    args = parser.parse_args()
    boards = positions(args.games, args.every, args.seed)
    print(f"{len(boards)} positions from {args.games} games (seeds {args.seed}+)")
    print(f"{'preset':<9} {'cap ms':>7} {'median':>8} {'p99':>8} {'max':>8}  max/cap  depths")
    for name, preset in PRESETS.items():
        best_move(boards[0], preset=name)  # load tables and size this thread's workspace
        hints = [best_move(board, preset=name) for board in boards]
        times = sorted(h.elapsed_ms for h in hints)
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        depths = dict(sorted(Counter(h.depth for h in hints).items()))
        print(
            f"{name:<9} {preset.time_ms:>7.0f} {statistics.median(times):>8.2f} {p99:>8.2f} "
            f"{times[-1]:>8.2f}  {times[-1] / preset.time_ms:>7.2f}  {depths}"
        )


if __name__ == "__main__":
    main()
