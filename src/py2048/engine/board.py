"""Packed boards, the row tables and the compiled kernels that the game, solver and RL use.

A board is two ``uint64`` words holding each cell's *exponent* ``e`` (the tile ``2**e``,
0 for an empty cell; 1..17 covers 2..131072):

- ``lo``: the low four bits of every exponent, cell ``(r, c)`` at bits ``16*r + 4*c``;
- ``hi``: the fifth bit of every exponent, cell ``(r, c)`` at bit ``4*r + c``.

``hi`` stays zero until a board holds a 65536, so almost every board is the classic 64-bit
nibble board, yet 65536 and 131072 are exact. A row is a 20-bit index: its four nibbles in bits
0-15 and its four fifth bits in bits 16-19. Every move is four lookups in tables of all 2**20
rows, derived once from :func:`slide_line`, which is the rule itself.

Directions are numbered as in :class:`~py2048.engine.direction.Direction`: 0 up, 1 right,
2 down, 3 left. All kernels are numba-compiled (cached on disk, GIL released).

A kernel's annotations say what its values are inside numba (``np.uint64`` words), but at the
boundary numba takes and returns a ``u8`` word as a Python int. A type checker reads a kernel's
call from its annotations, so Python code that passes or keeps ints marks those lines with
``type: ignore[...]  # u8: see board.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from py2048.engine.integers import is_integer
from py2048.engine.rng import draw, spawn_cell_index, spawn_exponent

SIZE = 4
MAX_EXPONENT = 17
MAX_TILE = 1 << MAX_EXPONENT
ROW_COUNT = 1 << 20

LEFT_ROW, RIGHT_ROW, LEFT_GAIN, RIGHT_GAIN, ROW_MOVES = 0, 1, 2, 3, 4
"""Rows of the table array: the row slid left / right, the score gained doing so, and which of
the two changes the row (bit 0: left, bit 1: right)."""

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U4 = np.uint64(4)
_U16 = np.uint64(16)
_NIBBLE = np.uint64(0xF)
_ROW16 = np.uint64(0xFFFF)
_LOW16 = np.uint64(0xFFFF)
_TABLES = "u4[:, ::1]"
_CELL_BITS = np.uint64(0x1111111111111111)


class BoardError(ValueError):
    """A board that cannot occur in 2048: wrong shape, a tile that is not a legal power of two."""


# --- the rule -------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def slide_line(line: np.ndarray, out: np.ndarray, dest: np.ndarray) -> int:
    """Slide one line of four exponents toward index 0; return the score gained.

    Writes the result into ``out`` and, for every input cell holding a tile, the index it ends
    at into ``dest`` (-1 for empty cells); two inputs with the same ``dest`` merged there.
    Tiles pair up starting from index 0, and a tile made by a merge does not merge again in the
    same move, so ``4 4 4 _`` gives ``8 4 _ _`` and ``4 4 4 4`` gives ``8 8 _ _``. 131072 is the
    largest tile a 4x4 board can make, so two of them (which no game reaches, though a board
    given by hand may hold them) do not merge.
    """
    gain = 0
    filled = 0
    can_absorb = False
    for i in range(4):
        out[i] = 0
        dest[i] = -1
    for i in range(4):
        e = line[i]
        if e == 0:
            continue
        if can_absorb and out[filled - 1] == e and e < MAX_EXPONENT:
            out[filled - 1] = e + 1
            gain += 1 << (e + 1)
            dest[i] = filled - 1
            can_absorb = False
        else:
            out[filled] = e
            dest[i] = filled
            filled += 1
            can_absorb = True
    return gain


@njit(cache=True, nogil=True)
def _decode_row(index: int, line: np.ndarray) -> None:
    for c in range(4):
        line[c] = ((index >> (4 * c)) & 0xF) | (((index >> (16 + c)) & 1) << 4)


@njit(cache=True, nogil=True)
def _encode_row(line: np.ndarray) -> int:
    index = 0
    for c in range(4):
        index |= (int(line[c]) & 0xF) << (4 * c)
        index |= ((int(line[c]) >> 4) & 1) << (16 + c)
    return index


@njit(cache=True)
def build_row_tables() -> np.ndarray:
    """All 2**20 rows slid left and right, their gains and moves, as a (5, 2**20) uint32 array."""
    tables = np.zeros((5, ROW_COUNT), dtype=np.uint32)
    line = np.zeros(4, dtype=np.uint8)
    flipped = np.zeros(4, dtype=np.uint8)
    out = np.zeros(4, dtype=np.uint8)
    dest = np.zeros(4, dtype=np.int8)
    for index in range(ROW_COUNT):
        _decode_row(index, line)
        tables[LEFT_GAIN, index] = slide_line(line, out, dest)
        tables[LEFT_ROW, index] = _encode_row(out)
        for c in range(4):
            flipped[c] = line[3 - c]
        tables[RIGHT_GAIN, index] = slide_line(flipped, out, dest)
        for c in range(4):
            flipped[c] = out[3 - c]
        tables[RIGHT_ROW, index] = _encode_row(flipped)
        tables[ROW_MOVES, index] = (tables[LEFT_ROW, index] != index) | (
            (tables[RIGHT_ROW, index] != index) << 1
        )
    return tables


ROW_TABLES: np.ndarray = build_row_tables()
"""The tables every kernel takes as its ``tables`` argument (16 MiB, built at import)."""


# --- kernels on packed boards ---------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def row_index(lo: np.uint64, hi: np.uint64, r: int) -> np.uint64:
    """The 20-bit table index of row ``r`` (0 = top)."""
    return ((lo >> np.uint64(16 * r)) & _ROW16) | (((hi >> np.uint64(4 * r)) & _NIBBLE) << _U16)


@njit(cache=True, nogil=True, inline="always")
def transpose_lo(x: np.uint64) -> np.uint64:
    """Transpose the 4x4 matrix of nibbles (cell (r, c) <-> (c, r))."""
    a1 = x & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = x & np.uint64(0x0000F0F00000F0F0)
    a3 = x & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@njit(cache=True, nogil=True, inline="always")
def transpose_hi(x: np.uint64) -> np.uint64:
    """Transpose the 4x4 matrix of bits (bit 4r+c <-> bit 4c+r)."""
    a = (
        (x & np.uint64(0xA5A5))
        | ((x & np.uint64(0x0A0A)) << np.uint64(3))
        | ((x & np.uint64(0x5050)) >> np.uint64(3))
    )
    return (
        (a & np.uint64(0xCC33))
        | ((a & np.uint64(0x00CC)) << np.uint64(6))
        | ((a & np.uint64(0x3300)) >> np.uint64(6))
    )


@njit(cache=True, nogil=True, inline="always")
def cell_exponent(lo: np.uint64, hi: np.uint64, cell: int) -> int:
    """Exponent at ``cell`` = 4*row + column.

    A signed integer in compiled code too (numba's ``int()`` of a uint64 stays unsigned, and an
    unsigned value mixed with a signed one becomes a float there).
    """
    low = np.int64((lo >> np.uint64(4 * cell)) & _NIBBLE)
    fifth = np.int64((hi >> np.uint64(cell)) & _U1)
    return int(low | (fifth << np.int64(4)))


@njit(cache=True, nogil=True, inline="always")
def occupied_bits(lo: np.uint64, hi: np.uint64) -> np.uint64:
    """Bit ``4 * cell`` is set for every cell holding a tile (no loop over the 16 cells)."""
    nibbles = lo | (lo >> _U1)
    nibbles |= nibbles >> np.uint64(2)
    fifth = hi  # spread bit k of hi to bit 4k
    fifth = (fifth | (fifth << np.uint64(24))) & np.uint64(0x000000FF000000FF)
    fifth = (fifth | (fifth << np.uint64(12))) & np.uint64(0x000F000F000F000F)
    fifth = (fifth | (fifth << np.uint64(6))) & np.uint64(0x0303030303030303)
    fifth = (fifth | (fifth << np.uint64(3))) & _CELL_BITS
    return (nibbles & _CELL_BITS) | fifth


@njit("i8(u8, u8)", cache=True, nogil=True)
def count_empty(lo: np.uint64, hi: np.uint64) -> int:
    """Number of empty cells."""
    occupied = occupied_bits(lo, hi)
    if occupied == _CELL_BITS:
        return 0
    # Multiplying sums the sixteen 0/1 nibbles into the top nibble (at most 15 here: no carry).
    return 16 - int((occupied * _CELL_BITS) >> np.uint64(60))


@njit("i8(u8, u8)", cache=True, nogil=True)
def max_exponent(lo: np.uint64, hi: np.uint64) -> int:
    """Exponent of the largest tile (0 on an empty board)."""
    best = 0
    for cell in range(16):
        e = cell_exponent(lo, hi, cell)
        if e > best:
            best = e
    return best


@njit(cache=True, nogil=True, inline="always")
def _slide_rows(
    lo: np.uint64, hi: np.uint64, tables: np.ndarray, row_table: int, gain_table: int
) -> tuple[np.uint64, np.uint64, int]:
    new_lo = _U0
    new_hi = _U0
    gain = 0
    for r in range(4):
        index = row_index(lo, hi, r)
        result = np.uint64(tables[row_table, index])
        gain += tables[gain_table, index]
        new_lo |= (result & _LOW16) << np.uint64(16 * r)
        new_hi |= (result >> _U16) << np.uint64(4 * r)
    return new_lo, new_hi, gain


@njit(f"Tuple((u8, u8, i8))(u8, u8, i8, {_TABLES})", cache=True, nogil=True)
def move(
    lo: np.uint64, hi: np.uint64, direction: int, tables: np.ndarray
) -> tuple[np.uint64, np.uint64, int]:
    """Slide the board one way, without a spawn: ``(lo, hi, gain)``; unchanged if illegal."""
    if direction == LEFT:
        return _slide_rows(lo, hi, tables, LEFT_ROW, LEFT_GAIN)
    if direction == RIGHT:
        return _slide_rows(lo, hi, tables, RIGHT_ROW, RIGHT_GAIN)
    if direction == UP:
        t_lo, t_hi, gain = _slide_rows(
            transpose_lo(lo), transpose_hi(hi), tables, LEFT_ROW, LEFT_GAIN
        )
    else:
        t_lo, t_hi, gain = _slide_rows(
            transpose_lo(lo), transpose_hi(hi), tables, RIGHT_ROW, RIGHT_GAIN
        )
    return transpose_lo(t_lo), transpose_hi(t_hi), gain


@njit(f"i8(u8, u8, {_TABLES})", cache=True, nogil=True)
def legal_mask(lo: np.uint64, hi: np.uint64, tables: np.ndarray) -> int:
    """Bit ``d`` is set when direction ``d`` changes the board (eight row lookups)."""
    rows = 0
    columns = 0
    t_lo, t_hi = transpose_lo(lo), transpose_hi(hi)
    for r in range(4):
        rows |= tables[ROW_MOVES, row_index(lo, hi, r)]
        columns |= tables[ROW_MOVES, row_index(t_lo, t_hi, r)]
    # Row bits: 1 left, 2 right. Column bits: 1 up (toward row 0), 2 down.
    return int(
        (columns & 1) << UP
        | (rows & 2) >> 1 << RIGHT
        | (columns & 2) >> 1 << DOWN
        | (rows & 1) << LEFT
    )


@njit(f"b1(u8, u8, {_TABLES})", cache=True, nogil=True)
def can_move(lo: np.uint64, hi: np.uint64, tables: np.ndarray) -> bool:
    """True unless the board is full and no two orthogonal neighbours are equal."""
    return count_empty(lo, hi) > 0 or legal_mask(lo, hi, tables) != 0


@njit("Tuple((u8, i8, i8))(u8, u8, u8)", cache=True, nogil=True)
def place(lo: np.uint64, hi: np.uint64, r: np.uint64) -> tuple[np.uint64, int, int]:
    """Spawn a tile as the draw ``r`` says (see :mod:`py2048.engine.rng`).

    Returns ``(lo, cell, exponent)``; a spawned 2 or 4 never touches ``hi``. On a full board
    nothing is placed and ``cell`` is -1.
    """
    empty = ~occupied_bits(lo, hi) & _CELL_BITS
    n = count_empty(lo, hi)
    if n == 0:
        return lo, -1, 0
    for _ in range(int(spawn_cell_index(r, np.uint64(n)))):
        empty &= empty - _U1  # drop the lowest empty cell
    shift: int = trailing_zeros(empty)  # type: ignore[call-arg]  # the stub shows its typing
    return lo | (spawn_exponent(r) << np.uint64(shift)), shift // 4, int(spawn_exponent(r))


@njit(f"Tuple((u8, u8, i8, i8, i8))(u8, u8, i8, u8, i8, {_TABLES})", cache=True, nogil=True)
def play(
    lo: np.uint64,
    hi: np.uint64,
    direction: int,
    key: np.uint64,
    spawn_number: int,
    tables: np.ndarray,
) -> tuple[np.uint64, np.uint64, int, int, int]:
    """One turn: slide, and if the board changed, spawn tile number ``spawn_number``.

    Returns ``(lo, hi, gain, cell, exponent)``; ``cell`` is -1 (and the board unchanged) when the
    direction was not a move.
    """
    new_lo, new_hi, gain = move(lo, hi, direction, tables)
    if new_lo == lo and new_hi == hi:
        return lo, hi, 0, -1, 0
    new_lo, cell, exponent = place(new_lo, new_hi, draw(key, np.uint64(spawn_number)))
    return new_lo, new_hi, gain, cell, exponent


@njit(f"Tuple((u8, u8, i8, i8, i8, b1))(u8, u8, i8, u8, i8, {_TABLES})", cache=True, nogil=True)
def play_checked(
    lo: np.uint64,
    hi: np.uint64,
    direction: int,
    key: np.uint64,
    spawn_number: int,
    tables: np.ndarray,
) -> tuple[np.uint64, np.uint64, int, int, int, bool]:
    """:func:`play`, plus whether the resulting board is over (one call instead of two)."""
    lo, hi, gain, cell, exponent = play(lo, hi, direction, key, spawn_number, tables)
    return lo, hi, gain, cell, exponent, cell >= 0 and not can_move(lo, hi, tables)


@njit("UniTuple(u8, 2)(u8)", cache=True, nogil=True)
def start(key: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The opening board of the game with this key: spawns number 0 and 1 on an empty board."""
    lo, _, _ = place(_U0, _U0, draw(key, _U0))
    lo, _, _ = place(lo, _U0, draw(key, _U1))
    return lo, _U0


# --- conversions between the 4x4 list form and packed boards ------------------------------


_EXPONENT_OF = {1 << e: e for e in range(1, MAX_EXPONENT + 1)} | {0: 0}


def exponents_from_board(board: Sequence[Sequence[int]], name: str = "board") -> list[int]:
    """Validate a 4x4 list of tile values and return the 16 exponents, row-major.

    Raises BoardError naming the offending row and column.
    """
    if isinstance(board, (str, bytes)) or not isinstance(board, Sequence):
        if isinstance(board, np.ndarray) and board.shape == (SIZE, SIZE):
            board = board.tolist()
        else:
            raise BoardError(f"{name} must be a 4x4 list of rows, got {type(board).__name__}")
    if len(board) != SIZE:
        raise BoardError(f"{name} must have 4 rows, got {len(board)}")
    exponents: list[int] = []
    for r, row in enumerate(board):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise BoardError(f"{name}[{r}] must be a list of 4 tiles")
        if len(row) != SIZE:
            raise BoardError(f"{name}[{r}] must have 4 tiles, got {len(row)}")
        for c, value in enumerate(row):
            if not is_integer(value):
                raise BoardError(f"{name}[{r}][{c}] must be an integer tile, got {value!r}")
            exponent = _EXPONENT_OF.get(int(value))
            if exponent is None:
                raise BoardError(
                    f"{name}[{r}][{c}] = {value} is not a tile: tiles are 0 (empty) or a power "
                    f"of two from 2 to {MAX_TILE}"
                )
            exponents.append(exponent)
    return exponents


def pack_exponents(exponents: Sequence[int]) -> tuple[int, int]:
    """16 row-major exponents -> ``(lo, hi)`` as Python ints."""
    lo = hi = 0
    for cell, e in enumerate(exponents):
        lo |= (e & 0xF) << (4 * cell)
        hi |= (e >> 4) << cell
    return lo, hi


def unpack_exponents(lo: int, hi: int) -> list[int]:
    """``(lo, hi)`` -> 16 row-major exponents."""
    lo, hi = int(lo), int(hi)
    return [((lo >> (4 * cell)) & 0xF) | (((hi >> cell) & 1) << 4) for cell in range(16)]


def pack(board: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Validate a 4x4 list of tile values and pack it as ``(lo, hi)``."""
    return pack_exponents(exponents_from_board(board))


def unpack(lo: int, hi: int) -> list[list[int]]:
    """``(lo, hi)`` -> a fresh 4x4 list of tile values, rows top to bottom."""
    tiles = [(1 << e) if e else 0 for e in unpack_exponents(lo, hi)]
    return [tiles[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
