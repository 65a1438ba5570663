"""The vector environment equals Gymnasium's SyncVectorEnv over single environments."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers import TimeLimit
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import Game
from py2048.engine.rng import SEED_LIMIT
from py2048.env import ENV_ID, Game2048Env, Game2048VectorEnv
from tests.env.boards import ONE_MOVE_LEFT

N = 6


def assert_same(ours: Any, theirs: Any, where: str = "result") -> None:
    """Equal values, shapes and dtypes, through dicts and object arrays."""
    if isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), where
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, np.ndarray) and theirs.dtype == object:
        assert ours.dtype == object and ours.shape == theirs.shape, where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), where
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, where
        assert np.array_equal(ours, theirs), where
    else:
        assert ours == theirs, where


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"obs_mode": "onehot", "max_episode_steps": 37},
        {"illegal_action": "terminate", "illegal_penalty": -3.0},
    ],
)
def test_vector_env_equals_single_envs_with_the_same_seeds(
    mode: AutoresetMode, options: dict[str, Any]
) -> None:
    kwargs = {k: v for k, v in options.items() if k != "max_episode_steps"}
    limit = options.get("max_episode_steps")
    ours = Game2048VectorEnv(N, autoreset_mode=mode, max_episode_steps=limit, **kwargs)
    theirs = SyncVectorEnv(
        [
            (lambda: TimeLimit(Game2048Env(**kwargs), limit) if limit else Game2048Env(**kwargs))
            for _ in range(N)
        ],
        autoreset_mode=mode,
    )
    assert ours.metadata["autoreset_mode"] == mode
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert_same(ours.reset(seed=100), theirs.reset(seed=100), "reset")
    rng = np.random.default_rng(0)
    episodes_ended = 0
    for step in range(400):
        actions = rng.integers(0, 4, N)
        expected = theirs.step(actions)
        assert_same(ours.step(actions), expected, f"step {step}")
        done = expected[2] | expected[3]
        episodes_ended += int(done.sum())
        if mode == AutoresetMode.DISABLED and done.any():
            reset = {"reset_mask": done}
            assert_same(ours.reset(options=dict(reset)), theirs.reset(options=dict(reset)))
    assert episodes_ended >= N


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, SEED_LIMIT - N),
    st.lists(st.lists(st.integers(0, 3), min_size=N, max_size=N), max_size=150),
)
def test_any_seed_and_actions_give_what_single_envs_give(seed: int, rows: list[list[int]]) -> None:
    ours = Game2048VectorEnv(N)
    theirs = SyncVectorEnv([Game2048Env] * N)
    assert_same(ours.reset(seed=seed), theirs.reset(seed=seed), "reset")
    for step, row in enumerate(rows):
        actions = np.array(row)
        assert_same(ours.step(actions), theirs.step(actions), f"step {step}")


def test_make_vec_builds_the_compiled_vector_env() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=4, obs_mode="onehot")
    assert isinstance(envs, Game2048VectorEnv)
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (4, 18, 4, 4)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


def test_reset_seed_gives_game_i_the_seed_plus_i() -> None:
    envs = Game2048VectorEnv(3)
    obs, _ = envs.reset(seed=40)
    for i in range(3):
        assert obs[i].ravel().tolist() == Game(40 + i).exponents
    assert envs.game_seeds.tolist() == [40, 41, 42]


def test_reset_with_a_list_of_seeds_and_a_board() -> None:
    envs = Game2048VectorEnv(2)
    obs, info = envs.reset(seed=[8, 9], options={"board": ONE_MOVE_LEFT})
    assert (info["action_mask"] == [1, 0, 0, 0]).all()
    obs, *_ = envs.step(np.zeros(2, dtype=np.int64))
    for i, seed in enumerate((8, 9)):
        game = Game.from_board(ONE_MOVE_LEFT, seed=seed)
        game.move(0)
        assert obs[i].ravel().tolist() == game.exponents


def test_render_gives_one_frame_per_game() -> None:
    frames = Game2048VectorEnv(3, render_mode="rgb_array")
    frames.reset(seed=0)
    pictures = frames.render()
    assert len(pictures) == 3 and all(p.ndim == 3 for p in pictures)
    texts = Game2048VectorEnv(2, render_mode="ansi")
    texts.reset(seed=0)
    assert all(t.startswith("score 0") for t in texts.render())


@pytest.mark.parametrize(
    "actions",
    [
        np.array([0, 1, 2]),
        np.array([0, 1, 2, 4]),
        np.array([0, -1, 2, 3]),
        np.array([0.0, 1.0, 2.0, 3.0]),
        "up",
    ],
)
def test_bad_actions_are_refused_and_change_nothing(actions: object) -> None:
    envs = Game2048VectorEnv(4)
    before, _ = envs.reset(seed=1)
    with pytest.raises(ValueError, match="actions"):
        envs.step(actions)
    obs, *_ = envs.step(np.array([4, 4, 4, 4]) - 4)
    expected = Game2048VectorEnv(4)
    expected.reset(seed=1)
    assert np.array_equal(obs, expected.step(np.zeros(4, dtype=np.int64))[0])
    assert not np.array_equal(before, obs)


def test_disabled_autoreset_requires_resetting_finished_games() -> None:
    envs = Game2048VectorEnv(2, autoreset_mode="Disabled", illegal_action="terminate")
    envs.reset(seed=0, options={"board": ONE_MOVE_LEFT})
    _, _, terminated, _, _ = envs.step(np.array([0, 2]))
    assert terminated.tolist() == [False, True]
    with pytest.raises(ResetNeeded, match=r"games \[1\]"):
        envs.step(np.array([0, 0]))
    envs.reset(options={"reset_mask": np.array([False, True])})
    envs.step(np.array([0, 0]))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2.5}, "num_envs"),
        ({"autoreset_mode": "Sometimes"}, "autoreset_mode"),
        ({"max_episode_steps": 0}, "max_episode_steps"),
        ({"obs_mode": "rgb"}, "obs_mode"),
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game2048VectorEnv(**{"num_envs": 2, **kwargs})


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        ([1, 2, 3], None),
        ([1, -2], None),
        (2**53 - 1, None),
        (0, {"reset_mask": [True, False, True]}),
        (0, {"reset_mask": np.array([1, 0])}),
        (0, {"board": [[1, 2, 3, 4]] * 4}),
    ],
)
def test_bad_reset_arguments_keep_the_games(seed: object, options: object) -> None:
    envs = Game2048VectorEnv(2)
    envs.reset(seed=5)
    before = envs.game_seeds
    with pytest.raises(ValueError):
        envs.reset(seed=seed, options=options)
    assert np.array_equal(envs.game_seeds, before)


def test_step_before_reset_is_refused() -> None:
    with pytest.raises(ResetNeeded):
        Game2048VectorEnv(2).step(np.zeros(2, dtype=np.int64))
