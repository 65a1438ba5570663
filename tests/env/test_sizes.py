"""Boards of every size in the environments and the batch API: each plays py2048.Game on its
size, with spaces, observations and pictures shaped to it."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import BoardError, Game, slide
from py2048.batch import TILE_SUM_LIMIT, Batch, next_seed
from py2048.engine.size import SIZES, BoardSize
from py2048.env import ENV_ID, Game2048Env, Game2048VectorEnv
from py2048.env.render import GAP, TILE, TILE_COLOURS, frame_shape, tile_image
from tests.env.boards import seeds
from tests.env.test_vector import assert_same

SOME_SIZES = [BoardSize(3, 3), BoardSize(5, 5), BoardSize(3, 8), BoardSize(7, 4), BoardSize(8, 8)]
sizes = st.sampled_from(SIZES)


def exponents(game: Game) -> np.ndarray:
    return np.array(game.exponents, dtype=np.uint8).reshape(game.size)


@pytest.mark.parametrize("size", SOME_SIZES, ids=str)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"obs_mode": "onehot"}, {"render_mode": "ansi"}, {"render_mode": "rgb_array"}],
)
def test_check_env_passes_on_other_sizes(size: BoardSize, kwargs: dict[str, Any]) -> None:
    env = gym.make(ENV_ID, size=size, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("written", [(5, 5), "5x5", [5, 5], 5, BoardSize(5, 5)])
def test_make_takes_the_size_in_every_form(written: object) -> None:
    env = gym.make(ENV_ID, size=written)
    assert env.unwrapped.size == BoardSize(5, 5)  # type: ignore[attr-defined]
    assert env.observation_space == gym.spaces.Box(0, 26, (5, 5), np.uint8)
    onehot = gym.make(ENV_ID, size=written, obs_mode="onehot")
    assert onehot.observation_space == gym.spaces.Box(0, 1, (27, 5, 5), np.uint8)
    envs = gym.make_vec(ENV_ID, num_envs=3, size=written)
    assert isinstance(envs, Game2048VectorEnv) and envs.size == BoardSize(5, 5)
    assert envs.observation_space.shape == (3, 5, 5)


@pytest.mark.parametrize("size", [(2, 4), (4, 9), "9x9", "big", (4,), 0])
def test_a_size_out_of_range_is_refused_naming_it(size: object) -> None:
    with pytest.raises(ValueError, match=r"^size"):
        gym.make(ENV_ID, size=size)
    with pytest.raises(ValueError, match=r"^size"):
        Game2048VectorEnv(2, size=size)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^size"):
        Batch(2, seed=0, size=size)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(sizes, seeds, st.lists(st.integers(0, 3), max_size=120))
def test_a_seeded_episode_is_the_game_with_that_seed(
    size: BoardSize, seed: int, actions: list[int]
) -> None:
    env = Game2048Env(size=size)
    obs, info = env.reset(seed=seed)
    game = Game(seed, size=size)
    assert np.array_equal(obs, exponents(game)) and obs.dtype == np.uint8
    for action in actions:
        obs, reward, terminated, _, info = env.step(action)
        result = game.step(action)
        assert np.array_equal(obs, exponents(game))
        assert reward == result.gain and info["moved"] == result.moved
        assert info["score"] == game.score and info["max_tile"] == game.max_tile
        legal = [int(d) for d in game.legal_moves()]
        assert info["action_mask"].tolist() == [int(d in legal) for d in range(4)]
        assert terminated == game.over
        if terminated:
            break
    assert env.board == game.board


@pytest.mark.parametrize("size", SOME_SIZES, ids=str)
def test_onehot_planes_mark_each_exponent(size: BoardSize) -> None:
    env = Game2048Env(size=size, obs_mode="onehot")
    plain = Game2048Env(size=size)
    planes, _ = env.reset(seed=3)
    obs, _ = plain.reset(seed=3)
    for action in [0, 1, 2, 3] * 10:
        planes = env.step(action)[0]
        obs = plain.step(action)[0]
    assert planes.shape == (size.max_exponent + 1, *size)
    assert np.array_equal(planes.argmax(axis=0), obs) and (planes.sum(axis=0) == 1).all()


@pytest.mark.parametrize("size", [BoardSize(3, 3), BoardSize(4, 6), BoardSize(8, 3)], ids=str)
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_vector_env_equals_single_envs_on_other_sizes(size: BoardSize, mode: AutoresetMode) -> None:
    n = 5
    ours = Game2048VectorEnv(n, size=size, autoreset_mode=mode, max_episode_steps=60)
    theirs = SyncVectorEnv(
        [lambda: gym.wrappers.TimeLimit(Game2048Env(size=size), 60)] * n, autoreset_mode=mode
    )
    assert ours.observation_space == theirs.observation_space
    assert_same(ours.reset(seed=40), theirs.reset(seed=40), "reset")
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(250):
        actions = rng.integers(0, 4, n)
        expected = theirs.step(actions)
        assert_same(ours.step(actions), expected, f"step {step}")
        done = expected[2] | expected[3]
        ended += int(done.sum())
        if mode == AutoresetMode.DISABLED and done.any():
            reset = {"reset_mask": done}
            assert_same(ours.reset(options=dict(reset)), theirs.reset(options=dict(reset)))
    assert ended >= n


@settings(max_examples=25, deadline=None)
@given(sizes, st.integers(0, 2**40), st.integers(1, 6), st.integers(0, 2**31))
def test_batch_games_are_the_games_with_their_seeds(
    size: BoardSize, seed: int, n: int, action_seed: int
) -> None:
    batch = Batch(n, seed=seed, size=size)
    games = [Game(seed + i, size=size) for i in range(n)]
    rng = np.random.default_rng(action_seed)
    for _ in range(60):
        actions = rng.integers(0, 4, n)
        result = batch.step(actions)
        for i, game in enumerate(games):
            step = game.step(int(actions[i]))
            assert (result.gains[i], result.moved[i], result.over[i]) == (
                step.gain,
                step.moved,
                game.over,
            )
    assert batch.observe().tolist() == [exponents(game).tolist() for game in games]
    if not size.classic:  # 4x4 boards are packed in batch.lo and batch.hi
        assert batch.cells.tolist() == [game.exponents for game in games]
    assert batch.scores.tolist() == [game.score for game in games]
    assert batch.max_tiles().tolist() == [game.max_tile for game in games]
    assert batch.moves.tolist() == [game.moves for game in games]
    masks = [[int(d in game.legal_moves()) for d in range(4)] for game in games]
    assert batch.action_masks().tolist() == masks


@pytest.mark.parametrize("size", SOME_SIZES, ids=str)
def test_batch_afterstates_are_the_slides(size: BoardSize) -> None:
    batch = Batch(3, seed=9, size=size)
    rng = np.random.default_rng(0)
    for _ in range(30):
        batch.step(rng.integers(0, 4, 3))
    after = batch.afterstates()
    assert after.boards is not None and after.boards.shape == (3, 4, *size)
    for i in range(3):
        board = [[(1 << int(e)) if e else 0 for e in row] for row in batch.observe()[i]]
        for d in range(4):
            expected, gain, moved = slide(board, d)
            tiles = [[(1 << int(e)) if e else 0 for e in row] for row in after.boards[i, d]]
            assert (tiles, after.gains[i, d], after.legal[i, d]) == (expected, gain, moved)


def test_batch_autoreset_starts_the_next_game_of_the_series() -> None:
    size = BoardSize(3, 3)
    batch = Batch(1, seed=5, size=size)
    game = Game(5, size=size)
    while True:
        action = int(game.legal_moves()[0])
        game.move(action)
        result = batch.step([action], autoreset=True)
        if result.over[0]:
            break
    assert (result.final_scores[0], result.final_max_tiles[0]) == (game.score, game.max_tile)
    follower = Game(int(next_seed(np.uint64(5))), size=size)
    assert batch.cells[0].tolist() == follower.exponents and batch.moves[0] == 0
    assert batch.seeds[0] == next_seed(np.uint64(5))


def test_packed_words_exist_only_on_4x4() -> None:
    batch = Batch(2, seed=0, size="5x5")
    with pytest.raises(ValueError, match="only 4x4 boards are packed"):
        batch.lo  # noqa: B018
    with pytest.raises(ValueError, match="packed"):
        Batch(2, seed=0).cells  # noqa: B018
    env = Game2048Env(size=(3, 4))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="only 4x4 boards are packed"):
        env.packed  # noqa: B018


BOARD_5X5 = [[0, 0, 2, 0, 0], [0, 4, 4, 0, 0], [0, 0, 0, 0, 8], [0] * 5, [2, 0, 0, 0, 2]]


def test_board_option_plays_like_game_from_board() -> None:
    env = Game2048Env(size=(5, 5))
    obs, _ = env.reset(seed=11, options={"board": BOARD_5X5})
    game = Game.from_board(BOARD_5X5, seed=11)
    for action in [3, 0, 1, 2] * 8:
        obs, reward, _, _, info = env.step(action)
        assert reward == game.step(action).gain
    assert np.array_equal(obs, exponents(game)) and info["score"] == game.score
    batch = Batch(2, seed=11, size=(5, 5))
    batch.reset(seed=11, board=BOARD_5X5)
    assert batch.observe()[0].tolist() == exponents(Game.from_board(BOARD_5X5, seed=11)).tolist()
    envs = Game2048VectorEnv(2, size=(5, 5))
    obs, _ = envs.reset(seed=11, options={"board": BOARD_5X5})
    assert np.array_equal(obs[1], obs[0]) and np.array_equal(
        obs[0], exponents(Game.from_board(BOARD_5X5, seed=12))
    )


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ([[2, 2, 0, 0]] * 4, "board must have 5 rows for a 5x5 board, got 4"),
        ([[2, 2, 0, 0, 0]] * 4 + [[0] * 6], r"board\[4\] must have 5 tiles"),
        ([[3, 2, 0, 0, 0]] + [[0] * 5] * 4, r"board\[0\]\[0\] = 3 is not a tile"),
        ([[2, 0, 0, 0, 0]] + [[0] * 5] * 4, "holds 1 tile"),
    ],
)
def test_a_board_that_does_not_fit_the_size_is_refused_and_changes_nothing(
    board: list[list[int]], message: str
) -> None:
    env = Game2048Env(size=(5, 5))
    env.reset(seed=1)
    envs = Game2048VectorEnv(2, size=(5, 5))
    envs.reset(seed=1)
    batch = Batch(2, seed=1, size=(5, 5))
    before = (env.board, batch.observe())
    with pytest.raises(BoardError, match=message):
        env.reset(seed=2, options={"board": board})
    with pytest.raises(BoardError, match=message):
        envs.reset(seed=2, options={"board": board})
    with pytest.raises(BoardError, match=message):
        batch.reset(seed=2, board=board)
    assert env.board == before[0] and np.array_equal(batch.observe(), before[1])


def test_a_board_too_large_to_score_exactly_is_refused() -> None:
    top = [[2**51, 2**51, 0, 0, 0, 0, 0, 0]] + [[0] * 8] * 7
    assert TILE_SUM_LIMIT == 2**52
    with pytest.raises(BoardError, match=r"less than 2\*\*52"):
        Batch(1, seed=0, size="8x8").reset(seed=0, board=top)
    top[0][1] = 2**50
    env = Game2048Env(size="8x8")
    env.reset(seed=0, options={"board": top})
    assert env.step(1)[1] == 0.0 and env.step(3)[1] == 0.0


@pytest.mark.parametrize("size", SOME_SIZES, ids=str)
def test_pictures_and_text_of_every_size(size: BoardSize) -> None:
    env = Game2048Env(size=size, render_mode="rgb_array")
    env.reset(seed=4)
    picture = env.render()
    assert isinstance(picture, np.ndarray) and picture.shape == frame_shape(*size)
    assert picture.shape[:2] == (size.rows * (TILE + GAP) + GAP, size.cols * (TILE + GAP) + GAP)
    for r, row in enumerate(env.board):
        for c, value in enumerate(row):
            top, left = GAP + r * (TILE + GAP), GAP + c * (TILE + GAP)
            tile = picture[top : top + TILE, left : left + TILE]
            assert np.array_equal(tile, tile_image(value.bit_length() - 1 if value else 0))
    text = Game2048Env(size=size, render_mode="ansi")
    text.reset(seed=4)
    lines = str(text.render()).splitlines()
    assert lines[0] == "score 0" and len(lines) == size.rows + 1
    assert [len(line.split()) for line in lines[1:]] == [size.cols] * size.rows
    frames = Game2048VectorEnv(2, size=size, render_mode="rgb_array")
    frames.reset(seed=4)
    assert np.array_equal(frames.render()[0], picture)  # type: ignore[index]


def test_tiles_past_131072_are_drawn_with_their_whole_value() -> None:
    images = {e: tile_image(e) for e in (17, 18, 43, 44, 65)}
    assert len({image.tobytes() for image in images.values()}) == len(images)
    background = np.array([int(TILE_COLOURS[17][i : i + 2], 16) for i in (1, 3, 5)])
    for image in images.values():
        assert image[1, 1].tolist() == background.tolist()
    # 2**65 has 20 figures: two lines of ten, so the drawing is taller than one line's
    rows_with_ink = (images[65] != images[65][1, 1]).any(axis=(1, 2)).sum()
    assert rows_with_ink > (images[43] != images[43][1, 1]).any(axis=(1, 2)).sum()
