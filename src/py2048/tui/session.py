"""The game being played, the best score, and when each is saved. Knows nothing of the screen."""

from __future__ import annotations

from py2048.engine import Direction, Game, GameError, MoveResult
from py2048.tui.storage import Storage


class Session:
    """Plays moves on the engine's Game and saves after every change that must survive a restart.

    A session whose game did not come from the save (``--new``, ``--seed``) leaves the save
    untouched until it makes a move: until then the save holds a game this session never
    touched. A failed save never stops play: ``save_problem`` says what went wrong until a
    later save succeeds.
    """

    def __init__(self, storage: Storage, game: Game, best_score: int, *, resumed: bool) -> None:
        """``resumed``: ``game`` is the one in the save."""
        self.storage = storage
        self.game = game
        self._owns_save = resumed
        self.best_score = max(best_score, game.score)
        self.save_problem: str | None = None
        self._best_score_unsaved = best_score < game.score

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
            if self.game.score > self.best_score:
                self.best_score = self.game.score
                self._best_score_unsaved = True
            self._save()
        return result

    def keep_going(self) -> None:
        self.game.keep_playing()
        self._save()

    def new_game(self) -> None:
        """Start a new game; the save is replaced now only if it holds this session's game."""
        self.game = Game()
        if self._owns_save:
            self._save()

    def _save(self) -> None:
        try:
            self.storage.save_game(self.game)
            if self._best_score_unsaved:
                self.storage.save_best_score(self.best_score)
                self._best_score_unsaved = False
        except OSError as exc:
            self.save_problem = f"Not saved: {exc.strerror or exc}"
        else:
            self.save_problem = None
            self._owns_save = True
