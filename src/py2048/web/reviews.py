"""Game reviews for the page: the solver grades a game on a worker thread, with progress.

A review searches every position of a game (about a second for 5,000 moves at the default
setting, longer at "deep"), so it runs on a thread of its own at a lower priority, like the
hints (see :mod:`py2048.web.hints`): the compiled search releases the GIL and the event loop
keeps answering moves. One review runs at a time and a few may wait; beyond that a review is
refused with 429.

A :class:`ReviewJob` reports how far its search has got and can be cancelled: the page shows
the progress and cancels by closing the request, and the search stops within a tenth of a
second (between two parts of the game, see :func:`py2048.solver.review`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from py2048.engine import Game
from py2048.engine.size import DEFAULT_SIZE, BoardSize
from py2048.solver.grades import ReviewCancelled
from py2048.web.workers import SearchThreads

DEFAULT_WAITING = 2


class ReviewsBusy(Exception):
    """Too many reviews are running or waiting already."""


@dataclass(frozen=True, slots=True)
class Progress:
    graded: int
    total: int


class ReviewRefused(ValueError):
    """The solver does not review games of this size; ``field`` names the request's field."""

    field = "size"


def run_review(
    seed: int,
    history: str,
    setting: str,
    practice: bool,
    progress: Any = None,
    size: BoardSize = DEFAULT_SIZE,
) -> dict[str, Any]:
    """One review, on the calling thread: ``{"review": ..., "state": ...}`` (the state being the
    game's save after the moves, marked practice when it was one; the review carries ``size``
    off 4x4, as the save does). Raises ReviewError, or ReviewRefused for a size the solver's
    review does not take."""
    from py2048.solver import review

    if size.classic:
        graded = review(seed, history, setting=setting, progress=progress)
    elif "size" in inspect.signature(review).parameters:
        by_size: dict[str, Any] = {"size": size}  # a solver that reviews other sizes takes it
        graded = review(seed, history, setting=setting, progress=progress, **by_size)
    else:
        raise ReviewRefused(f"the solver does not review {size} games")
    state = Game.replay(seed, graded.history, practice=practice, size=size).to_dict()
    body = graded.to_dict()
    if not size.classic:
        body["size"] = list(size)
    return {"review": body, "state": state}


class ReviewJob:
    """One review on its way: its progress events, its result, and a way to stop it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._events: asyncio.Queue[Progress] = asyncio.Queue()
        self._cancelled = threading.Event()
        self.future: Future[dict[str, Any]] | None = None
        self._outcome: asyncio.Future[dict[str, Any]] | None = None

    def report(self, graded: int, total: int) -> None:
        """The search's progress callback (on the worker thread); raises once cancelled."""
        if self._cancelled.is_set():
            raise ReviewCancelled
        with contextlib.suppress(RuntimeError):  # the server has stopped its event loop
            self._loop.call_soon_threadsafe(self._events.put_nowait, Progress(graded, total))

    def cancel(self) -> None:
        self._cancelled.set()
        if self.future is not None:
            self.future.cancel()  # still waiting for a worker: it never starts

    async def next_event(self) -> Progress | dict[str, Any]:
        """The next progress report, or the result once the review is done (raising what the
        review raised)."""
        done = self._awaitable_outcome()
        while True:
            if not self._events.empty():
                return self._events.get_nowait()
            if done.done():
                return done.result()
            waiting = asyncio.ensure_future(self._events.get())
            either: set[asyncio.Future[Any]] = {waiting, done}
            try:
                finished, _ = await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            finally:  # also when the caller gives up (a timeout, a client gone)
                if not waiting.done():
                    waiting.cancel()
            if waiting in finished:
                return waiting.result()

    def _awaitable_outcome(self) -> asyncio.Future[dict[str, Any]]:
        """The review's outcome for the event loop, wrapped once. Its exception is marked as
        seen at once: a review whose client left ends in ReviewCancelled that nobody awaits,
        and asyncio would log it as an error when the wrapper is collected."""
        if self._outcome is None:
            assert self.future is not None
            self._outcome = asyncio.wrap_future(self.future)
            self._outcome.add_done_callback(_mark_exception_seen)
        return self._outcome


def _mark_exception_seen(outcome: asyncio.Future[Any]) -> None:
    if not outcome.cancelled():
        outcome.exception()


class ReviewService(SearchThreads):
    """Runs reviews one at a time on a low-priority worker thread; a few may wait."""

    def __init__(self, waiting: int = DEFAULT_WAITING) -> None:
        super().__init__(1, waiting, "review")

    def start(
        self, seed: int, history: str, setting: str, practice: bool, size: BoardSize = DEFAULT_SIZE
    ) -> ReviewJob:
        """Queue a review; raises ReviewsBusy when too many are running or waiting."""
        if self.full:
            raise ReviewsBusy
        job = ReviewJob(asyncio.get_running_loop())
        self.pending += 1
        job.future = self.executor.submit(
            run_review, seed, history, setting, practice, job.report, size
        )
        job.future.add_done_callback(lambda _: self._call_soon(job, self._finished))
        return job

    @staticmethod
    def _call_soon(job: ReviewJob, callback: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the server has stopped its event loop
            job._loop.call_soon_threadsafe(callback)

    def _finished(self) -> None:
        self.pending -= 1
