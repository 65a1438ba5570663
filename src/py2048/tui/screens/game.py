"""The game screen: the board, the scores and the solver panel, driven by the keys.

The screen draws the session's game and turns keys into moves; the engine decides what a move
does, the session saves it. Solver searches run on worker threads (the solver releases the
GIL), so the screen stays responsive while the solver thinks, and the player can take over
from autoplay with any move key.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Digits, Footer, Static
from textual.worker import Worker, WorkerState

from py2048.engine import Direction, MoveResult
from py2048.engine.size import BoardSize
from py2048.solver.presets import PRESETS
from py2048.tui.advisor import Advice, Advisor
from py2048.tui.keys import GAME_KEYS
from py2048.tui.screens.dialogs import (
    KEEP_GOING,
    NEW_GAME,
    REVIEW,
    UNDO,
    ConfirmNewGameScreen,
    GameOverScreen,
    NoticeScreen,
    WinScreen,
)
from py2048.tui.screens.records import RecordsScreen
from py2048.tui.screens.review import ReviewScreen
from py2048.tui.screens.size import SizeScreen, size_note
from py2048.tui.session import Notices, Session, open_session, saved_sizes
from py2048.tui.settings import AUTOPLAY_SPEEDS, Settings
from py2048.tui.widgets.advice import AdvicePanel
from py2048.tui.widgets.board import Board, BoardArea
from py2048.tui.widgets.scores import ScoreBox

AUTOPLAY_DELAYS = (1.0, 0.5, 0.25, 0.1, 0.03, 0.0)
"""Seconds between autoplay moves, slowest first; the solver's own time comes on top."""
assert len(AUTOPLAY_DELAYS) == AUTOPLAY_SPEEDS
ADVICE_GROUP = "advice"
MIN_WIDTH = 50
MIN_HEIGHT = 20
"""The smallest terminal the game lays out in; below it the screen says so instead."""


class GameScreen(Screen[None]):
    DEFAULT_CSS = """
    GameScreen #layout { height: 1fr; }
    GameScreen #sidebar { width: 30; height: 1fr; padding: 0 1; }
    GameScreen #title { color: $text-accent; width: 100%; text-align: center; }
    GameScreen #scores { height: auto; }
    GameScreen #save-problem { color: $error; height: auto; }
    GameScreen #practice { color: $text-warning; background: $warning-muted; height: auto; }
    GameScreen.-narrow #layout { layout: vertical; }
    GameScreen.-narrow #sidebar { width: 100%; height: auto; layout: horizontal; }
    GameScreen.-narrow #title { display: none; }
    GameScreen.-narrow #scores { width: 18; }
    GameScreen.-narrow AdvicePanel { width: 1fr; }
    GameScreen #too-small {
        display: none;
        width: 100%;
        height: 100%;
        content-align: center middle;
        text-align: center;
        padding: 0 1;
    }
    GameScreen.-too-small #layout, GameScreen.-too-small Footer { display: none; }
    GameScreen.-too-small #too-small { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [key.binding() for key in GAME_KEYS]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (64, "-wide")]  # noqa: RUF012  # Textual's

    def __init__(self, session: Session, advisor: Advisor, notices: Notices) -> None:
        super().__init__()
        self.session = session
        self.advisor = advisor
        self.notices = notices
        """(title, message) of each problem met while loading, shown over the board."""
        self.settings = Settings.load(session.storage.directory)
        """The autoplay speed and the solver's strength, kept beside the save."""
        self.autoplaying = False
        self._autoplay_timer: Timer | None = None
        self._position = 0
        """Counts every change of the board, so advice for an older board is ignored."""

    @property
    def preset(self) -> str:
        return self.settings.strength

    @property
    def speed(self) -> int:
        return self.settings.autoplay_speed

    def _change_settings(self, **changes: Any) -> None:
        self.settings = replace(self.settings, **changes)
        self.settings.save(self.session.storage.directory)

    def compose(self) -> ComposeResult:
        yield Static(id="too-small", markup=False)
        with Horizontal(id="layout"):
            with BoardArea(id="board-area"):
                yield Board(self.session.game.size)
            with Vertical(id="sidebar"):
                yield Digits("2048", id="title")
                with Vertical(id="scores"):
                    yield ScoreBox("Score", id="score")
                    yield ScoreBox("Best", id="best")
                    yield Static(id="save-problem", markup=False)
                    yield Static(id="practice", markup=False)
                yield AdvicePanel()
        yield Footer()

    def on_mount(self) -> None:
        panel = self.query_one(AdvicePanel)
        panel.preset = self.preset
        panel.speed = (self.speed + 1, len(AUTOPLAY_DELAYS))
        self._start(self.notices)

    def _start(self, notices: Notices) -> None:
        """Show the session's game as it stands: its size (kept for the next start), the banner
        it awaits, and what went wrong while loading it."""
        size = self.session.game.size
        if self.settings.size != str(size):
            self._change_settings(size=str(size))
        self.query_one("#best", ScoreBox).border_title = f"Best on {size}"
        self._draw()
        note = size_note(size)
        if note:
            self.notify(note, timeout=6)
        if self.session.awaits_win_choice:
            self._show_win()
        elif self.session.game.over:
            self._show_game_over()
        for title, message in notices:
            self.app.push_screen(NoticeScreen(title, message))

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(too_small, "-too-small")
        self.query_one("#too-small", Static).update(
            f"The terminal is too small for 2048 ({width}x{height}).\n"
            f"Make it at least {MIN_WIDTH}x{MIN_HEIGHT}. Q quits; the game is saved."
        )

    @property
    def too_small(self) -> bool:
        """The terminal is below the minimum size: the board is not shown, so nothing moves."""
        return self.has_class("-too-small")

    # --- drawing ----------------------------------------------------------------------------

    def _draw(self, result: MoveResult | None = None) -> None:
        self._position += 1
        spawned = result.spawned[:2] if result and result.spawned else None
        self.query_one(Board).show(self.session.game.board, spawned)
        score = self.query_one("#score", ScoreBox)
        score.value = self.session.game.score
        score.gain = result.gain if result else 0
        self.query_one("#best", ScoreBox).value = self.session.best_score
        problem = self.query_one("#save-problem", Static)
        problem.update(self.session.save_problem or "")
        problem.display = self.session.save_problem is not None
        self._draw_practice()
        self.query_one(AdvicePanel).clear()

    def _draw_practice(self) -> None:
        """Say when practice mode is on (U undoes) and when the game is a practice game."""
        lines = []
        if self.session.game.practice:
            lines.append("Practice game")
        if self.settings.practice:
            lines.append("Practice: U undoes")
        practice = self.query_one("#practice", Static)
        practice.update("\n".join(lines))
        practice.display = bool(lines)

    # --- moves ------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        """A move by the player: it takes over from autoplay."""
        self.stop_autoplay()
        if not self.too_small:
            self._play(Direction.parse(direction))

    def _play(self, direction: Direction) -> bool:
        """Play ``direction``; False if it did not move the board."""
        result = self.session.play(direction)
        if not result.moved:
            return False
        self._draw(result)
        if result.won:
            self._show_win()
        elif self.session.game.over:
            self._show_game_over()
        return True

    def _show_win(self) -> None:
        self.stop_autoplay()
        game = self.session.game
        banner = WinScreen(game.score, can_keep_going=not game.over)
        self.app.push_screen(banner, self._after_win)

    def _after_win(self, choice: str | None) -> None:
        if choice == KEEP_GOING:
            self.session.keep_going()
            self._draw()
        elif choice == NEW_GAME:
            self._new_game()

    def _show_game_over(self) -> None:
        self.stop_autoplay()
        game = self.session.game
        game_over = GameOverScreen(game.score, self.session.best_score, practice=game.practice)
        self.app.push_screen(game_over, self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == NEW_GAME:
            self._new_game()
        elif choice == REVIEW:
            self.action_review()
        elif choice == UNDO:
            self.action_undo()
            if self.session.game.over:  # not taken back: the game is still over
                self._show_game_over()

    def action_review(self) -> None:
        """The review of the game: the solver grades every move."""
        self.stop_autoplay()
        self.app.push_screen(ReviewScreen(self.session.game))

    def action_records(self) -> None:
        """Statistics and past games."""
        self.stop_autoplay()
        self.app.push_screen(RecordsScreen(self.session.records))

    def action_new_game_or_review(self) -> None:
        """R: a new game, as in the browser; once the game is over, its review."""
        if self.session.game.over:
            self.action_review()
        else:
            self.action_new_game()

    # --- practice mode ------------------------------------------------------------------------

    def action_toggle_practice(self) -> None:
        self._change_settings(practice=not self.settings.practice)
        self._draw_practice()
        state = "on: U (or Ctrl+Z) undoes" if self.settings.practice else "off"
        self.notify(f"Practice mode {state}.", timeout=3)

    def action_undo(self) -> None:
        """Take back the last move (practice mode): the game becomes a practice game."""
        if not self.settings.practice:
            self.notify("Undo works in practice mode: press Z to turn it on.", timeout=4)
            return
        self.stop_autoplay()
        problem = self.session.undo()
        if problem:
            self.notify(f"Nothing undone: {problem}.", severity="warning", timeout=4)
            return
        self._draw()

    def action_new_game(self) -> None:
        self.stop_autoplay()
        if self.session.in_progress:
            confirm = ConfirmNewGameScreen(self.session.game.score)
            self.app.push_screen(confirm, self._after_confirm)
        else:
            self._new_game()

    def _after_confirm(self, choice: str | None) -> None:
        if choice == NEW_GAME:
            self._new_game()

    def _new_game(self) -> None:
        self.session.new_game()
        self._draw()

    # --- board size ---------------------------------------------------------------------------

    @property
    def board_size(self) -> BoardSize:
        return self.session.game.size

    def action_choose_size(self) -> None:
        """B: choose the board size; the size being played starts a new game."""
        self.stop_autoplay()
        directory = self.session.storage.directory
        self.app.push_screen(SizeScreen(self.board_size, saved_sizes(directory)), self._after_size)

    def _after_size(self, size: BoardSize | None) -> None:
        if size is None:
            return
        if size == self.board_size:
            self.action_new_game()
            return
        self.change_size(size)

    def change_size(self, size: BoardSize) -> None:
        """Play on ``size``: its saved game, or a new one. The game left stays saved on its
        own size (a game with moves is saved after every move)."""
        self.stop_autoplay()
        session, notices = open_session(self.session.storage.directory, size)
        self.session = session
        resumed = session.game.moves > 0
        what = f"your {size} game (score {session.game.score:,})" if resumed else "a new game"
        self.notify(f"Board {size}: {what}.", timeout=4)
        self._start(notices)

    # --- solver: hint and autoplay ----------------------------------------------------------

    def action_hint(self) -> None:
        if self.autoplaying:
            return
        self._ask_advice("hint")

    def action_autoplay(self) -> None:
        if self.autoplaying:
            self.stop_autoplay()
            return
        if self.session.game.over:
            return
        self.autoplaying = True
        self.query_one(AdvicePanel).autoplay = True
        self._ask_advice("autoplay")

    def stop_autoplay(self) -> None:
        """Stop autoplay now; a search still running is abandoned."""
        if not self.autoplaying:
            return
        self.autoplaying = False
        if self._autoplay_timer is not None:
            self._autoplay_timer.stop()
            self._autoplay_timer = None
        self.workers.cancel_group(self, ADVICE_GROUP)
        panel = self.query_one(AdvicePanel)
        panel.autoplay = False
        panel.thinking = False

    def action_stop_autoplay(self) -> None:
        self.stop_autoplay()

    def action_autoplay_speed(self, step: int) -> None:
        speed = min(max(self.speed + step, 0), len(AUTOPLAY_DELAYS) - 1)
        if speed != self.speed:
            self._change_settings(autoplay_speed=speed)
        self.query_one(AdvicePanel).speed = (self.speed + 1, len(AUTOPLAY_DELAYS))

    def action_next_strength(self) -> None:
        names = list(PRESETS)
        self._change_settings(strength=names[(names.index(self.preset) + 1) % len(names)])
        self.query_one(AdvicePanel).preset = self.preset

    def _ask_advice(self, purpose: str) -> None:
        if self.too_small:
            self.stop_autoplay()
            return
        panel = self.query_one(AdvicePanel)
        panel.problem = None
        if panel.advice is None:
            panel.thinking = True
        work = partial(self._advise, self._position, self.session.game.board, self.preset)
        self.run_worker(
            work, name=purpose, group=ADVICE_GROUP, exclusive=True, exit_on_error=False, thread=True
        )

    def _advise(self, position: int, board: list[list[int]], preset: str) -> tuple[int, Advice]:
        """Runs on a worker thread: touches nothing of the screen."""
        return position, self.advisor(board, preset)

    @on(Worker.StateChanged)
    def _advice_ready(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != ADVICE_GROUP:
            return
        panel = self.query_one(AdvicePanel)
        if event.state == WorkerState.ERROR:
            self.stop_autoplay()
            panel.thinking = False
            panel.problem = self._advice_problem(worker.error)
            return
        if event.state != WorkerState.SUCCESS:
            return
        position, advice = worker.result  # type: ignore[misc]  # set: the worker succeeded
        if position != self._position:
            return
        panel.thinking = False
        panel.show(advice, self.session.game.score)
        if worker.name == "autoplay" and self.autoplaying:
            self._autoplay_move(advice)

    def _advice_problem(self, error: BaseException | None) -> str:
        """What the panel says when the solver gave no advice: a board it refused (a size it
        does not play, say) is named as such; anything else is a failure."""
        if isinstance(error, ValueError) and not self.board_size.classic:
            return f"No advice on {self.board_size}: the solver said: {error}"
        return f"The solver failed: {error}"

    def _autoplay_move(self, advice: Advice) -> None:
        score = self.session.game.score
        if advice.direction is None or not self._play(advice.direction):
            self.stop_autoplay()
            return
        self.query_one(AdvicePanel).show(advice, score)
        if not self.autoplaying:
            return
        delay = AUTOPLAY_DELAYS[self.speed]
        if delay:
            self._autoplay_timer = self.set_timer(delay, self._autoplay_next)
        else:
            self.call_later(self._autoplay_next)

    def _autoplay_next(self) -> None:
        self._autoplay_timer = None
        if self.autoplaying:
            self._ask_advice("autoplay")
