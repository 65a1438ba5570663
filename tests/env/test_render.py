"""Pictures of the board: text for "ansi", pixels for "rgb_array"."""

from __future__ import annotations

import numpy as np
import pytest

from py2048.env import Game2048Env
from py2048.env.render import GAP, SIDE, TILE, TILE_COLOURS, ansi, rgb_array

LADDER = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 65536, 0]]


def colour(hex_colour: str) -> list[int]:
    return [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]


def test_every_tile_has_its_own_colour() -> None:
    assert len(set(TILE_COLOURS)) == len(TILE_COLOURS) == 18


def test_picture_shows_each_tile_in_its_colour_with_its_value_drawn() -> None:
    picture = rgb_array(LADDER)
    assert picture.shape == (SIDE, SIDE, 3) and picture.dtype == np.uint8
    for r in range(4):
        for c in range(4):
            top, left = GAP + r * (TILE + GAP), GAP + c * (TILE + GAP)
            tile = picture[top : top + TILE, left : left + TILE]
            value = LADDER[r][c]
            exponent = value.bit_length() - 1 if value else 0
            assert tile[1, 1].tolist() == colour(TILE_COLOURS[exponent])
            shades = {tuple(p) for p in tile.reshape(-1, 3).tolist()}
            assert len(shades) == (2 if value else 1)


def test_different_boards_give_different_pictures() -> None:
    one = rgb_array([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    other = rgb_array([[4, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert not np.array_equal(one, other)


def test_text_shows_score_and_rows() -> None:
    text = ansi(LADDER, 1234)
    lines = text.splitlines()
    assert lines[0] == "score 1234"
    assert lines[4].split() == ["8192", "16384", "65536", "."]


def test_environment_renders_its_current_board() -> None:
    env = Game2048Env(render_mode="ansi")
    env.reset(seed=0, options={"board": LADDER})
    assert env.render() == ansi(LADDER, 0)
    pictures = Game2048Env(render_mode="rgb_array")
    pictures.reset(seed=0, options={"board": LADDER})
    assert np.array_equal(pictures.render(), rgb_array(LADDER))


def test_render_without_a_render_mode_warns_and_returns_nothing() -> None:
    env = Game2048Env()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None
