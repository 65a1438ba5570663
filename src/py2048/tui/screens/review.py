"""The review of the game, over the board: the solver grades every move on a worker thread while
a progress bar fills, then the summary (the same as ``2048 review`` prints). Esc closes it, and
stops a review still on its way."""

from __future__ import annotations

import threading
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState

from py2048.engine import Game
from py2048.solver.grades import ReviewCancelled
from py2048.tui.palette import colour_system
from py2048.tui.review import replay_problem, review_game, summary
from py2048.tui.screens.box import BoxScreen

REVIEW_GROUP = "review"


class ReviewScreen(BoxScreen[None]):
    DEFAULT_CSS = """
    ReviewScreen > .box { width: 96; max-height: 100%; padding: 0 1; }
    ReviewScreen #status { margin: 1 0 0 0; }
    ReviewScreen ProgressBar { margin: 0 0 1 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,r,enter", "close", "Close the review"),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.cancelled = threading.Event()
        self.review: object | None = None
        self.worker: Worker[object] | None = None
        self.ended = False
        """The review is on screen, or stopped with a message."""
        self.graded = 0
        self.total = game.moves
        """How far the search has got (written by the worker, read by the screen's timer)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box") as box:
            box.border_title = "Game review (Esc closes)"
            yield Static(f"Reviewing {self.game.moves:,} moves…", id="status", markup=False)
            yield ProgressBar(total=max(self.game.moves, 1), show_eta=False, id="progress")
            yield Static(id="summary")

    def on_mount(self) -> None:
        problem = replay_problem(self.game)
        if problem:
            self._stopped(f"This game cannot be reviewed: {problem}.")
            return
        self.worker = self.run_worker(
            self._review, name="review", group=REVIEW_GROUP, exit_on_error=False, thread=True
        )
        self.set_interval(0.1, self._show_progress)

    def _review(self) -> object:
        """On a worker thread: the review. Its progress goes into ``graded`` and ``total``,
        which a timer on the screen shows; closing the screen makes the next report stop it."""

        def progress(graded: int, total: int) -> None:
            self.graded, self.total = graded, total
            if self.cancelled.is_set():
                raise ReviewCancelled

        return review_game(self.game, progress=progress)

    def _show_progress(self) -> None:
        if self.ended or not self.is_attached:
            return
        total = max(self.total, 1)
        self.query_one(ProgressBar).update(total=total, progress=self.graded)
        status = f"Reviewing: {self.graded:,} of {self.total:,} moves graded…"
        self.query_one("#status", Static).update(status)

    def _stopped(self, message: str) -> None:
        self.ended = True
        self.query_one("#status", Static).update(message)
        self.query_one(ProgressBar).display = False

    @on(Worker.StateChanged)
    def _review_done(self, event: Worker.StateChanged) -> None:
        if event.worker.group != REVIEW_GROUP or self.cancelled.is_set():
            return
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            if isinstance(error, ValueError):  # a size the solver does not review, say
                self._stopped(f"This game cannot be reviewed: {error}.")
            elif not isinstance(error, ReviewCancelled):
                self._stopped(f"The review failed: {error}")
            return
        if event.state != WorkerState.SUCCESS:
            return
        self.review = event.worker.result
        self.ended = True
        self.query_one("#status", Static).display = False
        self.query_one(ProgressBar).display = False
        system = colour_system(self.app.console.color_system)
        self.query_one("#summary", Static).update(
            summary(self.review, practice=self.game.practice, system=system)  # type: ignore[arg-type]
        )

    def action_close(self) -> None:
        self.cancelled.set()
        self.dismiss(None)
