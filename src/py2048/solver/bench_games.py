"""Where a ``2048 bench``'s games run: in this process, in a pool of worker processes, or as
tasks on a Ray cluster.

Game ``i`` uses seed ``seed + i``, so a bench is reproducible and comparable game for game.
Each game runs whole in compiled code (:mod:`py2048.solver.autoplay`), one game at a time per
worker process; with ``--ray ADDRESS`` each game is a Ray task instead.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from multiprocessing import get_context
from typing import TYPE_CHECKING

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
