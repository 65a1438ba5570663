"""RL environment speed: py2048's env.step, vector env and batch API against gymnasium-2048.

Run:  nice python benchmarks/env.py [--seconds S] [--repeats R]

Prints, from one run on one core:
  (a) py2048 Game2048Env.step and (b) gymnasium-2048's TwentyFortyEightEnv.step, both raw and
      through gymnasium.make (which adds Gymnasium's checking wrappers), with the ratio a/b;
  (c) Game2048VectorEnv.step and (d) py2048.batch.Batch.step(autoreset=True) for N = 1024 and
      4096 games, in board-steps per second (N per call).
All play uniformly random actions (drawn in advance, not timed); illegal actions count as
steps, as they do for an agent; finished episodes are reset (reset time is timed, not counted).
Each figure is the median of R timed runs, with the best run in brackets.
Needs the rl and bench extras: pip install -e ".[rl,bench]".
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import py2048.env
from py2048.batch import Batch
from py2048.env import Game2048Env, Game2048VectorEnv

SIZES = (1024, 4096)


def single_env_rate(env: gym.Env, seconds: float) -> float:
    """env.step calls per second on random actions."""
    actions = np.random.default_rng(0).integers(0, 4, 100_000).tolist()
    env.reset(seed=0)
    steps = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        for action in actions[:10_000]:
            if env.step(action)[2]:
                env.reset()
        steps += 10_000
    return steps / elapsed


def vector_rate(step: Callable[[np.ndarray], object], n: int, seconds: float) -> float:
    """Board-steps per second of a function that steps n games at once."""
    actions = np.random.default_rng(0).integers(0, 4, (64, n))
    step(actions[0])
    calls = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        for row in actions:
            step(row)
        calls += len(actions)
    return calls * n / elapsed


def repeated(measure: Callable[[], float], repeats: int) -> tuple[float, float]:
    """Median and best of ``repeats`` measurements."""
    figures = [measure() for _ in range(repeats)]
    return statistics.median(figures), max(figures)


def paired(
    ours: Callable[[], float], peer: Callable[[], float], repeats: int
) -> tuple[tuple[float, float], tuple[float, float], float]:
    """Alternate the two measurements so load changes hit both; also the median of the ratios."""
    pairs = [(ours(), peer()) for _ in range(repeats)]
    mine, theirs = zip(*pairs, strict=True)
    ratio = statistics.median(a / b for a, b in pairs)
    return (
        (statistics.median(mine), max(mine)),
        (statistics.median(theirs), max(theirs)),
        ratio,
    )


def peer_envs() -> tuple[gym.Env, gym.Env] | None:
    try:
        import gymnasium_2048  # noqa: F401  (registers its environment)
        from gymnasium_2048.envs import TwentyFortyEightEnv
    except ImportError:
        return None
    return TwentyFortyEightEnv(), gym.make("gymnasium_2048/TwentyFortyEight-v0")


def line(label: str, figures: tuple[float, float], unit: str) -> str:
    median, best = figures
    return f"{label:<44}{median:>14,.0f} {unit}  [{best:,.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure")
    args = parser.parse_args()
    seconds, repeats = args.seconds, args.repeats

    peers = peer_envs()
    if peers is None:
        print("gymnasium-2048 is not installed (pip install gymnasium-2048): no ratios")
        ours_raw = repeated(lambda: single_env_rate(Game2048Env(), seconds), repeats)
        print(line("(a) py2048 env.step, raw", ours_raw, "steps/s"))
    else:
        ours_raw, peer_raw, ratio_raw = paired(
            lambda: single_env_rate(Game2048Env(), seconds),
            lambda: single_env_rate(peers[0], seconds),
            repeats,
        )
        ours_made, peer_made, ratio_made = paired(
            lambda: single_env_rate(gym.make(py2048.env.ENV_ID), seconds),
            lambda: single_env_rate(peers[1], seconds),
            repeats,
        )
        print(line("(a) py2048 env.step, raw", ours_raw, "steps/s"))
        print(line("    py2048 env.step, gymnasium.make", ours_made, "steps/s"))
        print(line("(b) gymnasium-2048 env.step, raw", peer_raw, "steps/s"))
        print(line("    gymnasium-2048 env.step, gymnasium.make", peer_made, "steps/s"))
        print(
            f"    a/b: raw {ratio_raw:.1f}x, gymnasium.make {ratio_made:.1f}x "
            "(median of paired runs; target >= 20x)"
        )

    for n in SIZES:
        envs = Game2048VectorEnv(n)
        envs.reset(seed=0)
        figures = repeated(lambda envs=envs, n=n: vector_rate(envs.step, n, seconds), repeats)
        print(line(f"(c) vector env step, N={n}", figures, "board-steps/s"))
    for n in SIZES:
        batch = Batch(n, seed=0)

        def batch_step(actions: np.ndarray, batch: Batch = batch) -> object:
            return batch.step(actions, autoreset=True)

        figures = repeated(lambda n=n, step=batch_step: vector_rate(step, n, seconds), repeats)
        print(line(f"(d) batch API step, N={n}", figures, "board-steps/s") + "  (target >= 5M)")
    if peers is not None:
        print(
            f"    batch N={SIZES[-1]} / gymnasium-2048 raw env.step: "
            f"{figures[0] / peer_raw[0]:,.0f}x"
        )


if __name__ == "__main__":
    main()
