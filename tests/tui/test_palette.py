"""Tile colours: every tile value, readable text, distinct in truecolor and 256-colour terminals."""

from __future__ import annotations

from itertools import combinations

import pytest
from rich.color import Color, ColorSystem
from rich.color_triplet import ColorTriplet

from py2048.tui.palette import BOARD, EMPTY_CELL, TILE_COLOURS, tile_css

AA_CONTRAST = 4.5


def relative_luminance(colour: ColorTriplet) -> float:
    """WCAG 2 relative luminance."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: ColorTriplet, b: ColorTriplet) -> float:
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def as_shown(hex_colour: str, system: ColorSystem) -> ColorTriplet:
    """The colour a terminal of this colour system actually shows."""
    return Color.parse(hex_colour).downgrade(system).get_truecolor()


SYSTEMS = [ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT]


def test_every_tile_from_2_to_131072_has_colours() -> None:
    assert sorted(TILE_COLOURS) == [2**k for k in range(1, 18)]


def test_a_hand_written_contrast_matches_the_wcag_examples() -> None:
    black, white = ColorTriplet(0, 0, 0), ColorTriplet(255, 255, 255)
    assert contrast(black, white) == pytest.approx(21.0)
    assert contrast(ColorTriplet(0x76, 0x76, 0x76), white) == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("system", SYSTEMS, ids=["truecolor", "256"])
@pytest.mark.parametrize("value", sorted(TILE_COLOURS))
def test_tile_text_meets_wcag_aa_contrast(value: int, system: ColorSystem) -> None:
    colours = TILE_COLOURS[value]
    ratio = contrast(as_shown(colours.background, system), as_shown(colours.text, system))
    assert ratio >= AA_CONTRAST


@pytest.mark.parametrize("system", SYSTEMS, ids=["truecolor", "256"])
def test_every_tile_and_the_board_look_different(system: ColorSystem) -> None:
    shown = {f"tile {v}": as_shown(c.background, system) for v, c in TILE_COLOURS.items()}
    shown |= {"empty cell": as_shown(EMPTY_CELL, system), "board": as_shown(BOARD, system)}
    same = [(a, b) for (a, ca), (b, cb) in combinations(shown.items(), 2) if ca == cb]
    assert same == []


def test_256_colour_terminals_show_exactly_the_truecolor_palette() -> None:
    for colour in [BOARD, EMPTY_CELL, *(c.background for c in TILE_COLOURS.values())]:
        assert as_shown(colour, ColorSystem.EIGHT_BIT) == as_shown(colour, ColorSystem.TRUECOLOR)


def test_the_stylesheet_styles_every_tile_value() -> None:
    css = tile_css()
    for value, colours in TILE_COLOURS.items():
        assert f"Tile.tile-{value} {{ background: {colours.background};" in css
