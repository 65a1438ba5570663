"""``2048 bench``: many headless games with the solver, on every core or on a Ray cluster.

Game ``i`` uses seed ``seed + i``, so a bench is reproducible and comparable game for game.
Each game runs whole in compiled code (:mod:`py2048.solver.autoplay`), one game at a time per
worker process; with ``--ray ADDRESS`` each game is a Ray task instead.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path

from py2048.engine.rng import SEED_LIMIT
from py2048.solver import crand
from py2048.solver.autoplay import RNGS, GameRecord, autoplay
from py2048.solver.evaluation import get_evaluator
from py2048.solver.hint import SearchPlan
from py2048.solver.presets import DEFAULT_PRESET
from py2048.solver.stats import Summary, summarize


@dataclass(frozen=True)
class BenchSettings:
    """Everything a bench needs; :meth:`checked` rejects bad values with a clear message."""

    games: int = 100
    seed: int = 2001
    depth: int | None = None
    time_ms: float | None = None
    preset: str | None = None
    workers: int | None = None
    rng: str = "py2048"
    evaluator: str | None = None
    ray_address: str | None = None
    json_path: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> BenchSettings:
        return cls(
            games=args.games,
            seed=args.seed,
            depth=args.depth,
            time_ms=args.time_ms,
            preset=args.preset,
            workers=args.workers,
            rng=args.rng,
            evaluator=getattr(args, "evaluator", None),
            ray_address=args.ray_address,
            json_path=args.json_path,
        ).checked()

    def checked(self) -> BenchSettings:
        """Validate every field (for API callers too) and return self."""
        for name in ("games", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        if self.games < 1:
            raise ValueError(f"games must be 1 or more, got {self.games}")
        if self.seed < 0:
            raise ValueError(f"seed must be 0 or more, got {self.seed}")
        if self.rng not in RNGS:
            raise ValueError(f"unknown rng {self.rng!r}; choose one of {', '.join(RNGS)}")
        limit = crand.SEED_LIMIT if self.rng == "c-rand" else SEED_LIMIT
        if self.seed + self.games > limit:
            raise ValueError(
                f"game seeds run from seed to seed + games - 1 = {self.seed + self.games - 1}, "
                f"past {limit - 1}, the largest seed the {self.rng} generator takes"
            )
        if self.workers is not None and (
            isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1
        ):
            raise ValueError(f"workers must be 1 or more, got {self.workers!r}")
        self.plan()
        get_evaluator(self.evaluator)
        if self.json_path is not None:
            path = Path(self.json_path)
            if path.is_dir():
                raise ValueError(f"--json {path} is a directory; give a file name")
            if not path.parent.is_dir():
                raise ValueError(f"--json {path}: the folder {path.parent} does not exist")
        return self

    def plan(self) -> SearchPlan:
        return SearchPlan.resolve(self.depth, self.time_ms, self.preset)

    def label(self) -> str:
        if self.depth is not None:
            return f"d{self.depth}"
        if self.time_ms is not None:
            return f"{self.time_ms:g} ms/move"
        return f"preset {self.preset or DEFAULT_PRESET}"

    def worker_count(self) -> int:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return max(1, min(self.games, self.workers or cores or 1))


def play_one(seed: int, settings: BenchSettings) -> GameRecord:
    """One bench game (runs in a worker process or a Ray task)."""
    return autoplay(seed, settings.plan(), rng=settings.rng, evaluator=settings.evaluator)


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
    try:
        import ray
    except ImportError as exc:
        raise ValueError("--ray needs Ray: pip install 'py2048[ray]'") from exc
    connected_here = not ray.is_initialized()
    if connected_here:
        try:
            ray.init(address=settings.ray_address, logging_level="ERROR", log_to_driver=False)
        except ConnectionError as exc:
            message = f"cannot reach the Ray cluster at {settings.ray_address}: {exc}"
            raise ValueError(message) from exc
    try:
        remote = ray.remote(num_cpus=1)(play_one)
        pending = [remote.remote(seed, settings) for seed in seeds]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if connected_here:
            ray.shutdown()


def bench_report(settings: BenchSettings, records: list[GameRecord], summary: Summary) -> dict:
    """The ``--json`` document: the settings, the summary and every game."""
    return {
        "settings": {
            "games": settings.games,
            "seed": settings.seed,
            "depth": settings.depth,
            "time_ms": settings.time_ms,
            "preset": settings.preset,
            "rng": settings.rng,
            "evaluator": get_evaluator(settings.evaluator).name,
            "workers": None if settings.ray_address else settings.worker_count(),
            "ray": settings.ray_address is not None,
        },
        "summary": asdict(summary),
        "games": [asdict(r) for r in records],
    }


def bench_command(args: argparse.Namespace) -> int:
    """Run ``2048 bench`` as parsed by the CLI: progress bar, then the table (and the JSON)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from py2048.solver.report import summary_table

    settings = BenchSettings.from_args(args)
    console = Console()
    where = (
        f"Ray at {settings.ray_address}"
        if settings.ray_address
        else (f"{settings.worker_count()} worker process(es)")
    )
    console.print(
        f"py2048 bench: {settings.games} games, seeds {settings.seed}.."
        f"{settings.seed + settings.games - 1}, {settings.label()}, rng {settings.rng}, {where}"
    )
    started = time.perf_counter()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=settings.games)
        best = [0]

        def advance(record: GameRecord) -> None:
            best[0] = max(best[0], record.max_tile)
            progress.update(task, advance=1, description=f"games (best tile {best[0]})")

        records = run_bench(settings, advance)
    summary = summarize(records, time.perf_counter() - started)
    console.print(summary_table(summary, settings.label()))
    if settings.json_path is not None:
        text = json.dumps(bench_report(settings, records, summary), indent=1)
        try:
            Path(settings.json_path).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            console.print(f"[red]could not write {settings.json_path}: {exc}[/red]")
            return 1
        console.print(f"every game's figures: {settings.json_path}")
    return 0
