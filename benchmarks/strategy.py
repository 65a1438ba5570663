"""Measured effects of the advice on the "2048 strategy" page (py2048/web/content/strategy.html).

Run:  nice python benchmarks/strategy.py [--games N] [--solver-games M] [--seed S]

Plays N seeded games (game i uses seed S+i, so every policy meets the same spawn sequence) with
simple policies that follow or ignore one piece of advice each, and prints per policy: mean and
median score, the share of games that made 512, 1024 and 2048, mean moves per game, the share
of moves in each direction, the share of moves after which the biggest tile sat in a corner,
how the player spreads its moves over the directions (per game: the share of its two most used
directions, and of its least used one, averaged over games, so it does not matter which corner a
game settled in), the share of moves after which the biggest tile sat in a corner, the share
of moves after which a 2 or 4 sat boxed in by tiles of 32 or more, and the share of moves made
on a nearly full board (3 or fewer empty cells: where corner+care asks the solver).

Policies (every one plays only legal moves; the rules are the engine's):
- random:        any legal direction, uniformly (all four directions used freely);
- three-even:    down, left or right at random, up only when nothing else moves;
- corner:        the first legal of down, left, right, up (two main directions, a third
                 rarely, the fourth almost never: keeps the biggest tile in the bottom-left);
- greedy:        the legal move that scores most now, ties broken as corner (chases merges);
- corner+care:   corner, but with 3 or fewer empty cells asks the solver's "fast" preset;
- solver-fast:   the solver's "fast" preset on every move;
- solver-chase:  solver-fast, except that it takes the move scoring most now whenever that
                 scores more than the solver's move (chases every merge, structure or not).
The simple policies play N games; the solver policies and corner again play M games, on the
same seeds, so each pair of lines compares like with like.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from py2048 import Direction, Game, slide

# internal: the review's thresholds for a nearly full board and a trapped tile, which the page's
# advice and this script count by (corner+care asks the solver at NEARLY_FULL empty cells or fewer)
from py2048.solver.mistakes import NEARLY_FULL, TRAPPING_TILE

CORNER_ORDER = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)
CORNERS = ((0, 0), (0, 3), (3, 0), (3, 3))

Policy = Callable[[Game, random.Random], Direction]


def random_policy(game: Game, rng: random.Random) -> Direction:
    return rng.choice(game.legal_moves())


def three_even_policy(game: Game, rng: random.Random) -> Direction:
    legal = game.legal_moves()
    main = [d for d in legal if d != Direction.UP]
    return rng.choice(main) if main else Direction.UP


def corner_policy(game: Game, rng: random.Random) -> Direction:
    legal = set(game.legal_moves())
    return next(d for d in CORNER_ORDER if d in legal)


def greedy_policy(game: Game, rng: random.Random) -> Direction:
    board = game.board
    legal = set(game.legal_moves())
    candidates = [d for d in CORNER_ORDER if d in legal]
    return max(candidates, key=lambda d: (slide(board, d)[1], -CORNER_ORDER.index(d)))


def solver_policy(game: Game, rng: random.Random) -> Direction:
    from py2048.solver import best_move

    return Direction(best_move(game.board, preset="fast").direction)


def chasing_solver_policy(game: Game, rng: random.Random) -> Direction:
    advised = solver_policy(game, rng)
    board = game.board
    gains = {d: slide(board, d)[1] for d in game.legal_moves()}
    richest = max(gains, key=lambda d: (gains[d], d == advised))
    return richest if gains[richest] > gains[advised] else advised


def empty_cells(game: Game) -> int:
    return sum(value == 0 for row in game.board for value in row)


def careful_corner_policy(game: Game, rng: random.Random) -> Direction:
    if empty_cells(game) <= NEARLY_FULL:
        return solver_policy(game, rng)
    return corner_policy(game, rng)


@dataclass
class Tally:
    scores: list[int] = field(default_factory=list)
    max_tiles: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    top_two_shares: list[float] = field(default_factory=list)
    least_shares: list[float] = field(default_factory=list)
    corner_moves: int = 0
    trapped_moves: int = 0
    nearly_full_moves: int = 0
    seconds: float = 0.0


def biggest_in_corner(board: list[list[int]]) -> bool:
    biggest = max(max(row) for row in board)
    return any(board[r][c] == biggest for r, c in CORNERS)


def has_trapped_small_tile(board: list[list[int]]) -> bool:
    """A 2 or 4 whose every neighbour is a tile of TRAPPING_TILE or more."""
    for r in range(4):
        for c in range(4):
            if board[r][c] not in (2, 4):
                continue
            neighbours = [
                board[r + dr][c + dc]
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < 4 and 0 <= c + dc < 4
            ]
            if all(value >= TRAPPING_TILE for value in neighbours):
                return True
    return False


def play(policy: Policy, seed: int, tally: Tally) -> None:
    game = Game(seed)
    rng = random.Random(seed)
    directions: Counter[Direction] = Counter({d: 0 for d in Direction})
    while not game.over:
        tally.nearly_full_moves += empty_cells(game) <= NEARLY_FULL
        direction = policy(game, rng)
        game.move(direction)
        directions[direction] += 1
        board = game.board
        tally.corner_moves += biggest_in_corner(board)
        tally.trapped_moves += has_trapped_small_tile(board)
    counts = sorted(directions.values(), reverse=True)
    tally.top_two_shares.append((counts[0] + counts[1]) / game.moves)
    tally.least_shares.append(counts[-1] / game.moves)
    tally.scores.append(game.score)
    tally.max_tiles.append(game.max_tile)
    tally.moves.append(game.moves)


def measure(policy: Policy, games: int, seed: int) -> Tally:
    tally = Tally()
    start = time.perf_counter()
    for i in range(games):
        play(policy, seed + i, tally)
    tally.seconds = time.perf_counter() - start
    return tally


def percent(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%"


def report(name: str, tally: Tally) -> str:
    games = len(tally.scores)
    total_moves = sum(tally.moves)
    reached = " ".join(
        percent(sum(tile >= target for tile in tally.max_tiles), games)
        for target in (512, 1024, 2048)
    )
    return (
        f"{name:<12} {games:>5} {statistics.mean(tally.scores):>9.0f} "
        f"{statistics.median(tally.scores):>9.0f}  {reached}  "
        f"{statistics.mean(tally.moves):>7.0f}  "
        f"{percent(statistics.mean(tally.top_two_shares), 1)} "
        f"{percent(statistics.mean(tally.least_shares), 1)}  "
        f"{percent(tally.corner_moves, total_moves)} "
        f"{percent(tally.trapped_moves, total_moves)} "
        f"{percent(tally.nearly_full_moves, total_moves)}  {tally.seconds:7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per simple policy")
    parser.add_argument("--solver-games", type=int, default=20, help="games per solver policy")
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0 (game i: seed+i)")
    args = parser.parse_args()

    policies: list[tuple[str, Policy, int]] = [
        ("random", random_policy, args.games),
        ("three-even", three_even_policy, args.games),
        ("corner", corner_policy, args.games),
        ("greedy", greedy_policy, args.games),
        ("corner", corner_policy, args.solver_games),
        ("corner+care", careful_corner_policy, args.solver_games),
        ("solver-fast", solver_policy, args.solver_games),
        ("solver-chase", chasing_solver_policy, args.solver_games),
    ]
    print(
        f"{'policy':<12} {'games':>5} {'mean':>9} {'median':>9}  "
        f"{'>=512':>6} {'>=1024':>6} {'>=2048':>6}  {'moves':>7}  "
        f"{'top-2':>6} {'4th':>6}  {'corner':>6} {'boxed':>6} {'full':>6}  "
        f"{'seconds':>7}"
    )
    for name, policy, games in policies:
        if games > 0:
            print(report(name, measure(policy, games, args.seed)), flush=True)


if __name__ == "__main__":
    main()
