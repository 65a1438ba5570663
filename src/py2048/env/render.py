"""Pictures of a board without pygame: text for ``render_mode="ansi"``, pixels for "rgb_array".

Tiles up to 2048 wear the original game's colours; every larger tile gets a colour of its own.
Each tile shows its value in a small built-in pixel font.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from py2048.engine.board import unpack

TILE = 64
GAP = 8
SIDE = 4 * TILE + 5 * GAP
"""Width and height of an rgb_array frame in pixels."""

BOARD_COLOUR = "#bbada0"
TILE_COLOURS = (
    "#cdc1b4",  # empty cell
    "#eee4da",  # 2
    "#ede0c8",  # 4
    "#f2b179",  # 8
    "#f59563",  # 16
    "#f67c5f",  # 32
    "#f65e3b",  # 64
    "#edcf72",  # 128
    "#edcc61",  # 256
    "#edc850",  # 512
    "#edc53f",  # 1024
    "#edc22e",  # 2048
    "#3c3a32",  # 4096
    "#4a4a8c",  # 8192
    "#2e6f8e",  # 16384
    "#2a8c5f",  # 32768
    "#8c2a5f",  # 65536
    "#8c5a1f",  # 131072
)
DARK_TEXT = "#776e65"
LIGHT_TEXT = "#f9f6f2"

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
        region[pixels] = _rgb(DARK_TEXT if exponent <= 2 else LIGHT_TEXT)
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
