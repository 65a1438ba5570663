"""Trainer speed beside TDL2048: TD training moves per second, one thread and lock-free threads.

Run (TDL2048 built as below, or the comparison is skipped with a message):

    TDL2048=/path/to/TDL2048/2048 nice python benchmarks/learn.py --rounds 3 --games 5000

Each round trains the 4 x 6-tuple network (Yeh's tuples, TDL2048's ``4x6patt``), or with
``--tuples 8x6`` the shipped network's shape (TDL2048's ``8x6patt``, the same tuples), from
scratch on ``--games`` games with temporal coherence (alpha 1.0), once with py2048 and once with
TDL2048, back to back, on one thread; then both with ``--threads`` lock-free workers (py2048's
``lock_free`` threads, TDL2048's ``-p``: the rate of each worker, added). Rounds
interleave the programs, so a machine whose load changes during the run slows both alike; the
ratio of each round and the median ratio are what to read, not the absolute rates. With
``--fixed`` the rounds train with a fixed step (alpha 0.1) instead. With ``--stages 16384``
both train a network of two stages split at 16384 (TDL2048's ``8x6patt@2 -@ 0,16384``): from
scratch the second stage is hardly reached, so what this measures is what choosing a board's
stage costs the trainer.

Building TDL2048 (moporgic/TDL2048, public source; needs g++ and make):

    git clone https://github.com/moporgic/TDL2048 && cd TDL2048 && make OLEVEL=3

(its makefile passes -O3 -mtune=native with BMI2 and AVX2 where the processor has them; no
profile-guided build). Then point ``TDL2048`` at the ``2048`` binary it makes. Its rate is read
from its own report (the ``ops`` of each block of 1,000 games, averaged by moves).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

# internal: this script times the trainer's segments, which only the trainer's module names
from py2048.evaluation.tuples import parse_tuples
from py2048.learn.training import Trainer, TrainingConfig

SHAPES = {"4x6": "4x6patt", "8x6": "8x6patt"}
"""The shapes compared, by py2048's name, with TDL2048's name of the same tuples."""


class Rate(NamedTuple):
    """Moves per second of wall-clock time, and per second of processor time (all threads)."""

    wall: float
    cpu: float


def py2048_rate(
    games: int, workers: int, coherence: bool, shape: str = "4x6", stages: tuple[int, ...] = ()
) -> Rate:
    """Training moves per second over ``games`` games from scratch (compiled beforehand)."""
    config = TrainingConfig(
        seed=1, workers=workers, lock_free=workers > 1, temporal_coherence=coherence,
        alpha=1.0 if coherence else 0.1, tuples=parse_tuples(shape), stage_tiles=stages,
    )  # fmt: skip
    warm = Trainer(config)
    warm.run_round(1)  # compile outside the timing
    warm.close()
    trainer = Trainer(config)
    started, cpu = time.perf_counter(), time.process_time()
    while not trainer.done(games):
        trainer.run_round(games)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    trainer.close()
    return Rate(trainer.moves_played / seconds, trainer.moves_played / cpu)


_BLOCK = re.compile(r"^\d+/\d+ (\d+)ms ([\d.]+)ops(?: \[(\d+)\])?", re.MULTILINE)


def tdl2048_rate(
    binary: str,
    games: int,
    coherence: bool,
    threads: int = 1,
    shape: str = "4x6",
    stages: tuple[int, ...] = (),
) -> Rate:
    """TDL2048's training moves per second over ``games`` games from scratch (the tuples of
    ``shape``, split into stages at ``stages``), with ``threads`` lock-free workers (its
    ``-p``): each worker's rate from its own blocks, added."""
    blocks = max(1, games // 1000)
    command = [binary, "-n", SHAPES[shape]]
    if stages:
        command[-1] += f"@{len(stages) + 1}"
        command += ["-@", ",".join(map(str, (0, *stages)))]
    command += ["-a", "1.0" if coherence else "0.1", "-t", str(blocks)]
    command += ["-u", "1000", "-s", "1", "-e", "0"]
    if threads > 1:
        command += ["-p", str(threads)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    found = _BLOCK.findall(report)
    if not found:
        raise RuntimeError(f"no speed in TDL2048's report:\n{report[-2000:]}")
    per_worker: dict[str, list[float]] = {}
    for ms, ops, worker in found:
        seconds_moves = per_worker.setdefault(worker, [0.0, 0.0])
        seconds_moves[0] += float(ms) / 1000
        seconds_moves[1] += float(ms) / 1000 * float(ops)
    wall = sum(moves / seconds for seconds, moves in per_worker.values())
    return Rate(wall, sum(moves for _, moves in per_worker.values()) / cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per round and program")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2, help="lock-free workers (0: skip)")
    parser.add_argument("--fixed", action="store_true", help="a fixed step instead of TC")
    parser.add_argument("--tuples", choices=sorted(SHAPES), default="4x6", help="the shape")
    parser.add_argument("--stages", default="", help="stage tiles, e.g. 16384 (default: one stage)")
    parser.add_argument("--json", type=Path, help="also write every round's figures here")
    parser.add_argument("--note", default="", help="what else ran on the machine (kept in --json)")
    args = parser.parse_args()
    rounds: list[dict[str, object]] = []
    coherence = not args.fixed
    binary = os.environ.get("TDL2048") or shutil.which("tdl2048")
    if binary is None or not os.access(binary, os.X_OK):
        print("TDL2048 not found: set TDL2048 to its built binary (see this file's docstring);")
        print("py2048's rates are shown alone.")
        binary = None
    step = "TC, alpha 1.0" if coherence else "fixed step, alpha 0.1"
    stages = tuple(int(tile) for tile in args.stages.split(",") if tile)
    split = f", stages split at {args.stages}" if stages else ""
    print(f"{args.tuples}-tuple network{split} from scratch, {args.games} games a round, {step}")
    ratios, cpu_ratios, scaling, their_scaling = [], [], [], []
    for number in range(1, args.rounds + 1):
        ours = py2048_rate(args.games, 1, coherence, args.tuples, stages)
        line = (
            f"round {number}: py2048 1 thread {ours.wall:,.0f} moves/s ({ours.cpu:,.0f} per cpu-s)"
        )
        if binary is not None:
            theirs = tdl2048_rate(binary, args.games, coherence, shape=args.tuples, stages=stages)
            ratios.append(ours.wall / theirs.wall)
            cpu_ratios.append(ours.cpu / theirs.cpu)
            line += (
                f" | TDL2048 {theirs.wall:,.0f} ({theirs.cpu:,.0f}) | ratio "
                f"{ratios[-1]:.2f}x ({cpu_ratios[-1]:.2f}x per cpu-s)"
            )
        if args.threads > 1:
            threaded = py2048_rate(args.games, args.threads, coherence, args.tuples, stages)
            scaling.append(threaded.wall / ours.wall)
            line += (
                f" | py2048 {args.threads} threads {threaded.wall:,.0f} "
                f"({scaling[-1]:.2f}x; {threaded.cpu:,.0f} per cpu-s)"
            )
            if binary is not None:
                their_threads = tdl2048_rate(
                    binary, args.games, coherence, args.threads, args.tuples, stages
                )
                their_scaling.append(their_threads.wall / theirs.wall)
                line += (
                    f" | TDL2048 {args.threads} threads {their_threads.wall:,.0f} "
                    f"({their_scaling[-1]:.2f}x)"
                )
        print(line, flush=True)
        rounds.append(
            {
                "py2048": ours._asdict(),
                "tdl2048": theirs._asdict() if binary is not None else None,
                "py2048_threads": threaded._asdict() if args.threads > 1 else None,
                "tdl2048_threads": (
                    their_threads._asdict() if args.threads > 1 and binary is not None else None
                ),
            }
        )
    if args.json:
        report = {
            "command": "python benchmarks/learn.py " + " ".join(sys.argv[1:]),
            "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
            "games": args.games,
            "step": step,
            "tuples": args.tuples,
            "stages": list(stages),
            "threads": args.threads,
            "cores": os.cpu_count(),
            "load_at_end": os.getloadavg(),
            "note": args.note,
            "rounds": rounds,
            "median_ratio_wall": statistics.median(ratios) if ratios else None,
            "median_ratio_cpu": statistics.median(cpu_ratios) if cpu_ratios else None,
            "median_thread_scaling": statistics.median(scaling) if scaling else None,
            "median_tdl2048_thread_scaling": (
                statistics.median(their_scaling) if their_scaling else None
            ),
        }
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if ratios:
        print(
            f"median ratio py2048 / TDL2048, one thread: {statistics.median(ratios):.2f}x "
            f"wall-clock, {statistics.median(cpu_ratios):.2f}x per processor-second"
        )
    if scaling:
        print(
            f"median {args.threads} threads / 1 thread, wall-clock: "
            f"{statistics.median(scaling):.2f}x"
            + (f" (TDL2048: {statistics.median(their_scaling):.2f}x)" if their_scaling else "")
        )
    print(
        "On a loaded machine read the per-processor-second ratio; thread scaling needs as many "
        "idle cores as threads (os.getloadavg() at the end: "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg())
        + ")"
    )


if __name__ == "__main__":
    main()
