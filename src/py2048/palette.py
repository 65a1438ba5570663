"""The tiles' colours, one source for both games: the browser's stylesheet and the terminal.

Up to 2048 the colours are the original game's (beige, orange, red, yellow, gold); above 2048
every value has its own colour, which players of the original have long asked for: brown,
purple, blue, teal, crimson, and black with gold figures for 131072. Text on every tile meets the
WCAG AA contrast ratio (4.5:1) in both themes of the page, which keep the tiles' colours and
change only the board around them.

A 256-colour terminal shows only the xterm palette, where several of the original's colours
fall on one entry (2 and 4, or 128 to 1024). Each tile therefore also names the xterm entries
such a terminal shows: every one distinct and readable too. Above 2048 they are the same
colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ColourSystem = Literal["truecolor", "256"]


@dataclass(frozen=True, slots=True)
class TileColours:
    background: str
    """In the browser and in truecolor terminals."""
    text: str
    background_256: str
    """An entry of the xterm 256-colour palette, for terminals that show only those."""
    text_256: str

    def for_system(self, system: ColourSystem) -> tuple[str, str]:
        """(background, text) as a terminal of this colour system should be given them."""
        if system == "256":
            return self.background_256, self.text_256
        return self.background, self.text


_BEIGE_TEXT = "#5b5047"
_DARK_TEXT = "#2a211a"
_DARK_256 = "#1c1c1c"
_LIGHT = "#ffffff"


def _bright(background: str, text: str, background_256: str) -> TileColours:
    return TileColours(background, text, background_256, _DARK_256)


def _deep(background: str, text: str = _LIGHT) -> TileColours:
    return TileColours(background, text, background, text)


TILE_COLOURS: dict[int, TileColours] = {
    2: _bright("#eee4da", _BEIGE_TEXT, "#ffffff"),
    4: _bright("#ede0c8", _BEIGE_TEXT, "#ffffd7"),
    8: _bright("#f2b179", _DARK_TEXT, "#ffaf87"),
    16: _bright("#f59563", _DARK_TEXT, "#ff875f"),
    32: _bright("#f67c5f", _DARK_TEXT, "#ff5f5f"),
    64: _bright("#f65e3b", "#231c16", "#ff5f00"),
    128: _bright("#edcf72", _DARK_TEXT, "#ffff87"),
    256: _bright("#edcc61", _DARK_TEXT, "#ffff5f"),
    512: _bright("#edc850", _DARK_TEXT, "#ffd75f"),
    1024: _bright("#edc53f", _DARK_TEXT, "#ffd700"),
    2048: _bright("#edc22e", _DARK_TEXT, "#ffaf00"),
    4096: _deep("#af5f00"),
    8192: _deep("#5f00af"),
    16384: _deep("#005faf"),
    32768: _deep("#005f5f"),
    65536: _deep("#af005f"),
    131072: _deep("#1c1c1c", "#ffd75f"),
}
"""Every tile the 4x4 board can hold, 2**1 to 2**17."""


def tile_stylesheet() -> str:
    """The browser's CSS for the tiles: each ``.tile-<value>`` sets ``--tile-bg`` and
    ``--tile-fg``, which the site's stylesheet paints (served as /static/css/tiles.css).
    ``.tile-super``, the tiles past 131072 that boards of more than 16 cells can make, takes
    131072's colours."""
    lines = ["/* Made by py2048.palette, the one source of the tiles' colours. */"]
    lines += [
        f".tile-{value} {{ --tile-bg: {c.background}; --tile-fg: {c.text}; }}"
        for value, c in TILE_COLOURS.items()
    ]
    top = TILE_COLOURS[max(TILE_COLOURS)]
    lines.append(f".tile-super {{ --tile-bg: {top.background}; --tile-fg: {top.text}; }}")
    return "\n".join(lines) + "\n"
