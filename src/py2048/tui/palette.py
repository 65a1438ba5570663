"""Tile colours: one per value from 2 to 131072, readable in truecolor and 256-colour terminals.

Every colour is an entry of the xterm 256-colour palette, so a 256-colour terminal shows exactly
what a truecolor one shows. Up to 2048 the hues follow the original game (beige, orange, red,
yellow, gold); above 2048 every value has its own dark colour, which players have long asked for.
Text on every tile meets the WCAG AA contrast ratio (4.5:1). The board draws its own background,
so it reads the same on light and dark terminals and themes.
"""

from __future__ import annotations

from dataclasses import dataclass

DARK_TEXT = "#1c1c1c"
LIGHT_TEXT = "#ffffff"


@dataclass(frozen=True, slots=True)
class TileColours:
    background: str
    text: str


TILE_COLOURS: dict[int, TileColours] = {
    2: TileColours("#ffffff", DARK_TEXT),
    4: TileColours("#ffffd7", DARK_TEXT),
    8: TileColours("#ffaf87", DARK_TEXT),
    16: TileColours("#ff875f", DARK_TEXT),
    32: TileColours("#ff5f5f", DARK_TEXT),
    64: TileColours("#ff5f00", DARK_TEXT),
    128: TileColours("#ffff87", DARK_TEXT),
    256: TileColours("#ffff5f", DARK_TEXT),
    512: TileColours("#ffd75f", DARK_TEXT),
    1024: TileColours("#ffd700", DARK_TEXT),
    2048: TileColours("#ffaf00", DARK_TEXT),
    4096: TileColours("#5f00af", LIGHT_TEXT),
    8192: TileColours("#005faf", LIGHT_TEXT),
    16384: TileColours("#005f5f", LIGHT_TEXT),
    32768: TileColours("#005f00", LIGHT_TEXT),
    65536: TileColours("#870000", LIGHT_TEXT),
    131072: TileColours("#3a3a3a", LIGHT_TEXT),
}
"""Every tile the 4x4 board can hold, 2**1 to 2**17."""

EMPTY_CELL = "#949494"
BOARD = "#6c6c6c"


def tile_css() -> str:
    """Textual CSS giving each tile value its colours (class ``tile-<value>`` on a ``Tile``)."""
    rules = [f"Tile.empty {{ background: {EMPTY_CELL}; }}"]
    rules += [
        f"Tile.tile-{value} {{ background: {c.background}; color: {c.text}; }}"
        for value, c in TILE_COLOURS.items()
    ]
    return "\n".join(rules)
