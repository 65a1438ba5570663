"""Engine speed: compiled random playouts, Game.move from Python, and term2048 as the peer.

Run:  python benchmarks/engine.py [--seconds S] [--sizes 5x5,8x8] [--repeats R]

Prints moves per second for
  (a) a random playout loop inside compiled code (one core),
  (b) py2048.Game.move called from Python,
  (c) term2048.board.Board.move (PyPI term2048) doing the same random playouts from Python,
  (d) py2048.Game.move on each board size of --sizes (the compiled grid kernels),
and the ratio (b)/(c). In (a) only real moves (ones that changed the board) are counted. In (b),
(c) and (d) the programs play random directions until their game is over and every call counts,
since term2048's move() does not say whether the board changed. (b), (c) and (d) are measured
in turn, R rounds of each, and each figure is the median of its rounds, per second of wall-clock
time and per second of this process's CPU time (steadier on a busy machine).
Needs the bench extra: pip install -e ".[bench]".
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

import numpy as np
from numba import njit

from py2048 import Game

# internal: this script times the packed-board kernels and the spawn generator themselves,
# and reads --sizes as py2048 reads every size
from py2048.engine.board import ROW_TABLES, can_move, play, start
from py2048.engine.rng import draw, seed_key
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size


@njit(nogil=True, cache=True)
def compiled_random_playouts(moves_wanted: int, seed: int, tables: np.ndarray) -> int:
    """Play random games back to back until ``moves_wanted`` real moves; return games started."""
    game_seed = np.uint64(seed)
    key = seed_key(game_seed)
    direction_key = seed_key(game_seed ^ np.uint64(0xD1CE))
    lo, hi = start(key)
    spawn_number = 2
    direction_draws = np.uint64(0)
    games = 1
    moves = 0
    while moves < moves_wanted:
        direction = int(draw(direction_key, direction_draws) >> np.uint64(62))
        direction_draws += np.uint64(1)
        new_lo, new_hi, _, cell, _ = play(lo, hi, direction, key, spawn_number, tables)
        if cell < 0:
            continue
        lo, hi = new_lo, new_hi
        spawn_number += 1
        moves += 1
        if not can_move(lo, hi, tables):
            game_seed += np.uint64(1)
            key = seed_key(game_seed)
            lo, hi = start(key)
            spawn_number = 2
            games += 1
    return games


def measure_compiled(seconds: float) -> float:
    compiled_random_playouts(1000, 1, ROW_TABLES)  # compile or load from cache
    moves = 1_000_000
    while True:
        t0 = time.perf_counter()
        compiled_random_playouts(moves, 1, ROW_TABLES)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return moves / elapsed
        moves = int(moves * max(2.0, 1.2 * seconds / max(elapsed, 1e-3)))


def measure_game_move(seconds: float, size: BoardSize = DEFAULT_SIZE) -> tuple[float, float]:
    """Calls per second of wall-clock time and of CPU time."""
    rng = random.Random(7)
    directions = ["up", "right", "down", "left"]
    moves = 0
    game = Game(seed=1, size=size)
    seed = 1
    t0, cpu0 = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - t0) < seconds:
        for _ in range(1000):
            game.move(directions[rng.randrange(4)])
            if game.over:
                seed += 1
                game = Game(seed=seed, size=size)
        moves += 1000
    return moves / elapsed, moves / (time.process_time() - cpu0)


def measure_term2048(seconds: float) -> tuple[float, float] | None:
    try:
        from term2048.board import Board
    except ImportError:
        return None
    rng = random.Random(7)
    directions = [Board.UP, Board.RIGHT, Board.DOWN, Board.LEFT]
    random.seed(1)  # term2048 spawns through the random module
    board = Board()
    moves = 0
    t0, cpu0 = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - t0) < seconds:
        for _ in range(1000):
            board.move(directions[rng.randrange(4)])
            if not board.canMove():
                board = Board()
        moves += 1000
    return moves / elapsed, moves / (time.process_time() - cpu0)


def median_rates(rates: list[tuple[float, float]]) -> tuple[float, float]:
    """The medians of the wall-clock and CPU-time rates of several rounds."""
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def measure_cold_start() -> float:
    """Seconds for a new process to import py2048 and play one move (numba cache warm)."""
    code = "import py2048; py2048.Game(seed=1).move('left')"
    subprocess.run([sys.executable, "-c", code], check=True)  # warms the cache
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument(
        "--sizes",
        default="5x5,8x8",
        help="board sizes for (d), comma-separated (default 5x5,8x8; '' for none)",
    )
    parser.add_argument("--repeats", type=int, default=1, help="rounds of (b), (c) and (d)")
    args = parser.parse_args()
    sizes = [parse_size(text, "--sizes") for text in args.sizes.split(",") if text.strip()]
    for size in sizes:  # compile or load the kernels before timing
        Game(seed=1, size=size).move("left")

    compiled = measure_compiled(args.seconds)
    rounds: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.repeats):
        rounds.setdefault("python", []).append(measure_game_move(args.seconds))
        peer_rate = measure_term2048(args.seconds)
        if peer_rate is not None:
            rounds.setdefault("peer", []).append(peer_rate)
        for size in sizes:
            rounds.setdefault(str(size), []).append(measure_game_move(args.seconds, size))
    python, python_cpu = median_rates(rounds["python"])
    peer = median_rates(rounds["peer"]) if "peer" in rounds else None
    cold = measure_cold_start()

    print(f"(a) compiled random playout      {compiled:>14,.0f} moves/s   (target >= 7,000,000)")
    print(f"(b) Game.move from Python        {python:>14,.0f} calls/s {python_cpu:>12,.0f} CPU")
    if peer is None:
        print("(c) term2048 Board.move          not installed (pip install term2048)")
    else:
        print(f"(c) term2048 Board.move          {peer[0]:>14,.0f} calls/s {peer[1]:>12,.0f} CPU")
        print(f"    Game.move / term2048         {python / peer[0]:>14.1f}x         (target >= 3x)")
    for size in sizes:
        rate, cpu = median_rates(rounds[str(size)])
        label = f"(d) Game.move on {size}"
        print(f"{label:<33}{rate:>14,.0f} calls/s {cpu:>12,.0f} CPU  (target >= 100,000)")
    print(f"    import py2048 + one move      {cold:>14.2f} s in a new process (target < 1 s)")


if __name__ == "__main__":
    main()
