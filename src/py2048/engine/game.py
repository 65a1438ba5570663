"""A game of 2048: board, score, win and keep going, game over, seed, history, saves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from py2048.engine import grid, save
from py2048.engine.board import (
    ROW_TABLES,
    exponents_from_board,
    legal_mask,
    max_exponent,
    pack_exponents,
    play_checked,
    start,
    unpack,
    unpack_exponents,
)
from py2048.engine.direction import DIRECTIONS, HISTORY_LETTERS, Direction
from py2048.engine.integers import is_int
from py2048.engine.rng import random_seed, seed_key, validate_seed
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size

WIN_TILE = 1 << save.WIN_EXPONENT
_LETTER = {d: d.letter.encode() for d in Direction}


class GameError(ValueError):
    """An action the game's state does not allow (for example Keep going before a win)."""


class MoveResult(NamedTuple):
    """What one call of :meth:`Game.step` did."""

    direction: Direction
    moved: bool
    """False when the direction changed nothing: then nothing else happened either."""
    gain: int
    """Points scored: the sum of the tiles the merges created."""
    spawned: tuple[int, int, int] | None
    """The new tile as ``(row, col, value)``, or None when nothing moved."""
    won: bool
    """True only on the move that made the game's first 2048."""


class Game:
    """One game, played by :meth:`move`; every spawn follows from ``seed`` (see ``engine.rng``).

    The game keeps accepting moves after a win: a front end shows the win banner while
    ``won and not keep_going`` and calls :meth:`keep_playing` when the player plays on.
    :meth:`undo` takes moves back and marks the game ``practice``.

    ``size`` is the board's shape, ``(rows, cols)`` or ``"5x5"``, each side 3 to 8 (see
    :mod:`py2048.engine.size`); 4x4 is the default and plays on the packed fast path, every
    other size on the compiled kernels of :mod:`py2048.engine.grid`. The rules are the same.
    """

    __slots__ = (
        "_cells",
        "_hi",
        "_history",
        "_keep_going",
        "_key",
        "_lo",
        "_over",
        "_practice",
        "_score",
        "_scratch",
        "_seed",
        "_size",
        "_won",
    )

    def __init__(
        self, seed: int | None = None, *, size: BoardSize | tuple[int, int] | str | None = None
    ) -> None:
        self._seed = random_seed() if seed is None else validate_seed(seed)
        self._key = seed_key(self._seed)  # type: ignore[arg-type]  # u8: see board.py
        self._size = DEFAULT_SIZE if size is None else parse_size(size)
        if self._size.classic:
            lo, hi = start(self._key)
            self._lo, self._hi = lo, hi
            self._cells = self._scratch = None
        else:
            self._lo = self._hi = np.uint64(0)
            self._cells = grid.new_cells(self._size)
            self._scratch = grid.new_cells(self._size)
            grid.start_into(self._key, self._cells)
        self._score = 0
        self._history = bytearray()
        self._won = False
        self._keep_going = False
        self._over = False
        self._practice = False

    # --- construction from other states ---------------------------------------------------

    @classmethod
    def replay(
        cls,
        seed: int,
        moves: Iterable[Direction | str | int],
        *,
        strict: bool = False,
        practice: bool = False,
        size: BoardSize | tuple[int, int] | str | None = None,
    ) -> Game:
        """The game that ``Game(seed)`` becomes after ``moves`` (directions, names or letters).

        Directions that do not move are skipped, as they are in play. With ``strict`` (for a
        move list from outside: a file, a link) a move that is not a direction, or that changes
        nothing where it comes, raises GameError naming its number (the first move is move 1);
        a string must then hold only the letters U, R, D and L, as a save's history does.
        ``practice`` marks the game as one in which Undo was used; ``size`` is the board's.
        """
        game = cls(seed, size=size)
        letters_only = isinstance(moves, str)  # a history: only the letters U, R, D and L
        for number, value in enumerate(moves, 1):
            if not strict:
                game.move(value)
                continue
            try:
                if letters_only and value not in HISTORY_LETTERS:
                    raise ValueError(value)
                direction = Direction.parse(value)
            except ValueError:
                raise GameError(
                    f"move {number} is {value!r}, not a move: moves are U, R, D and L"
                ) from None
            if not game.move(direction):
                why = "the game was already over" if game.over else f"no tile can move {direction}"
                raise GameError(f"move {number} ({direction}) changes nothing: {why}")
        game._practice = bool(practice)
        return game

    @classmethod
    def from_board(
        cls, board: Sequence[Sequence[int]], *, score: int = 0, seed: int | None = None
    ) -> Game:
        """A game continuing from a given board (for puzzles, tests and analysis).

        Its first spawn is spawn number 2 of ``seed``; ``won`` is set if a 2048 is on the board.
        The board's shape is the game's size (3 to 8 rows of 3 to 8 tiles). The board must hold
        at least two tiles, like every game; SaveError says what is wrong.
        """
        if (
            isinstance(board, Sequence)
            and len(board) == 4
            and all(isinstance(row, Sequence) and len(row) == 4 for row in board)
        ):
            size, exponents = DEFAULT_SIZE, exponents_from_board(board)
        else:
            size, exponents = grid.read_board(board)
        state = save.SaveState(
            exponents=tuple(exponents),
            score=score,
            seed=random_seed() if seed is None else validate_seed(seed),
            history="",
            won=max(exponents) >= save.WIN_EXPONENT,
            keep_going=False,
            over=False,
            size=size,
        )
        over = not save.can_move_exponents(exponents, size)
        encoded = save.encode(state) | {"over": over}
        return cls._restore(save.decode(encoded))

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load a save (see ``py2048.engine.save``); raises SaveError naming any bad field."""
        return cls._restore(save.loads(text))

    @classmethod
    def from_dict(cls, obj: object) -> Game:
        """Load an already-parsed save object; raises SaveError naming any bad field."""
        return cls._restore(save.decode(obj))

    @classmethod
    def _restore(cls, state: save.SaveState) -> Game:
        game = cls.__new__(cls)
        game._seed = state.seed
        game._key = seed_key(state.seed)  # type: ignore[arg-type]  # u8: see board.py
        game._size = state.size
        if state.size.classic:
            lo, hi = pack_exponents(state.exponents)
            game._lo, game._hi = lo, hi  # type: ignore[assignment]  # u8: see board.py
            game._cells = game._scratch = None
        else:
            game._lo = game._hi = np.uint64(0)
            game._cells = np.array(state.exponents, dtype=np.uint8)
            game._scratch = grid.new_cells(state.size)
        game._score = state.score
        game._history = bytearray(state.history, "ascii")
        game._won = state.won
        game._keep_going = state.keep_going
        game._over = state.over
        game._practice = state.practice
        return game

    # --- state ------------------------------------------------------------------------------

    @property
    def size(self) -> BoardSize:
        """The board's shape, ``(rows, cols)``; ``str(size)`` writes it as ``"4x4"``."""
        return self._size

    @property
    def board(self) -> list[list[int]]:
        """The tiles as rows of values, top to bottom (0 = empty); a fresh copy."""
        if self._cells is not None:
            return grid.tiles(self._cells.tolist(), self._size)
        return unpack(self._lo, self._hi)  # type: ignore[arg-type]  # u8: see board.py

    @property
    def exponents(self) -> list[int]:
        """The cells' exponents, row-major (0 empty, 1 for 2, ..., 17 for 131072 on 4x4)."""
        if self._cells is not None:
            return self._cells.tolist()  # type: ignore[no-any-return]  # a list of ints
        return unpack_exponents(self._lo, self._hi)  # type: ignore[arg-type]  # u8: see board.py

    @property
    def packed(self) -> tuple[int, int]:
        """The 4x4 board as the engine's ``(lo, hi)`` words (see ``py2048.engine.board``).

        Only 4x4 boards are packed: GameError on any other size.
        """
        if self._cells is not None:
            raise GameError(f"only 4x4 boards are packed; this game is {self._size}")
        return int(self._lo), int(self._hi)

    @property
    def score(self) -> int:
        return self._score

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def moves(self) -> int:
        """The number of real moves made (directions that changed nothing do not count)."""
        return len(self._history)

    @property
    def history(self) -> tuple[Direction, ...]:
        """Every real move so far, in order: with ``seed``, enough to replay the game."""
        return tuple(Direction.parse(chr(letter)) for letter in self._history)

    @property
    def won(self) -> bool:
        """True from the move that made the first 2048 on (also when the game is over)."""
        return self._won

    @property
    def keep_going(self) -> bool:
        """True once the player chose to play on after the win (see :meth:`keep_playing`)."""
        return self._keep_going

    @property
    def over(self) -> bool:
        """True when the board is full and no two neighbours are equal."""
        return self._over

    @property
    def practice(self) -> bool:
        """True once Undo has been used in this game (see :meth:`undo`): such a game is
        practice, and never sets the best score."""
        return self._practice

    @property
    def max_tile(self) -> int:
        if self._cells is not None:
            top = int(self._cells.max())
            return 1 << top if top else 0
        return 1 << max_exponent(self._lo, self._hi) if self._lo or self._hi else 0

    def legal_moves(self) -> list[Direction]:
        """The directions that would change the board, in action order (up, right, down, left)."""
        if self._cells is not None:
            mask = grid.legal_mask(self._cells, *self._size)
        else:
            mask = legal_mask(self._lo, self._hi, ROW_TABLES)
        return [d for d in DIRECTIONS if mask >> d & 1]

    # --- play -------------------------------------------------------------------------------

    def move(self, direction: Direction | str | int) -> bool:
        """Play a direction; True if the board moved (and a tile spawned), False if not.

        A game that has made ``save.max_moves_for(size)`` moves (only a save made by hand gets
        there) raises GameError instead of moving again: its save could not hold one more.
        """
        return self._play(Direction.parse(direction))[0] >= 0

    def step(self, direction: Direction | str | int) -> MoveResult:
        """Play a direction and report what happened."""
        direction = Direction.parse(direction)
        cell, exponent, gain, won_now = self._play(direction)
        if cell < 0:
            return MoveResult(direction, False, 0, None, False)
        cols = self._size.cols
        return MoveResult(
            direction, True, gain, (cell // cols, cell % cols, 1 << exponent), won_now
        )

    def _play(self, direction: Direction) -> tuple[int, int, int, bool]:
        """Apply a move; return ``(spawn cell or -1, spawn exponent, gain, won now)``."""
        if self._cells is not None:
            return self._play_grid(direction)
        lo, hi, gain, cell, exponent, over = play_checked(
            self._lo, self._hi, direction.value, self._key, len(self._history) + 2, ROW_TABLES
        )
        if cell < 0:
            return cell, 0, 0, False
        self._check_room()
        self._lo, self._hi = lo, hi
        self._score += gain
        self._history += _LETTER[direction]
        self._over = over
        won_now = not self._won and gain >= WIN_TILE and max_exponent(lo, hi) >= save.WIN_EXPONENT
        if won_now:
            self._won = True
        return cell, exponent, gain, won_now

    def _play_grid(self, direction: Direction) -> tuple[int, int, int, bool]:
        cells, scratch = self._cells, self._scratch
        assert cells is not None and scratch is not None
        gain, cell, exponent, over = grid.play_into(
            cells, *self._size, direction.value, self._key, len(self._history) + 2, scratch
        )
        if cell < 0:
            return cell, 0, 0, False
        self._check_room()
        if gain < 0:  # a merge past 2**61: only a board set up by hand holds such tiles
            gain = grid.gain_of(cells.tolist(), self._size, direction.value)
        self._cells, self._scratch = scratch, cells
        self._score += gain
        self._history += _LETTER[direction]
        self._over = over
        won_now = not self._won and gain >= WIN_TILE and int(scratch.max()) >= save.WIN_EXPONENT
        if won_now:
            self._won = True
        return cell, exponent, gain, won_now

    def _check_room(self) -> None:
        most = save.max_moves_for(self._size)
        if len(self._history) >= most:
            raise GameError(
                f"this game has made {most} moves, the most a {self._size} game can hold "
                "(no game played from its start gets near); start a new game"
            )

    def keep_playing(self) -> None:
        """The player chose Keep going after the win: front ends stop showing the win banner."""
        if not self._won:
            raise GameError("Keep going is only possible after the game is won")
        self._keep_going = True

    def undo(self, steps: int = 1) -> None:
        """Take back the last ``steps`` real moves, as many as the player likes (practice mode).

        The game becomes ``Game.replay(seed, history)`` without those moves, so its next tiles
        are the same ones again; it is marked ``practice`` for good. ``keep_going`` stays only
        while the game is still won. Raises GameError when there are not that many moves to
        take back, or when the moves do not rebuild the game from its seed's opening (a game
        set up with :meth:`from_board`).
        """
        if not is_int(steps) or steps < 1:
            raise ValueError(f"steps must be a whole number of 1 or more, got {steps!r}")
        if steps > len(self._history):
            made = len(self._history)
            raise GameError(
                "no move to undo" if made == 0 else f"only {made} moves can be undone, not {steps}"
            )
        history = self._history.decode("ascii")
        kept = len(history) - steps
        earlier = Game.replay(self._seed, history[:kept], size=self._size)
        whole = Game._restore(earlier._state())  # the history replayed once, in two parts
        for letter in history[kept:]:
            whole.move(letter)
        if (whole.exponents, whole._score) != (self.exponents, self._score):
            raise GameError(
                "this game did not start from its seed's opening (it was set up from a board), "
                "so its moves cannot be replayed to take one back"
            )
        self._lo, self._hi = earlier._lo, earlier._hi
        self._cells, self._scratch = earlier._cells, earlier._scratch
        self._score = earlier._score
        self._history = earlier._history
        self._won = earlier._won
        self._keep_going = self._keep_going and earlier._won
        self._over = earlier._over
        self._practice = True

    # --- saves ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """The save object (see ``py2048.engine.save``)."""
        return save.encode(self._state())

    def to_json(self) -> str:
        """The save as JSON text; ``Game.from_json`` restores exactly this game."""
        return save.dumps(self._state())

    def _state(self) -> save.SaveState:
        return save.SaveState(
            exponents=tuple(self.exponents),
            score=self._score,
            seed=self._seed,
            history=self._history.decode("ascii"),
            won=self._won,
            keep_going=self._keep_going,
            over=self._over,
            practice=self._practice,
            size=self._size,
        )

    def __repr__(self) -> str:
        size = "" if self._size.classic else f", size={str(self._size)!r}"
        return (
            f"Game(seed={self._seed}{size}, score={self._score}, moves={self.moves}, "
            f"board={self.board})"
        )

    def __str__(self) -> str:
        width = max(len(str(self.max_tile)), 1)
        rows = [" ".join(f"{v or '.':>{width}}" for v in row) for row in self.board]
        return "\n".join(rows)
