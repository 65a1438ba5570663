"""The rules on a board of any size (3 to 8 rows and columns), compiled.

A board here is a 1-D ``uint8`` array of its cells' exponents, row-major (cell
``cols * row + col``; 0 empty, ``e`` the tile ``2 ** e``), with its ``rows`` and ``cols`` passed
beside it. The kernels follow the rule exactly as :func:`py2048.engine.board.slide_line` states
it for 4x4 (tiles pair up from the edge pushed toward, a merged tile does not merge again in the
same move, and two tiles of the size's largest exponent do not merge), and spawn exactly as
:mod:`py2048.engine.rng` says (the draw picks among the empty cells counted row by row), so on
4x4 they play the same games as the packed kernels; the tests hold them to that.

Directions are numbered as :class:`~py2048.engine.direction.Direction`: 0 up, 1 right, 2 down,
3 left. Scores are exact Python ints: a kernel's gain is an ``int64``, and a move whose merges
make a tile of ``2 ** 62`` or more (possible only on boards of 61 cells or more, and only on a
board set up by hand) reports -1 so that :func:`gain_of` adds it up in Python.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from py2048.engine.board import BoardError
from py2048.engine.integers import is_integer
from py2048.engine.rng import draw, spawn_cell_index, spawn_exponent
from py2048.engine.size import MAX_SIDE, MIN_SIDE, BoardSize, parse_size

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
BIG_EXPONENT = 62
"""Merges making a tile of ``2 ** BIG_EXPONENT`` or more are added up in Python (see above)."""


@njit(cache=True, nogil=True, inline="always")
def _line(direction: int, index: int, rows: int, cols: int) -> tuple[int, int, int]:
    """Line ``index`` of a move: ``(first cell, step, length)``, from the edge pushed toward."""
    if direction == LEFT:
        return index * cols, 1, cols
    if direction == RIGHT:
        return index * cols + cols - 1, -1, cols
    if direction == UP:
        return index, cols, rows
    return (rows - 1) * cols + index, -cols, rows


_CELLS = "u1[::1]"


@njit(f"Tuple((i8, b1))({_CELLS}, i8, i8, i8, {_CELLS})", cache=True, nogil=True)
def slide_into(
    cells: np.ndarray, rows: int, cols: int, direction: int, out: np.ndarray
) -> tuple[int, bool]:
    """Slide ``cells`` one way into ``out`` (no spawn): ``(gain, moved)``.

    ``gain`` is -1 when a merge makes a tile of ``2 ** BIG_EXPONENT`` or more (see the module).
    """
    cap = rows * cols + 1
    lines = rows if direction in (LEFT, RIGHT) else cols
    gain = 0
    big = False
    moved = False
    for index in range(lines):
        first, step, length = _line(direction, index, rows, cols)
        filled = 0
        can_absorb = False
        for k in range(length):
            out[first + k * step] = 0
        for k in range(length):
            e = cells[first + k * step]
            if e == 0:
                continue
            target = first + (filled - 1) * step
            if can_absorb and out[target] == e and e < cap:
                out[target] = e + 1
                if e + 1 >= BIG_EXPONENT:
                    big = True
                else:
                    gain += 1 << (e + 1)
                can_absorb = False
                moved = True
            else:
                target = first + filled * step
                out[target] = e
                if filled != k:
                    moved = True
                filled += 1
                can_absorb = True
    return (-1 if big else gain), moved


@njit(f"i8({_CELLS}, i8, i8)", cache=True, nogil=True)
def legal_mask(cells: np.ndarray, rows: int, cols: int) -> int:
    """Bit ``d`` is set when direction ``d`` changes the board."""
    cap = rows * cols + 1
    mask = 0
    for direction in range(4):
        lines = rows if direction in (LEFT, RIGHT) else cols
        for index in range(lines):
            first, step, length = _line(direction, index, rows, cols)
            gap = False
            previous = 0
            for k in range(length):
                e = cells[first + k * step]
                if e == 0:
                    gap = True
                    previous = 0
                    continue
                if gap or (e == previous and e < cap):
                    mask |= 1 << direction
                    break
                previous = e
            if mask >> direction & 1:
                break
    return mask


@njit(f"b1({_CELLS}, i8, i8)", cache=True, nogil=True)
def can_move(cells: np.ndarray, rows: int, cols: int) -> bool:
    """True unless the board is full and no two orthogonal neighbours can merge."""
    cap = rows * cols + 1
    for cell in range(rows * cols):
        e = cells[cell]
        if e == 0:
            return True
        if e < cap:
            if cell % cols + 1 < cols and cells[cell + 1] == e:
                return True
            if cell + cols < rows * cols and cells[cell + cols] == e:
                return True
    return False


@njit(f"i8({_CELLS})", cache=True, nogil=True)
def count_empty(cells: np.ndarray) -> int:
    n = 0
    for cell in range(cells.size):
        if cells[cell] == 0:
            n += 1
    return n


@njit(f"UniTuple(i8, 2)({_CELLS}, u8)", cache=True, nogil=True)
def place(cells: np.ndarray, r: np.uint64) -> tuple[int, int]:
    """Spawn the tile the draw ``r`` says, in place: ``(cell, exponent)``; -1 on a full board."""
    n = count_empty(cells)
    if n == 0:
        return -1, 0
    skip = int(spawn_cell_index(r, np.uint64(n)))
    exponent = int(spawn_exponent(r))
    for cell in range(cells.size):
        if cells[cell] == 0:
            if skip == 0:
                cells[cell] = exponent
                return cell, exponent
            skip -= 1
    return -1, 0  # not reached: n empty cells were counted


@njit(f"Tuple((i8, i8, i8, b1))({_CELLS}, i8, i8, i8, u8, i8, {_CELLS})", cache=True, nogil=True)
def play_into(
    cells: np.ndarray,
    rows: int,
    cols: int,
    direction: int,
    key: np.uint64,
    spawn_number: int,
    out: np.ndarray,
) -> tuple[int, int, int, bool]:
    """One turn into ``out``: slide, and if the board changed, spawn tile ``spawn_number``.

    Returns ``(gain, cell, exponent, over)``; ``cell`` is -1 (and ``out`` is not the next
    board) when the direction was not a move. ``over`` says the new board has no move left.
    """
    gain, moved = slide_into(cells, rows, cols, direction, out)
    if not moved:
        return 0, -1, 0, False
    cell, exponent = place(out, draw(key, np.uint64(spawn_number)))
    return gain, cell, exponent, not can_move(out, rows, cols)


@njit(f"void(u8, {_CELLS})", cache=True, nogil=True)
def start_into(key: np.uint64, cells: np.ndarray) -> None:
    """The opening board of the game with this key: spawns number 0 and 1 on an empty board."""
    cells[:] = 0
    place(cells, draw(key, np.uint64(0)))
    place(cells, draw(key, np.uint64(1)))


# --- Python helpers -----------------------------------------------------------------------


def gain_of(cells: Sequence[int], size: BoardSize, direction: int) -> int:
    """The exact score of sliding ``cells`` one way, added up in Python (any tile size)."""
    rows, cols = size
    cap = size.max_exponent
    gain = 0
    for index in range(rows if direction in (LEFT, RIGHT) else cols):
        first, step, length = _line.py_func(direction, index, rows, cols)
        tiles = [cells[first + k * step] for k in range(length)]
        tiles = [e for e in tiles if e]
        i = 0
        while i < len(tiles):
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < cap:
                gain += 1 << (tiles[i] + 1)
                i += 2
            else:
                i += 1
    return gain


def new_cells(size: BoardSize) -> np.ndarray:
    return np.zeros(size.cells, dtype=np.uint8)


def read_board(
    board: object, name: str = "board", size: BoardSize | None = None
) -> tuple[BoardSize, list[int]]:
    """Validate a list of rows of tile values; return its size and row-major exponents.

    Without ``size`` the board's own shape is its size (3 to 8 rows of 3 to 8 tiles, every row
    as long as the first); with it, the board must have that shape. Tiles are 0 (empty) or
    powers of two from 2 to the size's largest tile. Raises BoardError naming the offending
    row and column.
    """
    if isinstance(board, np.ndarray) and board.ndim == 2:
        board = board.tolist()
    if isinstance(board, (str, bytes)) or not isinstance(board, Sequence):
        raise BoardError(f"{name} must be a list of rows of tiles, got {type(board).__name__}")
    if size is None:
        if not MIN_SIDE <= len(board) <= MAX_SIDE:
            raise BoardError(f"{name} must have {MIN_SIDE} to {MAX_SIDE} rows, got {len(board)}")
    elif len(board) != size.rows:
        raise BoardError(f"{name} must have {size.rows} rows for a {size} board, got {len(board)}")
    exponents: list[int] = []
    for r, row in enumerate(board):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise BoardError(f"{name}[{r}] must be a list of tiles")
        if size is None:
            if not MIN_SIDE <= len(row) <= MAX_SIDE:
                raise BoardError(
                    f"{name}[{r}] must have {MIN_SIDE} to {MAX_SIDE} tiles, got {len(row)}"
                )
            size = parse_size((len(board), len(row)), name)
        elif len(row) != size.cols:
            raise BoardError(
                f"{name}[{r}] must have {size.cols} tiles for a {size} board, got {len(row)}"
            )
        for c, value in enumerate(row):
            if not is_integer(value):
                raise BoardError(f"{name}[{r}][{c}] must be an integer tile, got {value!r}")
            exponent = exponent_of(int(value), size)
            if exponent is None:
                raise BoardError(
                    f"{name}[{r}][{c}] = {value} is not a tile: tiles are 0 (empty) or a power "
                    f"of two from 2 to {size.max_tile} on a {size} board"
                )
            exponents.append(exponent)
    if size is None:  # no rows at all: caught above unless MIN_SIDE were 0
        raise BoardError(f"{name} has no rows")
    return size, exponents


def exponent_of(value: int, size: BoardSize) -> int | None:
    """The exponent of tile ``value`` on ``size`` (0 for empty), or None if it is no tile."""
    if value == 0:
        return 0
    if value < 2 or value & (value - 1):
        return None
    exponent = value.bit_length() - 1
    return exponent if exponent <= size.max_exponent else None


def tiles(exponents: Sequence[int], size: BoardSize) -> list[list[int]]:
    """Row-major exponents -> a fresh list of rows of tile values."""
    values = [(1 << int(e)) if e else 0 for e in exponents]
    return [values[r * size.cols : (r + 1) * size.cols] for r in range(size.rows)]
