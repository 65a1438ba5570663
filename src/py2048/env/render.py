"""Pictures of a board without pygame: text for ``render_mode="ansi"``, pixels for "rgb_array".

Tiles wear the colours of :mod:`py2048.palette`, as the browser and the terminal show them: up to
2048 the original game's, and a colour of its own for every larger tile up to 131072 (tiles
beyond it, which only boards larger than 4x4 can make, wear 131072's). Each tile shows its value
in a small built-in pixel font. Boards of every size are drawn with the same tiles: a frame is
:func:`frame_shape` pixels, 296 x 296 on 4x4.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from py2048.engine.board import MAX_EXPONENT
from py2048.palette import TILE_COLOURS as PALETTE

TILE = 64
GAP = 8
SIDE = 4 * TILE + 5 * GAP
"""Width and height of a 4x4 rgb_array frame in pixels."""

BOARD_COLOUR = "#bbada0"
EMPTY_COLOUR = "#cdc1b4"
TILE_COLOURS = (EMPTY_COLOUR, *(PALETTE[1 << e].background for e in range(1, MAX_EXPONENT + 1)))
"""Each exponent's background (0: an empty cell) up to 131072: :mod:`py2048.palette`'s."""
TEXT_COLOURS = (EMPTY_COLOUR, *(PALETTE[1 << e].text for e in range(1, MAX_EXPONENT + 1)))
"""Each exponent's figures (an empty cell draws none)."""

_DIGITS = (
    "111101101101111",
    "010110010010111",
    "111001111100111",
    "111001111001111",
    "101101111001001",
    "111100111001111",
    "111100111101111",
    "111001001001001",
    "111101111101111",
    "111101111001111",
)
"""3x5 pixel glyphs of 0-9, row by row."""
_ROOM = TILE - 12
"""The widest line of figures a tile holds, in pixels."""
_LINE = (_ROOM + 1) // 4
"""Figures in a line at the smallest scale (each is 3 pixels and a space)."""


def frame_shape(rows: int, cols: int) -> tuple[int, int, int]:
    """The (height, width, 3) of the rgb_array frame of a board of ``rows`` x ``cols``."""
    return rows * TILE + (rows + 1) * GAP, cols * TILE + (cols + 1) * GAP, 3


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)


def _line_pixels(text: str) -> np.ndarray:
    glyphs = [np.array([int(b) for b in _DIGITS[int(ch)]], dtype=bool).reshape(5, 3) for ch in text]
    spaced = [np.pad(g, ((0, 0), (0, 1))) for g in glyphs[:-1]] + [glyphs[-1]]
    return np.hstack(spaced)


def _text_pixels(text: str) -> np.ndarray:
    """A boolean bitmap of ``text`` (digits), scaled as large as fits a tile; figures too many
    for one line (more than 13, only on tiles past 2**43) are broken into lines of equal width."""
    lines = -(-len(text) // _LINE)
    width = -(-len(text) // lines)
    parts = [_line_pixels(text[k : k + width]) for k in range(0, len(text), width)]
    blank = np.zeros((1, parts[0].shape[1]), dtype=bool)
    stacked = [np.pad(p, ((0, 0), (0, parts[0].shape[1] - p.shape[1]))) for p in parts]
    bitmap = np.vstack([row for p in stacked for row in (p, blank)][:-1])
    scale = max(s for s in (1, 2, 3, 4) if bitmap.shape[1] * s <= _ROOM)
    return np.kron(bitmap, np.ones((scale, scale), dtype=bool))


@cache
def tile_image(exponent: int) -> np.ndarray:
    """The (64, 64, 3) picture of one tile (exponent 0 is an empty cell)."""
    image = np.empty((TILE, TILE, 3), dtype=np.uint8)
    shade = min(exponent, MAX_EXPONENT)
    image[:] = _rgb(TILE_COLOURS[shade])
    if exponent:
        pixels = _text_pixels(str(1 << exponent))
        top = (TILE - pixels.shape[0]) // 2
        left = (TILE - pixels.shape[1]) // 2
        region = image[top : top + pixels.shape[0], left : left + pixels.shape[1]]
        region[pixels] = _rgb(TEXT_COLOURS[shade])
    image.flags.writeable = False
    return image


def rgb_array(board: Sequence[Sequence[int]]) -> np.ndarray:
    """The board (rows of tile values) as a uint8 picture of :func:`frame_shape` pixels."""
    frame = np.empty(frame_shape(len(board), len(board[0])), dtype=np.uint8)
    frame[:] = _rgb(BOARD_COLOUR)
    for r, row in enumerate(board):
        for c, value in enumerate(row):
            top, left = GAP + r * (TILE + GAP), GAP + c * (TILE + GAP)
            frame[top : top + TILE, left : left + TILE] = tile_image(
                value.bit_length() - 1 if value else 0
            )
    return frame


def ansi(board: Sequence[Sequence[int]], score: int) -> str:
    """The board (rows of tile values) as text: the score, then its rows with '.' for empty
    cells."""
    width = max(5, len(str(max(map(max, board)))) + 1)
    lines = [f"score {score}"]
    lines += ["".join(f"{value or '.':>{width}}" for value in row) for row in board]
    return "\n".join(lines) + "\n"
