"""Learner speed: TD training moves per second by worker count, and greedy play with a network.

Run:  python benchmarks/learn.py [--games N] [--workers 1,2]

Prints, for the default 4 x 6-tuple network with temporal coherence,
  (a) training moves per second from scratch for each worker count (N games each, same seed),
      and the ratio to one worker;
  (b) greedy play (no learning) moves per second with the trained network from (a);
  (c) calls per second of the "ntuple" solver evaluation kernel on boards from those games.
Figures depend on the machine's load: run it on an idle machine, or say that it was not.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from py2048.engine.board import pack_exponents
from py2048.learn.network import network_evaluator
from py2048.learn.play import play_greedy
from py2048.learn.training import Trainer, TrainingConfig


def training_speed(games: int, workers: int) -> tuple[float, Trainer]:
    trainer = Trainer(TrainingConfig(seed=1, workers=workers))
    trainer.run_round(1)  # compile outside the timing
    trainer = Trainer(TrainingConfig(seed=1, workers=workers))
    started = time.perf_counter()
    while not trainer.done(games):
        trainer.run_round(games)
    trainer.close()
    return trainer.moves_played / (time.perf_counter() - started), trainer


def sample_boards(count: int) -> list[tuple[int, int]]:
    """Boards with random tiles up to 2048, a third of the cells empty."""
    exponents = np.random.default_rng(5).integers(0, 12, size=(count, 16))
    exponents[exponents < 4] = 0
    return [pack_exponents(row.tolist()) for row in exponents]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    speeds = {}
    trainer = None
    for workers in (int(w) for w in args.workers.split(",")):
        speeds[workers], trainer = training_speed(args.games, workers)
        print(
            f"(a) training, {workers} worker(s): {speeds[workers]:,.0f} moves/s "
            f"({speeds[workers] / speeds[min(speeds)]:.2f}x {min(speeds)} worker(s)); "
            f"last 1000 games: mean {trainer.stats.mean_score:,.0f}, "
            f"2048 in {trainer.stats.rate(2048):.0%}"
        )
    assert trainer is not None
    network = trainer.network
    play_greedy(network, 1)
    started = time.perf_counter()
    games = play_greedy(network, 200, seed=3)
    seconds = time.perf_counter() - started
    print(f"(b) greedy play: {sum(g.moves for g in games) / seconds:,.0f} moves/s (200 games)")
    evaluator = network_evaluator(network)
    boards = sample_boards(20_000)
    evaluator(*boards[0])
    started = time.perf_counter()
    for lo, hi in boards:
        evaluator.kernel(np.uint64(lo), np.uint64(hi), evaluator.weights, evaluator.layout)
    seconds = time.perf_counter() - started
    print(
        f"(c) evaluation kernel from Python: {len(boards) / seconds:,.0f} calls/s "
        "(includes Python call overhead; the search calls it from compiled code)"
    )


if __name__ == "__main__":
    main()
