"""Tile colours, one palette for both games: every tile value, readable text, distinct colours,
in the browser and in truecolor and 256-colour terminals."""

from __future__ import annotations

from itertools import combinations

import pytest
from rich.color import Color, ColorSystem
from rich.color_triplet import ColorTriplet

from py2048.palette import TILE_COLOURS, tile_stylesheet
from py2048.tui.palette import BOARD, EMPTY_CELL, colour_system, tile_colours
from py2048.web.frame import STATIC_DIR

AA_CONTRAST = 4.5
SYSTEMS = {"truecolor": ColorSystem.TRUECOLOR, "256": ColorSystem.EIGHT_BIT}


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


def as_shown(hex_colour: str, system: str) -> ColorTriplet:
    """The colour a terminal of this colour system actually shows."""
    return Color.parse(hex_colour).downgrade(SYSTEMS[system]).get_truecolor()


def test_every_tile_from_2_to_131072_has_colours() -> None:
    assert sorted(TILE_COLOURS) == [2**k for k in range(1, 18)]


def test_a_hand_written_contrast_matches_the_wcag_examples() -> None:
    black, white = ColorTriplet(0, 0, 0), ColorTriplet(255, 255, 255)
    assert contrast(black, white) == pytest.approx(21.0)
    assert contrast(ColorTriplet(0x76, 0x76, 0x76), white) == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("value", sorted(TILE_COLOURS))
def test_tile_text_meets_wcag_aa_contrast(value: int, system: str) -> None:
    background, text = tile_colours(value, colour_system(system))
    assert contrast(as_shown(background, system), as_shown(text, system)) >= AA_CONTRAST


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_tile_and_the_board_look_different(system: str) -> None:
    shown = {
        f"tile {value}": as_shown(tile_colours(value, colour_system(system))[0], system)
        for value in TILE_COLOURS
    }
    shown |= {"empty cell": as_shown(EMPTY_CELL, system), "board": as_shown(BOARD, system)}
    same = [(a, b) for (a, ca), (b, cb) in combinations(shown.items(), 2) if ca == cb]
    assert same == []


def test_a_256_colour_terminal_shows_its_colours_exactly() -> None:
    for value in TILE_COLOURS:
        for colour in (BOARD, EMPTY_CELL, *tile_colours(value, "256")):
            assert as_shown(colour, "256") == as_shown(colour, "truecolor"), (value, colour)


def test_above_2048_both_kinds_of_terminal_show_the_browsers_colours() -> None:
    for value, colours in TILE_COLOURS.items():
        if value > 2048:
            assert tile_colours(value, "256") == (colours.background, colours.text)
        assert tile_colours(value, "truecolor") == (colours.background, colours.text)


def test_only_a_truecolor_console_gets_the_truecolor_palette() -> None:
    assert colour_system("truecolor") == "truecolor"
    assert {colour_system(name) for name in ("256", "standard", "windows", None)} == {"256"}


def test_the_browser_takes_its_tile_colours_from_the_palette_alone() -> None:
    css = tile_stylesheet()
    for value, colours in TILE_COLOURS.items():
        rule = f".tile-{value} {{ --tile-bg: {colours.background}; --tile-fg: {colours.text}; }}"
        assert rule in css
    for sheet in (STATIC_DIR / "css").glob("*.css"):
        assert "--tile-bg:" not in sheet.read_text(encoding="utf-8"), f"{sheet.name} sets colours"
