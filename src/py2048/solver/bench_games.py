"""Where a ``2048 bench``'s games run: in this process, in a pool of worker processes, or as
tasks on a Ray cluster.

Game ``i`` uses seed ``seed + i``, so a bench is reproducible and comparable game for game.
Each game runs whole in compiled code (:mod:`py2048.solver.autoplay`), one game at a time per
worker process; with ``--ray ADDRESS`` each game is a Ray task instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from multiprocessing import get_context
from typing import TYPE_CHECKING

from py2048.cluster import ray_connection
from py2048.solver.bench_settings import BenchSettings

if TYPE_CHECKING:
    from py2048.solver.autoplay import GameRecord


def play_one(seed: int, settings: BenchSettings) -> GameRecord:
    """One bench game (runs in a worker process or a Ray task)."""
    from py2048.solver.autoplay import autoplay

    return autoplay(
        seed,
        settings.plan(),
        rng=settings.rng,
        evaluator=settings.evaluator,
        tables=settings.uses_tables,
        size=settings.board_size,
        max_moves=settings.max_moves,
    )


def run_bench(
    settings: BenchSettings, on_game: Callable[[GameRecord], None] | None = None
) -> list[GameRecord]:
    """Play every game of the bench; ``on_game`` hears of each as it ends. Sorted by seed."""
    settings = settings.checked()
    records = []
    for record in _played(settings):
        records.append(record)
        if on_game is not None:
            on_game(record)
    return sorted(records, key=lambda r: r.seed)


def _played(settings: BenchSettings) -> Iterator[GameRecord]:
    seeds = range(settings.seed, settings.seed + settings.games)
    if settings.ray_address is not None:
        yield from _played_on_ray(settings, seeds)
    elif settings.worker_count() == 1:
        for seed in seeds:
            yield play_one(seed, settings)
    else:
        yield from _played_in_processes(settings, seeds)


def _played_in_processes(settings: BenchSettings, seeds: range) -> Iterator[GameRecord]:
    # "spawn": fresh interpreters, so no numba or thread state is inherited from this process.
    # Leaving the block (the last game, Ctrl-C, an error) terminates the workers at once, even
    # in the middle of a long game, which runs in compiled code that no signal interrupts.
    context = get_context("spawn")
    with context.Pool(settings.worker_count()) as pool:
        yield from pool.imap_unordered(partial(play_one, settings=settings), seeds)


def _played_on_ray(settings: BenchSettings, seeds: range) -> Iterator[GameRecord]:
    with ray_connection(str(settings.ray_address)) as ray:
        remote = ray.remote(num_cpus=1)(play_one)
        pending = [remote.remote(seed, settings) for seed in seeds]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
