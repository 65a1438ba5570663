"""The game being played, the best score, and when each is saved. Knows nothing of the screen.

A session plays one board size, the size of its storage: each size keeps its own game in
progress, best score and statistics."""

from __future__ import annotations

from pathlib import Path

from py2048.engine import Direction, Game, GameError, MoveResult
from py2048.engine.save import max_moves_for
from py2048.engine.size import SIZES, BoardSize
from py2048.tui.records import Records
from py2048.tui.storage import Storage, write_failure

Notices = list[tuple[str, str]]
"""(title, message) of each problem met while loading, shown over the board."""


class Session:
    """Plays moves on the engine's Game and saves after every change that must survive a restart.

    A session whose game did not come from the save (``--new``, ``--seed``) leaves the save
    untouched until it makes a move: until then the save holds a game this session never
    touched. A failed save never stops play: ``save_problem`` says what went wrong until a
    later save succeeds.

    Undo (practice mode) marks the game practice: such a game never sets the best score, which
    falls back to ``best_before_game``, the best score before that game began.

    A game that ends, or that a new game replaces after a move, is kept in ``records`` (the
    statistics and past games), once.
    """

    def __init__(
        self,
        storage: Storage,
        game: Game,
        best_score: int,
        *,
        resumed: bool,
        best_before_game: int | None = None,
    ) -> None:
        """``resumed``: ``game`` is the one in the save. ``best_before_game``: the best score
        before that game began, if known (else ``best_score``)."""
        self.storage = storage
        self.game = game
        self._owns_save = resumed
        known = best_score if best_before_game is None else min(best_before_game, best_score)
        self.best_before_game = known
        self.best_score = best_score
        self.save_problem: str | None = None
        if game.size != storage.size:
            raise ValueError(f"a {game.size} game cannot be kept with the {storage.size} saves")
        self.records = Records(storage.directory, storage.size)
        self._best_score_unsaved = False
        self._record_best()

    @property
    def in_progress(self) -> bool:
        """A game with moves made and moves left: starting another one would lose it."""
        return self.game.moves > 0 and not self.game.over

    @property
    def awaits_win_choice(self) -> bool:
        """The player has won and not yet chosen Keep going or New game."""
        return self.game.won and not self.game.keep_going

    def play(self, direction: Direction) -> MoveResult:
        """Play ``direction`` and save. A game that cannot make another move (it has made as
        many as a save holds) does not move, and ``save_problem`` says why."""
        try:
            result = self.game.step(direction)
        except GameError as exc:
            self.save_problem = f"Not moved: {exc}"
            return MoveResult(direction, False, 0, None, False)
        if result.moved:
            self._record_best()
            self._save()
            if self.game.over:
                self._keep("over")
        return result

    def _keep(self, ended: str) -> None:
        """Count the game and keep it among the past games; a failed write says so."""
        try:
            self.records.record(self.game, ended)
        except OSError as exc:
            problem = write_failure(exc, self.storage.directory)
            self.save_problem = f"Statistics not saved: {problem}"

    def undo(self) -> str | None:
        """Take back the last move (practice mode) and save; the reason when it cannot."""
        try:
            self.game.undo()
        except GameError as exc:
            return str(exc)
        self._record_best()
        self._save()
        return None

    def _record_best(self) -> None:
        """The game's score becomes the best score, unless Undo was used in it: then the best
        is what it was before the game began."""
        if self.game.practice:
            if self.best_score > self.best_before_game:
                self.best_score = self.best_before_game
                self._best_score_unsaved = True
        elif self.game.score > self.best_score:
            self.best_score = self.game.score
            self._best_score_unsaved = True

    def keep_going(self) -> None:
        self.game.keep_playing()
        self._save()

    def new_game(self) -> None:
        """Start a new game; the save is replaced now only if it holds this session's game. The
        game it replaces is kept (statistics, past games) if a move was made in it."""
        if self.in_progress:
            self._keep("abandoned")
        self.game = Game(size=self.storage.size)
        self.best_before_game = self.best_score
        self._best_score_unsaved = True
        if self._owns_save:
            self._save()

    def _save(self) -> None:
        try:
            self.storage.save_game(self.game)
            if self._best_score_unsaved:
                self.storage.save_best_score(self.best_score, self.best_before_game)
                self._best_score_unsaved = False
        except OSError as exc:
            self.save_problem = f"Not saved: {write_failure(exc, self.storage.directory)}"
        else:
            self.save_problem = None
            self._owns_save = True


def open_session(
    directory: Path, size: BoardSize, fresh: Game | None = None
) -> tuple[Session, Notices]:
    """The session of ``size`` in ``directory``: its saved game (a new one if none), or
    ``fresh``, a new game that leaves the save alone until its first move; and what went wrong
    on the way (an unreadable file is moved aside, and the notice says where)."""
    storage = Storage(directory, size)
    notices: Notices = []
    best_score, unreadable = storage.load_best_score()
    if unreadable:
        message = f"{unreadable.message} The best score starts again."
        notices.append(("Best score could not be read", message))
    if fresh is not None:
        session = Session(storage, fresh, best_score, resumed=False, best_before_game=best_score)
        return session, notices
    saved, unreadable = storage.load_game()
    if unreadable:
        message = f"{unreadable.message} A new game starts."
        notices.append(("Saved game could not be read", message))
    game = saved or Game(size=size)
    most = max_moves_for(size)
    if game.moves >= most:
        message = (
            f"This saved game has made {most} moves, the most a game can hold, so "
            "it cannot move again. Press N for a new game."
        )
        notices.append(("This game cannot go on", message))
    before = storage.load_best_before_game() if saved is not None else best_score
    session = Session(storage, game, best_score, resumed=saved is not None, best_before_game=before)
    return session, notices


def saved_sizes(directory: Path) -> set[BoardSize]:
    """The board sizes that have a saved game in ``directory``."""
    return {size for size in SIZES if Storage(directory, size).game_path.is_file()}
