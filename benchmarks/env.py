"""RL environment speed: py2048's env.step, vector env and batch API against gymnasium-2048.

Run:  nice python benchmarks/env.py [--seconds S] [--repeats R] [--sizes 5x5]

Prints, from one run on one core:
  (a) env.step of gymnasium.make("py2048/2048-v0") (which is the bare Game2048Env: it checks
      its own input, so make adds no wrappers);
  (b) env.step of gymnasium-2048's TwentyFortyEightEnv, bare and through gymnasium.make (with
      Gymnasium's checking wrappers), and the ratios a/b;
  (c) Game2048VectorEnv.step and (d) py2048.batch.Batch.step(autoreset=True) for N = 1024 and
      4096 games, in board-steps per second (N per call);
  (e) Game2048VectorEnv.step on each board size of --sizes (N = 1024), measured in the same
      rounds as (a) and (b), with its ratio to gymnasium-2048's 4x4 env.step (b, bare), and
  (f) Batch.step(autoreset=True) on each of those sizes for N = 4096.
All play uniformly random actions (drawn in advance, not timed); illegal actions count as
steps, as they do for an agent; finished episodes are reset (reset time is timed, not counted).
Each figure is the median of R timed runs: steps per second of wall-clock time, steps per
second of this process's CPU time (steadier on a busy machine: the code is single-threaded),
and the best wall-clock run. The ratios pair runs taken back to back.
Needs the rl and bench extras: pip install -e ".[rl,bench]".
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import NamedTuple

import gymnasium as gym
import numpy as np

from py2048.batch import Batch

# internal: --sizes is read as py2048 reads every size ("5x5", "4x6")
from py2048.engine.size import parse_size
from py2048.env import ENV_ID, Game2048VectorEnv

SIZES = (1024, 4096)
"""Numbers of games of (c) and (d)."""
GRID_GAMES = 1024
"""Games of the vector environment in (e)."""


class Rate(NamedTuple):
    wall: float
    """Steps per second of elapsed time."""
    cpu: float
    """Steps per second of this process's CPU time."""


def timed(run_once: Callable[[], int], seconds: float) -> Rate:
    """Call ``run_once`` (which returns the steps it made) for about ``seconds``."""
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        steps += run_once()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return Rate(steps / wall, steps / max(cpu, 1e-9))


def single_env_rate(env: gym.Env, seconds: float) -> Rate:
    """env.step calls per second on random actions."""
    actions = np.random.default_rng(0).integers(0, 4, 10_000).tolist()
    env.reset(seed=0)

    def run_once() -> int:
        for action in actions:
            if env.step(action)[2]:
                env.reset()
        return len(actions)

    return timed(run_once, seconds)


def multi_rate(step: Callable[[np.ndarray], object], n: int, seconds: float) -> Rate:
    """Board-steps per second of a function that steps n games at once."""
    actions = np.random.default_rng(0).integers(0, 4, (64, n))
    step(actions[0])

    def run_once() -> int:
        for row in actions:
            step(row)
        return len(actions) * n

    return timed(run_once, seconds)


def summary(rates: list[Rate]) -> str:
    wall = statistics.median(r.wall for r in rates)
    cpu = statistics.median(r.cpu for r in rates)
    best = max(r.wall for r in rates)
    return f"{wall:>13,.0f} {cpu:>13,.0f} {best:>13,.0f}"


def peer_envs() -> tuple[gym.Env, gym.Env] | None:
    try:
        import gymnasium_2048  # noqa: F401  (registers its environment)
        from gymnasium_2048.envs import TwentyFortyEightEnv
    except ImportError:
        return None
    return TwentyFortyEightEnv(), gym.make("gymnasium_2048/TwentyFortyEight-v0")


def ratio(ours: list[Rate], theirs: list[Rate]) -> str:
    """Median of the paired ratios, by wall clock and by CPU time."""
    wall = statistics.median(a.wall / b.wall for a, b in zip(ours, theirs, strict=True))
    cpu = statistics.median(a.cpu / b.cpu for a, b in zip(ours, theirs, strict=True))
    return f"{wall:.1f}x wall, {cpu:.1f}x CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure")
    parser.add_argument(
        "--sizes", default="5x5", help="board sizes of (e) and (f), comma-separated ('' for none)"
    )
    args = parser.parse_args()
    seconds, repeats = args.seconds, args.repeats
    sizes = [parse_size(text, "--sizes") for text in args.sizes.split(",") if text.strip()]

    print(f"{'':<44}{'wall steps/s':>13} {'CPU steps/s':>13} {'best wall':>13}")
    ours = gym.make(ENV_ID)
    peers = peer_envs()
    grid_envs = [Game2048VectorEnv(GRID_GAMES, size=size) for size in sizes]
    for envs in grid_envs:
        envs.reset(seed=0)
    mine: list[Rate] = []
    bare: list[Rate] = []
    made: list[Rate] = []
    grid_rates: list[list[Rate]] = [[] for _ in sizes]
    for _ in range(repeats):
        mine.append(single_env_rate(ours, seconds))
        if peers is not None:
            bare.append(single_env_rate(peers[0], seconds))
            made.append(single_env_rate(peers[1], seconds))
        for envs, rates in zip(grid_envs, grid_rates, strict=True):
            rates.append(multi_rate(envs.step, GRID_GAMES, seconds))
    print(f"{'(a) py2048 env.step':<44}{summary(mine)}")
    if peers is None:
        print("(b) gymnasium-2048 is not installed (pip install gymnasium-2048): no ratios")
    else:
        print(f"{'(b) gymnasium-2048 env.step, bare':<44}{summary(bare)}")
        print(f"{'    gymnasium-2048 env.step, gymnasium.make':<44}{summary(made)}")
        print(f"    a / b bare: {ratio(mine, bare)};  a / b make: {ratio(mine, made)}")
        print("    (target: at least 20x)")
    for size, rates in zip(sizes, grid_rates, strict=True):
        label = f"(e) vector env step, {size}, N={GRID_GAMES}"
        print(f"{label:<44}{summary(rates)}")
        if peers is not None:
            print(f"    e / b bare ({size} against 4x4): {ratio(rates, bare)}  (target: 10x)")

    for n in SIZES:
        envs = Game2048VectorEnv(n)
        envs.reset(seed=0)
        rates = [multi_rate(envs.step, n, seconds) for _ in range(repeats)]
        print(f"{f'(c) vector env step, N={n} (board-steps)':<44}{summary(rates)}")
    for n in SIZES:
        batch = Batch(n, seed=0)

        def batch_step(actions: np.ndarray, batch: Batch = batch) -> object:
            return batch.step(actions, autoreset=True)

        rates = [multi_rate(batch_step, n, seconds) for _ in range(repeats)]
        print(f"{f'(d) batch API step, N={n} (board-steps)':<44}{summary(rates)}")
    print("    (target for the batch API: at least 5,000,000 board-steps/s on one core)")
    for size in sizes:
        n = SIZES[-1]
        batch = Batch(n, seed=0, size=size)

        def grid_batch_step(actions: np.ndarray, batch: Batch = batch) -> object:
            return batch.step(actions, autoreset=True)

        rates = [multi_rate(grid_batch_step, n, seconds) for _ in range(repeats)]
        print(f"{f'(f) batch API step, {size}, N={n}':<44}{summary(rates)}")


if __name__ == "__main__":
    main()
