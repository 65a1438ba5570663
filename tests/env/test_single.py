"""The Gymnasium environment plays exactly py2048.Game, with Gymnasium's contract."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings

from py2048 import BoardError, Game, slide
from py2048.batch import next_seed
from py2048.env import ENV_ID, Game2048Env
from tests.env.boards import (
    BOARDS_BY_LEGAL_MOVES,
    GAME_OVER,
    ONE_MOVE_LEFT,
    action_lists,
    seeds,
)


def exponents(game: Game) -> np.ndarray:
    return np.array(game.exponents, dtype=np.uint8).reshape(4, 4)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"obs_mode": "onehot"},
        {"illegal_action": "terminate", "illegal_penalty": -1.0},
        {"render_mode": "ansi"},
        {"render_mode": "rgb_array"},
    ],
)
def test_check_env_passes_without_warnings(kwargs: dict) -> None:
    env = gym.make(ENV_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_registered_id_makes_the_environment() -> None:
    env = gym.make(ENV_ID)
    assert isinstance(env.unwrapped, Game2048Env)
    with pytest.raises(ResetNeeded):
        env.step(0)
    with pytest.raises(ResetNeeded):
        gym.make(ENV_ID, render_mode="ansi").render()
    assert env.action_space == gym.spaces.Discrete(4)
    assert env.observation_space.shape == (4, 4)
    assert env.observation_space.dtype == np.uint8


@settings(max_examples=60, deadline=None)
@given(seeds, action_lists)
def test_seeded_episode_is_the_game_with_that_seed(seed: int, actions: list[int]) -> None:
    env = Game2048Env()
    obs, info = env.reset(seed=seed)
    game = Game(seed)
    assert np.array_equal(obs, exponents(game))
    assert info["score"] == 0 and info["moved"] is False
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        result = game.step(action)
        assert np.array_equal(obs, exponents(game))
        assert reward == result.gain
        assert info["moved"] == result.moved
        assert info["score"] == game.score
        assert info["max_tile"] == game.max_tile
        assert terminated == game.over
        assert truncated is False
        if terminated:
            break
    assert env.game_seed == seed


@pytest.mark.parametrize(("board", "legal"), BOARDS_BY_LEGAL_MOVES)
def test_action_mask_lists_exactly_the_moves_that_change_the_board(
    board: list[list[int]], legal: list[int]
) -> None:
    env = Game2048Env()
    _, info = env.reset(seed=7, options={"board": board})
    assert info["action_mask"].tolist() == legal
    assert info["action_mask"].dtype == np.int8
    assert [int(slide(board, d)[2]) for d in range(4)] == legal


@settings(max_examples=40, deadline=None)
@given(seeds, action_lists)
def test_action_mask_after_every_step_matches_the_rules(seed: int, actions: list[int]) -> None:
    env = Game2048Env()
    env.reset(seed=seed)
    game = Game(seed)
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        game.move(action)
        assert info["action_mask"].tolist() == [int(slide(game.board, d)[2]) for d in range(4)]
        if terminated:
            assert not info["action_mask"].any()
            break


@pytest.mark.parametrize("penalty", [0.0, -2.5])
def test_illegal_action_changes_nothing_and_spawns_nothing(penalty: float) -> None:
    env = Game2048Env(illegal_penalty=penalty)
    before, _ = env.reset(seed=11, options={"board": ONE_MOVE_LEFT})
    for illegal in (1, 2, 3):
        obs, reward, terminated, truncated, info = env.step(illegal)
        assert np.array_equal(obs, before)
        assert reward == penalty
        assert (terminated, truncated, info["moved"], info["score"]) == (False, False, False, 0)
    obs, reward, *_ = env.step(0)
    game = Game.from_board(ONE_MOVE_LEFT, seed=11)
    game.move(0)
    assert np.array_equal(obs, exponents(game))
    assert reward == 0.0


def test_illegal_action_can_end_the_episode() -> None:
    env = Game2048Env(illegal_action="terminate", illegal_penalty=-1)
    before, _ = env.reset(seed=3, options={"board": ONE_MOVE_LEFT})
    obs, reward, terminated, _, info = env.step(2)
    assert terminated and reward == -1.0 and not info["moved"]
    assert np.array_equal(obs, before)


def test_episode_terminates_exactly_when_no_move_is_left() -> None:
    env = Game2048Env()
    env.reset(seed=2024)
    game = Game(2024)
    terminated = False
    while not terminated:
        action = int(game.legal_moves()[0])
        _, _, terminated, _, info = env.step(action)
        game.move(action)
        assert terminated == game.over == (not info["action_mask"].any())
    assert game.over


def test_game_over_board_terminates_on_any_action() -> None:
    env = Game2048Env()
    _, info = env.reset(seed=0, options={"board": GAME_OVER})
    assert not info["action_mask"].any()
    _, reward, terminated, _, _ = env.step(0)
    assert terminated and reward == 0.0


@settings(max_examples=30, deadline=None)
@given(seeds, action_lists)
def test_onehot_and_exponent_observations_agree(seed: int, actions: list[int]) -> None:
    plain, onehot = Game2048Env(), Game2048Env(obs_mode="onehot")
    observations = [(plain.reset(seed=seed)[0], onehot.reset(seed=seed)[0])]
    for action in actions:
        observations.append((plain.step(action)[0], onehot.step(action)[0]))
    for exponent_obs, onehot_obs in observations:
        assert onehot_obs.shape == (18, 4, 4) and onehot_obs.dtype == np.uint8
        assert (onehot_obs.sum(axis=0) == 1).all()
        assert np.array_equal(onehot_obs.argmax(axis=0), exponent_obs)


def test_unseeded_reset_continues_the_series_of_the_last_seed() -> None:
    env = Game2048Env()
    env.reset(seed=5)
    obs, _ = env.reset()
    follower = int(next_seed(5))
    assert env.game_seed == follower
    assert np.array_equal(obs, exponents(Game(follower)))
    again = Game2048Env()
    again.reset(seed=5)
    assert np.array_equal(again.reset()[0], obs)


def test_first_unseeded_reset_plays_a_valid_random_game() -> None:
    env = Game2048Env()
    obs, _ = env.reset()
    assert np.array_equal(obs, exponents(Game(env.game_seed)))


@settings(max_examples=25, deadline=None)
@given(seeds, action_lists)
def test_board_option_continues_like_game_from_board(seed: int, actions: list[int]) -> None:
    board = [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 4, 0], [0, 0, 0, 0]]
    env = Game2048Env()
    env.reset(seed=seed, options={"board": board})
    game = Game.from_board(board, seed=seed)
    for action in actions:
        obs, _, terminated, _, _ = env.step(action)
        game.move(action)
        assert np.array_equal(obs, exponents(game))
        if terminated:
            break


def test_observations_are_fresh_arrays() -> None:
    env = Game2048Env()
    first, _ = env.reset(seed=1)
    kept = first.copy()
    for action in range(4):
        env.step(action)
    assert np.array_equal(first, kept)


@pytest.mark.parametrize("action", [4, -1, 1.0, "up", None, np.array([0, 1])])
def test_invalid_actions_are_refused_and_change_nothing(action: object) -> None:
    env = Game2048Env()
    env.reset(seed=9)
    before = env.packed
    with pytest.raises(ValueError, match="action must be 0"):
        env.step(action)
    assert env.packed == before


def test_numpy_integer_actions_are_accepted() -> None:
    env = Game2048Env()
    env.reset(seed=9)
    game = Game(9)
    obs, *_ = env.step(np.int64(3))
    game.move(3)
    assert np.array_equal(obs, exponents(game))


def test_step_before_reset_is_refused() -> None:
    with pytest.raises(ResetNeeded):
        Game2048Env().step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"obs_mode": "pixels"}, "obs_mode"),
        ({"illegal_action": "explode"}, "illegal_action"),
        ({"illegal_penalty": "a lot"}, "illegal_penalty"),
        ({"illegal_penalty": float("nan")}, "illegal_penalty"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_options_are_refused_with_the_option_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game2048Env(**kwargs)


@pytest.mark.parametrize(
    ("seed", "options", "error"),
    [
        (-1, None, ValueError),
        (2**53, None, ValueError),
        (1.5, None, ValueError),
        (1, {"board": [[3, 0, 0, 0]] * 4}, BoardError),
        (1, {"board": "full"}, BoardError),
        (1, {"board": [[0] * 4] * 4}, BoardError),  # no game holds fewer than two tiles
        (1, {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3}, BoardError),
        (1, {"colour": "red"}, ValueError),
        (1, ["board"], ValueError),
    ],
)
def test_bad_reset_arguments_keep_the_current_game(
    seed: object, options: object, error: type[Exception]
) -> None:
    env = Game2048Env()
    env.reset(seed=4)
    env.step(0)
    before = (env.packed, env.game_seed)
    with pytest.raises(error):
        env.reset(seed=seed, options=options)
    assert (env.packed, env.game_seed) == before


@pytest.mark.parametrize("action", range(4))
def test_info_action_mask_is_the_callers_own(action: int) -> None:
    """Each call hands out a new mask: changing one changes no other, earlier or later."""
    env = Game2048Env()
    _, reset_info = env.reset(seed=1)
    kept = reset_info["action_mask"].copy()
    step_info = env.step(action)[4]
    assert step_info["action_mask"] is not reset_info["action_mask"]
    assert not np.shares_memory(step_info["action_mask"], reset_info["action_mask"])
    step_info["action_mask"][:] = 7
    assert reset_info["action_mask"].tolist() == kept.tolist()
    assert env.step(action)[4]["action_mask"].max() <= 1


def test_importing_the_env_without_gymnasium_says_what_to_install() -> None:
    script = "import sys; sys.modules['gymnasium'] = None\nimport py2048.env\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode != 0
    assert "pip install 'py2048[rl]'" in done.stderr
