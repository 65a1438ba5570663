"""Pictures of a board without pygame: text for ``render_mode="ansi"``, pixels for "rgb_array".

Tiles wear the colours of :mod:`py2048.palette`, as the browser and the terminal show them: up to
2048 the original game's, and a colour of its own for every larger tile. Each tile shows its value
in a small built-in pixel font.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from py2048.engine.board import MAX_EXPONENT, unpack
from py2048.palette import TILE_COLOURS as PALETTE

TILE = 64
GAP = 8
SIDE = 4 * TILE + 5 * GAP
"""Width and height of an rgb_array frame in pixels."""

BOARD_COLOUR = "#bbada0"
EMPTY_COLOUR = "#cdc1b4"
TILE_COLOURS = (EMPTY_COLOUR, *(PALETTE[1 << e].background for e in range(1, MAX_EXPONENT + 1)))
"""Each exponent's background (0: an empty cell): :mod:`py2048.palette`'s, as both games show."""
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


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)


def _text_pixels(text: str) -> np.ndarray:
    """A boolean bitmap of ``text`` (digits), scaled as large as fits a tile."""
    glyphs = [np.array([int(b) for b in _DIGITS[int(ch)]], dtype=bool).reshape(5, 3) for ch in text]
    spaced = [np.pad(g, ((0, 0), (0, 1))) for g in glyphs[:-1]] + [glyphs[-1]]
    bitmap = np.hstack(spaced)
    scale = max(s for s in (1, 2, 3, 4) if bitmap.shape[1] * s <= TILE - 12)
    return np.kron(bitmap, np.ones((scale, scale), dtype=bool))


@cache
def tile_image(exponent: int) -> np.ndarray:
    """The (64, 64, 3) picture of one tile (exponent 0 is an empty cell)."""
    image = np.empty((TILE, TILE, 3), dtype=np.uint8)
    image[:] = _rgb(TILE_COLOURS[exponent])
    if exponent:
        pixels = _text_pixels(str(1 << exponent))
        top = (TILE - pixels.shape[0]) // 2
        left = (TILE - pixels.shape[1]) // 2
        region = image[top : top + pixels.shape[0], left : left + pixels.shape[1]]
        region[pixels] = _rgb(TEXT_COLOURS[exponent])
    image.flags.writeable = False
    return image


def rgb_array(lo: int, hi: int) -> np.ndarray:
    """The board as a (296, 296, 3) uint8 picture."""
    frame = np.empty((SIDE, SIDE, 3), dtype=np.uint8)
    frame[:] = _rgb(BOARD_COLOUR)
    for r, row in enumerate(unpack(lo, hi)):
        for c, value in enumerate(row):
            top, left = GAP + r * (TILE + GAP), GAP + c * (TILE + GAP)
            frame[top : top + TILE, left : left + TILE] = tile_image(
                value.bit_length() - 1 if value else 0
            )
    return frame


def ansi(lo: int, hi: int, score: int) -> str:
    """The board as text: the score, then four rows with '.' for empty cells."""
    rows = unpack(lo, hi)
    width = max(5, len(str(max(map(max, rows)))) + 1)
    lines = [f"score {score}"]
    lines += ["".join(f"{value or '.':>{width}}" for value in row) for row in rows]
    return "\n".join(lines) + "\n"
