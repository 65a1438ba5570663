"""The terminal's colours and arrows: the tiles' colours come from :mod:`py2048.palette`,
shared with the browser.

A truecolor terminal shows the browser's colours; any other gets each tile's xterm 256-colour
entries, every one distinct and readable (a 256-colour terminal would otherwise show several
of the original's colours as one). The board draws its own background, so it reads the same on
light and dark terminals and themes.
"""

from __future__ import annotations

from py2048.palette import TILE_COLOURS, ColourSystem

ARROWS = ("↑", "→", "↓", "←")
"""Each direction's arrow, indexed by :class:`~py2048.engine.Direction` (0 up ... 3 left)."""
EMPTY_CELL = "#949494"
BOARD = "#6c6c6c"


def colour_system(console_system: str | None) -> ColourSystem:
    """The palette for a console's colour system (rich's name for it: "truecolor", "256"...)."""
    return "truecolor" if console_system == "truecolor" else "256"


def tile_colours(value: int, system: ColourSystem) -> tuple[str, str]:
    """(background, text) of the tile ``value`` (not 0) in a terminal of ``system``. Tiles
    above the palette's last (131072, which only boards larger than 4x4 pass) take its colours."""
    colours = TILE_COLOURS.get(value) or TILE_COLOURS[max(TILE_COLOURS)]
    return colours.for_system(system)
