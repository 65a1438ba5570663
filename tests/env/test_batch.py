"""py2048.batch: N games stepped together play exactly as N py2048.Game."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import BoardError, Game, slide
from py2048.batch import Batch, next_seed
from py2048.engine.board import unpack
from py2048.engine.rng import SEED_LIMIT
from tests.env.boards import BOARDS_BY_LEGAL_MOVES, GAME_OVER, ONE_MOVE_LEFT, seeds

N = 5
action_rows = st.lists(st.lists(st.integers(0, 3), min_size=N, max_size=N), max_size=120)


def packed(batch: Batch, i: int) -> tuple[int, int]:
    return int(batch.lo[i]), int(batch.hi[i])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, SEED_LIMIT - N), action_rows)
def test_each_game_is_the_game_with_its_seed(seed: int, rows: list[list[int]]) -> None:
    batch = Batch(N, seed=seed)
    games = [Game(seed + i) for i in range(N)]
    for row in rows:
        result = batch.step(np.array(row))
        for i, game in enumerate(games):
            step = game.step(row[i])
            assert packed(batch, i) == game.packed
            assert result.gains[i] == step.gain and result.moved[i] == step.moved
            assert result.over[i] == game.over
            assert batch.scores[i] == game.score and batch.moves[i] == game.moves
            assert batch.max_tiles()[i] == game.max_tile
            final = (game.score, game.max_tile) if game.over else (0, 0)
            assert (result.final_scores[i], result.final_max_tiles[i]) == final


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_autoreset_starts_the_next_game_of_the_series(seed: int) -> None:
    batch = Batch(1, seed=seed)
    game = Game(seed)
    while not game.over:
        action = int(game.legal_moves()[0])
        game.move(action)
        result = batch.step(np.array([action]), autoreset=True)
    assert result.over[0]
    assert (result.final_scores[0], result.final_max_tiles[0]) == (game.score, game.max_tile)
    follower = int(next_seed(seed))
    assert batch.seeds[0] == follower and 0 <= follower < SEED_LIMIT
    assert packed(batch, 0) == Game(follower).packed
    assert batch.moves[0] == 0 and batch.scores[0] == 0


def test_without_autoreset_a_finished_game_stays_over() -> None:
    batch = Batch(1, seed=0)
    batch.reset(seed=0, board=GAME_OVER)
    result = batch.step(np.array([0]))
    assert result.over[0] and not result.moved[0]
    assert unpack(*packed(batch, 0)) == GAME_OVER


@pytest.mark.parametrize(("board", "legal"), BOARDS_BY_LEGAL_MOVES)
def test_afterstates_and_masks_follow_the_rules(board: list[list[int]], legal: list[int]) -> None:
    batch = Batch(2, seed=0)
    batch.reset(seed=3, board=board)
    after = batch.afterstates()
    assert batch.action_masks().tolist() == [legal, legal]
    for d in range(4):
        expected, gain, moved = slide(board, d)
        assert unpack(int(after.lo[0, d]), int(after.hi[0, d])) == expected
        assert after.gains[0, d] == gain and after.legal[0, d] == moved == legal[d]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, SEED_LIMIT - N), action_rows)
def test_observations_in_both_encodings(seed: int, rows: list[list[int]]) -> None:
    batch = Batch(N, seed=seed)
    for row in rows:
        batch.step(np.array(row))
    exponents = batch.observe()
    onehot = batch.observe(onehot=True)
    assert exponents.shape == (N, 4, 4) and onehot.shape == (N, 18, 4, 4)
    assert np.array_equal(onehot.argmax(axis=1), exponents)
    assert (onehot.sum(axis=1) == 1).all()
    for i in range(N):
        tiles = [[(1 << int(e)) if e else 0 for e in row] for row in exponents[i]]
        assert unpack(*packed(batch, i)) == tiles


def test_reset_with_a_mask_restarts_only_the_selected_games() -> None:
    batch = Batch(3, seed=10)
    batch.step(np.array([0, 1, 2]))
    kept = [packed(batch, 0), packed(batch, 2)]
    batch.reset(seed=[0, 77, 0], mask=np.array([False, True, False]))
    assert packed(batch, 1) == Game(77).packed
    assert [packed(batch, 0), packed(batch, 2)] == kept


def test_board_reset_plays_like_game_from_board() -> None:
    batch = Batch(2, seed=0)
    batch.reset(seed=[5, 6], board=ONE_MOVE_LEFT)
    batch.step(np.array([0, 0]))
    for i, seed in enumerate((5, 6)):
        game = Game.from_board(ONE_MOVE_LEFT, seed=seed)
        game.move(0)
        assert packed(batch, i) == game.packed


def test_unseeded_batches_get_valid_distinct_seeds() -> None:
    batch = Batch(64)
    assert len(set(batch.seeds.tolist())) == 64
    for i in range(64):
        assert packed(batch, i) == Game(int(batch.seeds[i])).packed


@pytest.mark.parametrize(
    "actions",
    [[0, 1], [0, 1, 2, 4], [0, 1, -1, 0], np.zeros(4, dtype=float), np.zeros((4, 1), dtype=int)],
)
def test_bad_actions_are_refused_and_change_nothing(actions: object) -> None:
    batch = Batch(4, seed=1)
    before = batch.state.copy()
    with pytest.raises(ValueError, match="actions"):
        batch.step(actions)
    assert np.array_equal(batch.state, before)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": -1},
        {"seed": SEED_LIMIT - 1},
        {"seed": [1, 2]},
        {"seed": 0, "mask": np.array([1, 0, 1])},
        {"seed": 0, "board": [[0, 0, 0, 3]] * 4},
    ],
)
def test_bad_reset_arguments_keep_the_games(kwargs: dict) -> None:
    batch = Batch(3, seed=1)
    before = batch.state.copy()
    with pytest.raises(ValueError):
        batch.reset(**kwargs)
    assert np.array_equal(batch.state, before)


@pytest.mark.parametrize("n", [0, -3, 2.0, True])
def test_batch_size_must_be_a_positive_integer(n: object) -> None:
    with pytest.raises(ValueError, match="number of games"):
        Batch(n)


def test_board_errors_are_value_errors_naming_the_cell() -> None:
    with pytest.raises(BoardError, match=r"board\[0\]\[3\]"):
        Batch(1).reset(board=[[0, 0, 0, 3]] * 4)


@pytest.mark.parametrize("tiles", [0, 1])
def test_a_board_with_fewer_than_two_tiles_is_not_a_game(tiles: int) -> None:
    board = [[2] * tiles + [0] * (4 - tiles)] + [[0] * 4] * 3
    with pytest.raises(BoardError, match=f"holds {tiles} tile"):
        Batch(1).reset(board=board)
    with pytest.raises(ValueError, match=f"holds {tiles} tile"):  # as the engine says
        Game.from_board(board)


def test_batch_module_works_without_gymnasium() -> None:
    script = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import numpy as np\n"
        "from py2048.batch import Batch\n"
        "print(Batch(2, seed=0).step(np.array([0, 1])).moved.dtype)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "bool"
