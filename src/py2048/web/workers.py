"""Low-priority worker threads for the server's searches (hints and reviews) and replays of
long games (undo, replay), bounded.

The solver's compiled search releases the GIL, so a search on a worker thread leaves the event
loop free to answer moves. On Linux the threads also run at a lower scheduling priority
(nice +10), so on a busy machine the kernel gives the CPU to the event loop first. A pool takes
at most ``workers + waiting`` searches; the service refuses more (429) rather than queue them
without bound.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

SEARCH_NICENESS = 10


def _lower_thread_priority() -> None:
    """Make the calling thread yield the CPU to the event loop (Linux sets niceness per thread)."""
    if sys.platform.startswith("linux"):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SEARCH_NICENESS)


class SearchThreads:
    """A bounded pool of low-priority search threads and the count of searches it holds."""

    def __init__(self, workers: int, waiting: int, name: str) -> None:
        self.executor = ThreadPoolExecutor(
            max_workers=workers,
            thread_name_prefix=f"py2048-{name}",
            initializer=_lower_thread_priority,
        )
        self._capacity = workers + waiting
        self.pending = 0
        """Searches running or waiting for a thread (the event loop counts them)."""

    @property
    def full(self) -> bool:
        return self.pending >= self._capacity

    def close(self) -> None:
        """Stop taking searches; the ones running finish within their budget."""
        self.executor.shutdown(wait=False, cancel_futures=True)


class ReplaysBusy(Exception):
    """Too many replays are running or waiting already."""


class ReplayThreads(SearchThreads):
    """Replays of a game's moves from its seed, off the event loop.

    A replay costs about 4 us a move in Python: nothing for a real game's few thousand moves,
    but half a second or more for a save at the move cap (262,144 moves), which on the event
    loop would hold every other request up. One runs at a time and a few may wait; beyond that
    :meth:`run` raises ReplaysBusy (the routes answer 429).
    """

    def __init__(self, workers: int = 1, waiting: int = 8) -> None:
        super().__init__(workers, waiting, "replay")

    async def run(self, call: Callable[[], T]) -> T:
        """``call()`` on a replay thread; ReplaysBusy when the queue is full."""
        if self.full:
            raise ReplaysBusy
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, call)
        finally:
            self.pending -= 1
