"""``2048 bench``: many headless games with the solver, on every core or on a Ray cluster.

Game ``i`` uses seed ``seed + i``, so a bench is reproducible and comparable game for game.
Each game runs whole in compiled code (:mod:`py2048.solver.autoplay`), one game at a time per
worker process; with ``--ray ADDRESS`` each game is a Ray task instead.

The command's flags are declared here too (:func:`add_arguments`). The compiled game and the
search load only when a bench runs, so the command line builds its parser without them.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

from py2048.argtypes import non_negative_int, positive_int
from py2048.engine.integers import is_int
from py2048.engine.rng import SEED_LIMIT
from py2048.solver.presets import BUDGETS, DEFAULT_PRESET, PRESETS
from py2048.solver.spawns import RNGS
from py2048.solver.stats import Summary, summarize

if TYPE_CHECKING:
    from py2048.solver.autoplay import GameRecord
    from py2048.solver.search import SearchPlan

HELP = "measure the solver over many games"


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
    tables: bool = True
    """Let the built endgame tables answer where they fit (``2048 tables build``)."""
    budget: str = "time"
    """How a preset caps each move: ``"time"`` or ``"nodes"`` (the same games under any load)."""

    def checked(self) -> BenchSettings:
        """Validate every field (for API callers too) and return self."""
        for name in ("games", "seed"):
            value = getattr(self, name)
            if not is_int(value):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        if self.games < 1:
            raise ValueError(f"games must be 1 or more, got {self.games}")
        if self.seed < 0:
            raise ValueError(f"seed must be 0 or more, got {self.seed}")
        if self.rng not in RNGS:
            raise ValueError(f"unknown rng {self.rng!r}; choose one of {', '.join(RNGS)}")
        from py2048.solver import crand

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
        from py2048.evaluation.registry import get_evaluator

        get_evaluator(self.evaluator)
        if self.json_path is not None:
            path = Path(self.json_path)
            if path.is_dir():
                raise ValueError(f"--json {path} is a directory; give a file name")
            if not path.parent.is_dir():
                raise ValueError(f"--json {path}: the folder {path.parent} does not exist")
        return self

    def plan(self) -> SearchPlan:
        from py2048.solver.hint import resolve_plan

        return resolve_plan(self.depth, self.time_ms, self.preset, self.budget)

    def label(self) -> str:
        if self.depth is not None:
            return f"d{self.depth}"
        if self.time_ms is not None:
            return f"{self.time_ms:g} ms/move"
        name = self.preset or DEFAULT_PRESET
        if self.budget == "nodes":
            return f"preset {name}, {PRESETS[name].nodes:,} positions/move"
        return f"preset {name}"

    def worker_count(self) -> int:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return max(1, min(self.games, self.workers or cores or 1))


def play_one(seed: int, settings: BenchSettings) -> GameRecord:
    """One bench game (runs in a worker process or a Ray task)."""
    from py2048.solver.autoplay import autoplay

    return autoplay(
        seed,
        settings.plan(),
        rng=settings.rng,
        evaluator=settings.evaluator,
        tables=settings.tables,
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


RAY_CONNECT_TIMEOUT_S = 30.0
"""How long ``--ray ADDRESS`` waits for the cluster to answer (Ray itself retries for minutes)."""


def _played_on_ray(settings: BenchSettings, seeds: range) -> Iterator[GameRecord]:
    with ray_connection(str(settings.ray_address)) as ray:
        remote = ray.remote(num_cpus=1)(play_one)
        pending = [remote.remote(seed, settings) for seed in seeds]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])


@contextmanager
def ray_connection(address: str) -> Iterator[types.ModuleType]:
    """Ray, connected to the cluster at ``address`` for the block (ValueError when Ray is not
    installed or the cluster does not answer); a connection made here is closed at the end, one
    already open is left as it is."""
    try:
        import ray
    except ImportError as exc:
        raise ValueError("--ray needs Ray: pip install 'py2048[ray]'") from exc
    connected_here = not ray.is_initialized()
    if connected_here:
        connect_to_ray(address)
    try:
        yield ray
    finally:
        if connected_here:
            ray.shutdown()


def connect_to_ray(address: str, timeout_s: float = RAY_CONNECT_TIMEOUT_S) -> None:
    """``ray.init(address)``, or ValueError within ``timeout_s`` saying the cluster is not there.

    An address that refuses connections is reported at once, before Ray is started. Otherwise
    ``ray.init`` runs on a helper thread: given an address where no Ray cluster answers it
    retries for minutes, so after ``timeout_s`` the bench gives up and leaves the thread behind.
    """
    import ray

    where = _host_and_port(address)
    if where is not None:
        try:
            socket.create_connection(where, timeout=min(5.0, timeout_s)).close()
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise ValueError(
                f"cannot reach the Ray cluster at {address}: {reason.lower()} "
                "(is it running? `ray start --head` prints its address)"
            ) from None
    # Ray's own retries would print a warning every few seconds while the bench waits.
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")
    outcome: list[BaseException | None] = []

    def connect() -> None:
        try:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    helper = threading.Thread(target=connect, name="py2048-ray-connect", daemon=True)
    helper.start()
    helper.join(timeout_s)
    if not outcome:
        raise ValueError(f"no Ray cluster answered at {address} within {timeout_s:g} s")
    if outcome[0] is not None:
        raise ValueError(f"cannot reach the Ray cluster at {address}: {outcome[0]}")


def _host_and_port(address: str) -> tuple[str, int] | None:
    """``"10.0.0.5:6379"``, ``"ray://[::1]:10001"`` -> (host, port); None for ``"auto"`` and
    other forms Ray resolves itself."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def bench_report(
    settings: BenchSettings, records: list[GameRecord], summary: Summary
) -> dict[str, Any]:
    """The ``--json`` document: the settings, the summary and every game."""
    from py2048.evaluation.registry import get_evaluator

    return {
        "settings": {
            "games": settings.games,
            "seed": settings.seed,
            "depth": settings.depth,
            "time_ms": settings.time_ms,
            "preset": settings.preset,
            "budget": settings.budget,
            "rng": settings.rng,
            "evaluator": get_evaluator(settings.evaluator).name,
            "tables": list(_table_names(settings)),
            "workers": None if settings.ray_address else settings.worker_count(),
            "ray": settings.ray_address is not None,
        },
        "summary": asdict(summary),
        "games": [asdict(r) for r in records],
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``2048 bench``; :func:`run` reads them."""
    parser.description = (
        "Let the solver play many games, on every core or on a Ray cluster, and print its "
        "strength: the mean, median and best score, how often each tile from 2048 up was "
        "reached (with 95% intervals), moves per second and the share of moves the endgame "
        "tables chose. Game i uses seed+i, so a run is reproducible and two runs are "
        "comparable game for game; --json keeps every game's figures."
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=BenchSettings.games,
        help="games to play (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=BenchSettings.seed,
        help="seed of game 0; game i uses seed+i (default: %(default)s)",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--depth", type=non_negative_int, help="fixed depth: dN searches N+1 player moves"
    )
    budget.add_argument("--time-ms", type=float, help="time budget per move in milliseconds")
    budget.add_argument(
        "--preset", choices=list(PRESETS), help=f"a named preset (default: {DEFAULT_PRESET})"
    )
    parser.add_argument(
        "--budget",
        choices=BUDGETS,
        default=BenchSettings.budget,
        help="how a preset caps each move: time (its milliseconds, as in play) or nodes (its "
        "budget in positions: the same games on any machine under any load; default: "
        "%(default)s)",
    )
    parser.add_argument(
        "--workers", type=positive_int, help="worker processes (default: every core)"
    )
    parser.add_argument(
        "--json", dest="json_path", metavar="PATH", help="write every game's figures here"
    )
    parser.add_argument(
        "--rng",
        choices=RNGS,
        default=BenchSettings.rng,
        help="spawn generator: py2048's own, or libc rand() as the public C++ AIs use",
    )
    parser.add_argument(
        "--ray", dest="ray_address", metavar="ADDRESS", help="run the games on this Ray cluster"
    )
    parser.add_argument(
        "--evaluator",
        metavar="NAME",
        help="board evaluation: ntuple-snake (default: the shipped network pulled toward the "
        "endgame formation), ntuple (the network alone) or heuristic",
    )
    parser.add_argument(
        "--no-tables",
        dest="tables",
        action="store_false",
        help="search every move, even where a built endgame table fits",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``2048 bench`` with the flags of :func:`add_arguments`."""
    settings = BenchSettings(
        games=args.games,
        seed=args.seed,
        depth=args.depth,
        time_ms=args.time_ms,
        preset=args.preset,
        workers=args.workers,
        rng=args.rng,
        evaluator=args.evaluator,
        ray_address=args.ray_address,
        json_path=args.json_path,
        tables=args.tables,
        budget=args.budget,
    )
    return bench_in_terminal(settings.checked())


def bench_in_terminal(settings: BenchSettings) -> int:
    """Play the bench with a progress bar, then print the table (and write the JSON).

    With ``--ray`` the cluster is reached first, so a missing Ray or a cluster that does not
    answer is the only thing printed.
    """
    if settings.ray_address is None:
        return _bench_in_terminal(settings)
    with ray_connection(settings.ray_address):
        return _bench_in_terminal(settings)


def _bench_in_terminal(settings: BenchSettings) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from py2048.solver.report import summary_table

    console = Console()
    where = (
        f"Ray at {settings.ray_address}"
        if settings.ray_address
        else (f"{settings.worker_count()} worker process(es)")
    )
    console.print(
        f"py2048 bench: {settings.games} games, seeds {settings.seed}.."
        f"{settings.seed + settings.games - 1}, {settings.label()}, rng {settings.rng}, {where}",
        soft_wrap=True,
    )
    loading = time.perf_counter()
    console.print(tables_line(settings), soft_wrap=True)
    if settings.ray_address is None and settings.worker_count() == 1:
        from py2048.evaluation.registry import get_evaluator

        get_evaluator(settings.evaluator)  # this process plays: load the network here too
    console.print(
        f"loaded in {time.perf_counter() - loading:.2f} s (outside every clock)", soft_wrap=True
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
        finished = [0]

        def advance(record: GameRecord) -> None:
            best[0] = max(best[0], record.max_tile)
            finished[0] += 1
            progress.update(task, advance=1, description=f"games (best tile {best[0]})")
            if not console.is_terminal:  # a log file gets one line a game instead of the bar
                console.print(
                    f"game {finished[0]}/{settings.games}: seed {record.seed}, score "
                    f"{record.score:,}, max tile {record.max_tile}, {record.moves:,} moves, "
                    f"{_elapsed(time.perf_counter() - started)}",
                    soft_wrap=True,
                )

        records = run_bench(settings, advance)
    summary = summarize(records, time.perf_counter() - started)
    console.print(summary_table(summary, settings.label()))
    if settings.json_path is not None:
        text = json.dumps(bench_report(settings, records, summary), indent=1)
        try:
            Path(settings.json_path).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            console.print(f"[red]could not write {settings.json_path}: {exc}[/red]", soft_wrap=True)
            return 1
        console.print(f"every game's figures: {settings.json_path}", soft_wrap=True)
    return 0


def _elapsed(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes}:{seconds:02d} elapsed"


def tables_line(settings: BenchSettings) -> str:
    """The header line that says which endgame tables the games play with, and from where (the
    same names as the JSON's ``settings.tables``)."""
    if not settings.tables:
        return "tables: none (--no-tables)"
    from py2048.tables import tables_dir

    names = _table_names(settings)
    full = [name for name in names if not name.endswith(" (compact)")]
    compact = len(names) - len(full)
    built = ", ".join(full) if full else "none built"
    return (
        f"tables: {built} in {tables_dir()}; the compact table for {compact} formation(s) more"
        if compact
        else f"tables: {built} in {tables_dir()}"
    )


def _table_names(settings: BenchSettings) -> tuple[str, ...]:
    """The endgame tables this process plays with (the workers open the same folder)."""
    if not settings.tables:
        return ()
    from py2048.solver.endgame import endgame_tables

    return endgame_tables().names
