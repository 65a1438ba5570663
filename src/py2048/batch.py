"""Many games of 2048 at once: N boards in numpy arrays, stepped in one compiled call.

For people who write their own training loops (and for :mod:`py2048.env`, which builds on the
same per-game kernels). Nothing here needs Gymnasium. Every game plays exactly as
``py2048.Game(seed, size=size)``: game ``i`` of ``Batch(n, seed=s, size=size)`` is
``Game(s + i, size=size)``, and the same moves give the same boards and scores.

State lives in one ``(N, 6)`` uint64 array whose columns are the packed board (``lo``, ``hi``;
see :mod:`py2048.engine.board`; zero on boards other than 4x4), the spawn key, the game's seed,
its number of real moves and its score (:data:`STATE_LO` ... :data:`STATE_SCORE`, from
:mod:`py2048.engine.rows`). A 4x4 board is packed in its two words and moves through the engine's
row tables; a board of any other size (3 to 8 rows and columns) is its cells' exponents, one
row of an ``(N, rows * cols)`` uint8 array, and moves through :mod:`py2048.engine.grid`'s
kernels. A game that restarts without a seed of its own plays :func:`next_seed` of its seed, so
a whole run of games follows from the first seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from py2048._uncounted import njit_uncounted
from py2048.checks import (
    SeedLike,
    board_words,
    checked_actions,
    checked_mask,
    checked_positive_int,
    seeds_for,
)
from py2048.engine import grid
from py2048.engine.board import (
    ROW_TABLES,
    BoardError,
    legal_mask,
    max_exponent,
    move,
    unpack,
)
from py2048.engine.rng import draw, seed_key
from py2048.engine.rows import (
    STATE_COLUMNS,
    STATE_HI,
    STATE_KEY,
    STATE_LO,
    STATE_MOVES,
    STATE_SCORE,
    STATE_SEED,
    advance,
    next_seed,
    restart_from,
)
from py2048.engine.save import too_few_tiles
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size
from py2048.observation import onehot_planes, write_cells_observation, write_observation

__all__ = [
    "STATE_COLUMNS",
    "STATE_HI",
    "STATE_KEY",
    "STATE_LO",
    "STATE_MOVES",
    "STATE_SCORE",
    "STATE_SEED",
    "Afterstates",
    "Batch",
    "SeedLike",
    "StepResult",
    "next_seed",
]

TILE_SUM_LIMIT = 1 << 52
"""A board given to start from (off 4x4) must hold tiles adding up to less than this. Each move
adds at most 4, so no game played from it makes a tile of ``2 ** 53``: gains stay exact as
float64 rewards, and scores fit their 64-bit column."""


# --- one game of a batch, on any size -------------------------------------------------------


class Grid(NamedTuple):
    """The boards of a batch of a size other than 4x4 (a 4x4 batch has None: its boards are
    packed in the state's ``lo`` and ``hi`` words and move through the engine's row tables).

    The per-game kernels below take it as their ``grid`` argument; numba compiles them once
    for None and once for a Grid, dropping the other size's branch, so 4x4 runs its packed
    code alone.
    """

    cells: np.ndarray
    """(N, rows * cols) uint8: each game's row-major exponents."""
    scratch: np.ndarray
    """(rows * cols,) uint8: where a move is made before the game keeps it."""
    rows: int
    cols: int


class Start(NamedTuple):
    """The board a restart puts the selected games on (``use_board``), else their seeds'."""

    lo: np.uint64
    hi: np.uint64
    """The board packed, on 4x4."""
    cells: np.ndarray
    """The board's row-major exponents, on other sizes (empty on 4x4)."""
    use_board: bool


def grid_for(size: BoardSize, n: int) -> Grid | None:
    """Fresh storage for ``n`` boards of ``size``; None for 4x4 (packed in the state)."""
    if size.classic:
        return None
    return Grid(np.zeros((n, size.cells), np.uint8), np.zeros(size.cells, np.uint8), *size)


def start_for(board: Sequence[Sequence[int]] | None, size: BoardSize) -> Start:
    """The start a reset option ``board`` asks for, checked: rows of tile values of ``size``, at
    least two tiles (as ``Game.from_board`` takes); BoardError (a ValueError) naming what is
    wrong. None gives the seeds' own openings."""
    if size.classic:
        lo, hi, use_board = board_words(board)
        return Start(lo, hi, np.zeros(0, np.uint8), use_board)
    if board is None:
        return Start(np.uint64(0), np.uint64(0), np.zeros(0, np.uint8), False)
    _, exponents = grid.read_board(board, "board", size)
    too_few = too_few_tiles(exponents)
    if too_few:
        raise BoardError(f"board: {too_few}")
    total = sum(1 << e for e in exponents if e)
    if total >= TILE_SUM_LIMIT:
        raise BoardError(
            f"board: its tiles add up to {total}; the batch API and the environments start "
            "only from boards whose tiles add up to less than 2**52 (their scores and "
            "rewards are exact below 2**53)"
        )
    return Start(np.uint64(0), np.uint64(0), np.array(exponents, np.uint8), True)


def board_rows(state: np.ndarray, i: int, boards: Grid | None) -> list[list[int]]:
    """Game ``i``'s board as rows of tile values (a fresh list)."""
    if boards is None:
        return unpack(int(state[i, STATE_LO]), int(state[i, STATE_HI]))
    return grid.tiles(boards.cells[i].tolist(), BoardSize(boards.rows, boards.cols))


@njit(cache=True, nogil=True, inline="always")
def restart_game(
    state: np.ndarray, i: int, seed: np.uint64, start: Start, boards: Grid | None
) -> None:
    """Game ``i`` becomes ``Game(seed)``, or ``Game.from_board(board, seed=seed)`` with a
    board (``start``)."""
    if boards is None:
        restart_from(state, i, seed, start.lo, start.hi, start.use_board)
        return
    key = seed_key(seed)
    row = boards.cells[i]
    if start.use_board:
        for cell in range(row.size):  # element by element: a slice would need counting
            row[cell] = start.cells[cell]
    else:
        grid.start_into(key, row)
    state[i, STATE_LO] = 0
    state[i, STATE_HI] = 0
    state[i, STATE_KEY] = key
    state[i, STATE_SEED] = seed
    state[i, STATE_MOVES] = 0
    state[i, STATE_SCORE] = 0


@njit(cache=True, nogil=True, inline="always")
def advance_game(
    state: np.ndarray, i: int, action: int, tables: np.ndarray, boards: Grid | None
) -> tuple[int, bool]:
    """Play ``action`` in game ``i`` as ``Game.step`` does: ``(gain, moved)``."""
    if boards is None:
        return advance(state, i, action, tables)
    row = boards.cells[i]
    gain, moved = grid.slide_into(row, boards.rows, boards.cols, action, boards.scratch)
    if not moved:
        return 0, False
    grid.place(boards.scratch, draw(state[i, STATE_KEY], state[i, STATE_MOVES] + np.uint64(2)))
    for cell in range(row.size):
        row[cell] = boards.scratch[cell]
    state[i, STATE_MOVES] += np.uint64(1)
    state[i, STATE_SCORE] += np.uint64(gain)
    return gain, True


@njit(cache=True, nogil=True, inline="always")
def legal_of(state: np.ndarray, i: int, tables: np.ndarray, boards: Grid | None) -> int:
    """Game ``i``'s legal moves: bit ``d`` set when direction ``d`` changes its board."""
    if boards is None:
        return legal_mask(state[i, STATE_LO], state[i, STATE_HI], tables)
    return grid.legal_mask(boards.cells[i], boards.rows, boards.cols)


@njit(cache=True, nogil=True, inline="always")
def top_of(state: np.ndarray, i: int, boards: Grid | None) -> int:
    """The exponent of game ``i``'s largest tile."""
    if boards is None:
        return max_exponent(state[i, STATE_LO], state[i, STATE_HI])
    row = boards.cells[i]
    top = 0
    for cell in range(row.size):  # not row.max(): numba's allocates, see _uncounted
        top = max(top, int(row[cell]))
    return top


@njit(cache=True, nogil=True, inline="always")
def observe_game(state: np.ndarray, i: int, out: np.ndarray, boards: Grid | None) -> None:
    """Write game ``i``'s observation into the flat buffer ``out`` (exponents or one-hot)."""
    if boards is None:
        write_observation(state[i, STATE_LO], state[i, STATE_HI], out)
    else:
        write_cells_observation(boards.cells[i], out)


NO_START = Start(np.uint64(0), np.uint64(0), np.zeros(0, np.uint8), False)
"""The start of a game that restarts from its seed's opening (made once: the whole-batch
kernels allocate nothing, see :mod:`py2048._uncounted`)."""


# --- whole-batch kernels --------------------------------------------------------------------
# Compiled without reference counting (py2048._uncounted): with it, numba counted the arrays
# handed to the per-game helpers up and down on every game of every step, 70% of a 4x4 step's
# time under perf.


class StepResult(NamedTuple):
    """What one :meth:`Batch.step` did, one entry per game (fresh arrays every step)."""

    gains: np.ndarray
    """int64: points scored by the move (0 for a direction that did not move)."""
    moved: np.ndarray
    """bool: the direction changed the board (and a tile spawned)."""
    over: np.ndarray
    """bool: the game has no legal move left (with autoreset it has already restarted)."""
    final_scores: np.ndarray
    """int64: the final score of each game that is over (0 for the others)."""
    final_max_tiles: np.ndarray
    """int64: the largest tile of each game that is over (0 for the others)."""


@njit_uncounted(cache=True, nogil=True)
def _restart_selected(
    state: np.ndarray, select: np.ndarray, seeds: np.ndarray, start: Start, boards: Grid | None
) -> None:
    for i in range(state.shape[0]):
        if select[i]:
            restart_game(state, i, seeds[i], start, boards)


@njit_uncounted(cache=True, nogil=True)
def _step(
    state: np.ndarray,
    actions: np.ndarray,
    autoreset: bool,
    tables: np.ndarray,
    boards: Grid | None,
    counts: np.ndarray,
    flags: np.ndarray,
    legal: np.ndarray,
    fresh: Start,
) -> None:
    """One step of every game; ``counts`` rows: gains, final scores, final largest tiles;
    ``flags`` rows: moved, over (two arrays instead of five: each array passed costs time);
    ``fresh``: :data:`NO_START`, the start of a game that restarts."""
    gains, final_scores, final_max_tiles = counts[0], counts[1], counts[2]
    moved, over = flags[0], flags[1]
    for i in range(state.shape[0]):
        gains[i], moved[i] = advance_game(state, i, actions[i], tables, boards)
        mask = legal_of(state, i, tables, boards)
        over[i] = mask == 0
        if mask == 0:
            final_scores[i] = state[i, STATE_SCORE]
            final_max_tiles[i] = 1 << top_of(state, i, boards)
            if autoreset:
                restart_game(state, i, next_seed(state[i, STATE_SEED]), fresh, boards)
                mask = legal_of(state, i, tables, boards)
        else:
            final_scores[i] = 0
            final_max_tiles[i] = 0
        legal[i] = mask


@njit_uncounted(cache=True, nogil=True)
def _max_tiles(state: np.ndarray, boards: Grid | None, out: np.ndarray) -> None:
    for i in range(state.shape[0]):
        out[i] = 1 << top_of(state, i, boards)


@njit_uncounted(cache=True, nogil=True)
def _legal(state: np.ndarray, tables: np.ndarray, boards: Grid | None, out: np.ndarray) -> None:
    for i in range(state.shape[0]):
        out[i] = legal_of(state, i, tables, boards)


@njit_uncounted(cache=True, nogil=True)
def _observe(state: np.ndarray, boards: Grid | None, out: np.ndarray) -> None:
    flat = out.reshape(state.shape[0], out.size // state.shape[0])
    for i in range(state.shape[0]):
        observe_game(state, i, flat[i], boards)


@njit_uncounted(cache=True, nogil=True)
def _afterstates(
    state: np.ndarray,
    tables: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    gains: np.ndarray,
    legal: np.ndarray,
) -> None:
    for i in range(state.shape[0]):
        for d in range(4):
            new_lo, new_hi, gain = move(state[i, STATE_LO], state[i, STATE_HI], d, tables)
            lo[i, d] = new_lo
            hi[i, d] = new_hi
            gains[i, d] = gain
            legal[i, d] = new_lo != state[i, STATE_LO] or new_hi != state[i, STATE_HI]


@njit_uncounted(cache=True, nogil=True)
def _grid_afterstates(boards: Grid, out: np.ndarray, gains: np.ndarray, legal: np.ndarray) -> None:
    for i in range(boards.cells.shape[0]):
        for d in range(4):
            gains[i, d], legal[i, d] = grid.slide_into(
                boards.cells[i], boards.rows, boards.cols, d, out[i, d]
            )


# --- the Python API -------------------------------------------------------------------------


class Afterstates(NamedTuple):
    """Every game slid each way without a spawn: arrays of shape (N, 4), one column per action."""

    lo: np.ndarray
    """uint64: the packed boards, on 4x4 (zero on other sizes: read ``boards``)."""
    hi: np.ndarray
    gains: np.ndarray
    legal: np.ndarray
    """bool: the action changes the board."""
    boards: np.ndarray | None = None
    """On sizes other than 4x4, the boards' exponents: (N, 4, rows, cols) uint8; None on 4x4."""


class Batch:
    """N games stepped together: ``Batch(1024, seed=0).step(actions)``.

    Game ``i`` starts as ``Game(seed + i, size=size)`` (or ``Game(seed[i], size=size)`` for a
    sequence of seeds; fresh random seeds for ``None``). ``size`` is ``(rows, cols)``, ``"5x5"``
    or a :class:`~py2048.engine.size.BoardSize`, each side 3 to 8; 4x4 by default. The array
    properties are views of the live state: copy them to keep a snapshot.
    """

    __slots__ = ("_grid", "legal", "size", "state")

    def __init__(
        self,
        n: int,
        seed: SeedLike = None,
        *,
        size: BoardSize | tuple[int, int] | str | None = None,
    ) -> None:
        n = checked_positive_int("the number of games", n)
        self.size = DEFAULT_SIZE if size is None else parse_size(size)
        """The boards' shape, (rows, cols)."""
        self.state = np.zeros((n, STATE_COLUMNS), dtype=np.uint64)
        """(N, 6) uint64, a game per row: columns STATE_LO, ..., STATE_SCORE of this module."""
        self.legal = np.zeros(n, dtype=np.uint8)
        """(N,) uint8 bitmask of legal actions (bit d set when action d moves), kept current."""
        self._grid = grid_for(self.size, n)
        self.reset(seed)

    @property
    def n(self) -> int:
        return self.state.shape[0]

    @property
    def lo(self) -> np.ndarray:
        """The packed 4x4 boards' low words (see :mod:`py2048.engine.board`)."""
        self._require_packed("lo")
        return self.state[:, STATE_LO]

    @property
    def hi(self) -> np.ndarray:
        """The packed 4x4 boards' high words."""
        self._require_packed("hi")
        return self.state[:, STATE_HI]

    @property
    def cells(self) -> np.ndarray:
        """(N, rows * cols) uint8: the boards' row-major exponents, on sizes other than 4x4
        (4x4 boards are packed in ``lo`` and ``hi``; ``observe()`` reads every size)."""
        if self._grid is None:
            raise ValueError("4x4 boards are packed in batch.lo and batch.hi: use observe()")
        return self._grid.cells

    @property
    def seeds(self) -> np.ndarray:
        return self.state[:, STATE_SEED]

    @property
    def moves(self) -> np.ndarray:
        return self.state[:, STATE_MOVES]

    @property
    def scores(self) -> np.ndarray:
        return self.state[:, STATE_SCORE]

    def reset(
        self,
        seed: SeedLike = None,
        mask: np.ndarray | None = None,
        board: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """Restart the games selected by ``mask`` (all by default) from the given seeds.

        ``seed`` is an int (game ``i`` gets ``seed + i``), a sequence of N seeds, or None (fresh
        random seeds). With ``board`` (rows of tile values, shaped as the batch's size), the
        games start from that board, as ``Game.from_board(board, seed=...)`` does.
        """
        select = np.ones(self.n, dtype=bool) if mask is None else checked_mask(mask, self.n)
        seeds = seeds_for(seed, self.n)
        start = start_for(board, self.size)
        _restart_selected(self.state, select, seeds, start, self._grid)
        _legal(self.state, ROW_TABLES, self._grid, self.legal)

    def step(self, actions: Sequence[int] | np.ndarray, *, autoreset: bool = False) -> StepResult:
        """Play one action in every game (0 up, 1 right, 2 down, 3 left) in one compiled call.

        A direction that does not move changes nothing, as in the game. The result reports the
        final score and largest tile of every game that is over; with ``autoreset`` those games
        then restart at once, each with ``next_seed`` of its seed.
        """
        checked = checked_actions(actions, self.n)
        counts = np.empty((3, self.n), np.int64)
        flags = np.empty((2, self.n), np.bool_)
        _step(
            self.state, checked, autoreset, ROW_TABLES, self._grid, counts, flags, self.legal,
            NO_START,
        )  # fmt: skip
        return StepResult(counts[0], flags[0], flags[1], counts[1], counts[2])

    def observe(self, onehot: bool = False) -> np.ndarray:
        """Exponents as (N, rows, cols) uint8, or one-hot planes as (N, planes, rows, cols)
        uint8 (plane ``e`` marks exponent ``e``; 18 planes on 4x4, one per exponent from 0 to
        the size's largest)."""
        rows, cols = self.size
        if onehot:
            shape: tuple[int, ...] = (self.n, onehot_planes(self.size), rows, cols)
        else:
            shape = (self.n, rows, cols)
        out = np.empty(shape, dtype=np.uint8)
        _observe(self.state, self._grid, out)
        return out

    def max_tiles(self) -> np.ndarray:
        """(N,) int64: each game's largest tile."""
        out = np.empty(self.n, dtype=np.int64)
        _max_tiles(self.state, self._grid, out)
        return out

    def action_masks(self) -> np.ndarray:
        """(N, 4) int8: 1 where the action would move the board."""
        return ((self.legal[:, None] >> np.arange(4, dtype=np.uint8)) & 1).astype(np.int8)

    def afterstates(self) -> Afterstates:
        """Each game slid in each direction without a spawn (the afterstates of TD learning):
        packed in ``lo`` and ``hi`` on 4x4, as exponents in ``boards`` on other sizes."""
        n = self.n
        gains = np.empty((n, 4), np.int64)
        legal = np.empty((n, 4), np.bool_)
        if self._grid is not None:
            rows, cols = self.size
            boards = np.empty((n, 4, rows * cols), np.uint8)
            _grid_afterstates(self._grid, boards, gains, legal)
            zeros = np.zeros((n, 4), np.uint64)
            return Afterstates(zeros, zeros.copy(), gains, legal, boards.reshape(n, 4, rows, cols))
        lo = np.empty((n, 4), np.uint64)
        hi = np.empty((n, 4), np.uint64)
        _afterstates(self.state, ROW_TABLES, lo, hi, gains, legal)
        return Afterstates(lo, hi, gains, legal)

    def _require_packed(self, name: str) -> None:
        if not self.size.classic:
            raise ValueError(
                f"batch.{name}: only 4x4 boards are packed; this batch is {self.size}: "
                "read batch.cells or observe()"
            )
