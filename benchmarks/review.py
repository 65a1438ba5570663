"""How long a game review takes, and how the grades fall for players of different strength.

Speed: a game is played by the solver at d1 from ``--seed`` for ``--moves`` moves (a 5,000-move
game reaches 4096 or 8192), then reviewed at each setting, ``--repeats`` times; the table shows
the best and the median time, the moves graded per second, and the review's accuracy (the
solver's own d1 moves, graded deeper). The first review in the process, which loads the network
and the compiled search, is not timed.

Grades (``--players N``): N games each of a player choosing among the legal directions at
random, of one always trying down, left, right, up (the "corner" player of
benchmarks/strategy.py), and of one taking the move that scores most at once, reviewed at the
default setting: the share of moves giving up 1%, 5% and 20% or more (the grade thresholds) and
the mean accuracy per game. Game i uses seed ``--seed`` + i.

    python benchmarks/review.py --moves 5000 --players 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from py2048 import Direction, Game, slide
from py2048.solver import REVIEW_SETTINGS, best_move, review

# internal: the grades' loss thresholds, which this script checks its sample against
from py2048.solver.reviewer import GOOD_LIMIT, INACCURACY_LIMIT, MISTAKE_LIMIT

CORNER_ORDER = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)


def solver_game(seed: int, moves: int) -> Game:
    game = Game(seed)
    while game.moves < moves and not game.over:
        game.move(best_move(game.board, depth=1, tables=False).direction)
    return game


def random_player(game: Game, rng: random.Random) -> Direction:
    return rng.choice(game.legal_moves())


def corner_player(game: Game, rng: random.Random) -> Direction:
    legal = game.legal_moves()
    return next(d for d in CORNER_ORDER if d in legal)


def greedy_player(game: Game, rng: random.Random) -> Direction:
    legal = game.legal_moves()
    return max(legal, key=lambda d: (slide(game.board, d)[1], -CORNER_ORDER.index(d)))


PLAYERS = {"random": random_player, "corner": corner_player, "greedy": greedy_player}


def grades(games: int, seed: int) -> None:
    limits = (GOOD_LIMIT, INACCURACY_LIMIT, MISTAKE_LIMIT)
    header = "  ".join(f"{'>=' + format(limit, '.0%'):>5}" for limit in limits)
    print(f"{'player':<8} {'games':>5} {'moves':>7} {'score':>7}  {header}  {'accuracy':>8}")
    for name, player in PLAYERS.items():
        relative: list[float] = []
        accuracies: list[float] = []
        scores: list[int] = []
        for i in range(games):
            rng = random.Random(seed + i)
            game = Game(seed + i)
            while not game.over:
                game.move(player(game, rng))
            graded = review(game.seed, game.history)
            relative += [move.relative for move in graded.moves]
            accuracies.append(graded.accuracy)
            scores.append(game.score)
        shares = "  ".join(
            f"{sum(r >= limit for r in relative) / len(relative):>5.1%}" for limit in limits
        )
        print(
            f"{name:<8} {games:>5} {len(relative):>7} {statistics.mean(scores):>7.0f}  {shares}  "
            f"{statistics.mean(accuracies):>8.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--settings", default=",".join(REVIEW_SETTINGS))
    parser.add_argument("--players", type=int, default=0, help="games per simple player")
    args = parser.parse_args()

    game = solver_game(args.seed, args.moves)
    print(f"game: seed {game.seed}, {game.moves} moves, score {game.score}, tile {game.max_tile}")
    review(game.seed, game.history[:10])  # loads the network and the compiled search
    columns = ("depth", "best s", "median s", "moves/s", "accuracy")
    print(f"{'setting':<10} " + " ".join(f"{c:>9}" for c in columns))
    for name in args.settings.split(","):
        setting = REVIEW_SETTINGS[name]
        times = []
        for _ in range(args.repeats):
            started = time.perf_counter()
            graded = review(game.seed, game.history, setting=name)
            times.append(time.perf_counter() - started)
        best = min(times)
        print(
            f"{name:<10} {setting.depth:>9} {best:>9.2f} {statistics.median(times):>9.2f} "
            f"{game.moves / best:>9.0f} {graded.accuracy:>9.2f}"
        )
    if args.players:
        grades(args.players, args.seed)


if __name__ == "__main__":
    main()
