"""A whole game: moves, spawns, score, win and keep going, game over, seeds and replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import Direction, Game, GameError

# A 2048 made on the very last possible move: the merge opens (0, 3), the spawn fills it, and no
# two neighbours are equal whether a 2 or a 4 arrives there.
LAST_MOVE_WIN = [
    [1024, 1024, 8, 16],
    [4, 32, 64, 128],
    [8, 16, 32, 256],
    [16, 32, 64, 512],
]
STUCK = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def tile_count(game: Game) -> int:
    return sum(1 for row in game.board for v in row if v)


def test_a_new_game_has_two_tiles_and_no_score() -> None:
    game = Game(seed=3)
    assert tile_count(game) == 2
    assert (game.score, game.moves, game.won, game.over) == (0, 0, False, False)
    assert game.history == ()


def test_an_unseeded_game_draws_and_reports_a_seed_that_replays_it() -> None:
    game = Game()
    assert isinstance(game.seed, int)
    for direction in "LURDLLUR":
        game.move(direction)
    again = Game.replay(game.seed, game.history)
    assert (again.board, again.score, again.moves) == (game.board, game.score, game.moves)


def test_unseeded_games_differ() -> None:
    assert len({Game().seed for _ in range(20)}) == 20


def test_same_seed_same_moves_same_game() -> None:
    a, b = Game(seed=11), Game(seed=11)
    for direction in "LURDLURDDDLL":
        assert a.move(direction) == b.move(direction)
        assert a.board == b.board


def test_a_direction_that_changes_nothing_does_nothing() -> None:
    game = Game.from_board([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4], seed=1)
    before = (game.board, game.score, game.moves, game.to_json())
    result = game.step("left")
    assert not result.moved and result.spawned is None and result.gain == 0
    assert not game.move(Direction.UP)
    assert (game.board, game.score, game.moves, game.to_json()) == before


def test_a_real_move_spawns_exactly_one_2_or_4_on_an_empty_cell() -> None:
    game = Game.from_board([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=5)
    result = game.step("left")
    assert result.moved and result.gain == 4
    row, col, value = result.spawned
    assert value in (2, 4)
    assert (row, col) != (0, 0)
    expected = [[4, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    expected[row][col] = value
    assert game.board == expected
    assert (game.score, game.moves, game.history) == (4, 1, (Direction.LEFT,))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**53 - 1), st.lists(st.sampled_from(list(Direction)), max_size=200))
def test_score_is_the_sum_of_gains_and_a_tile_appears_each_move(
    seed: int, directions: list[Direction]
) -> None:
    game = Game(seed=seed)
    total = 0
    for direction in directions:
        tiles_before = tile_count(game)
        result = game.step(direction)
        total += result.gain
        if result.moved:
            merges = tiles_before + 1 - tile_count(game)
            assert merges >= 0 and (merges > 0) == (result.gain > 0)
    assert game.score == total
    assert game.moves == len(game.history)


def test_the_first_2048_wins_and_later_ones_report_nothing() -> None:
    board = [[1024, 1024, 0, 0], [1024, 1024, 0, 0], [0] * 4, [0] * 4]
    game = Game.from_board(board, seed=2)
    result = game.step("left")
    assert result.won and game.won and not game.keep_going
    assert game.board[0][0] == 2048 and game.board[1][0] == 2048
    game.keep_playing()
    assert game.keep_going
    second = game.step("up")  # the two 2048s make a 4096: no second win
    assert second.moved and not second.won and game.won


def test_the_game_keeps_accepting_moves_after_a_win() -> None:
    game = Game.from_board([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=2)
    assert game.step("left").won
    assert game.move("right")


def test_keep_going_before_a_win_is_refused() -> None:
    with pytest.raises(GameError, match="only possible after the game is won"):
        Game(seed=1).keep_playing()


def test_a_2048_made_on_the_last_possible_move_is_still_a_win() -> None:
    for seed in range(20):  # 2s and 4s both arrive in the last cell
        game = Game.from_board(LAST_MOVE_WIN, seed=seed)
        result = game.step("left")
        assert result.won and game.won
        assert game.over
        assert game.legal_moves() == []


def test_game_over_exactly_when_full_with_no_equal_neighbours() -> None:
    game = Game.from_board(STUCK, seed=1)
    assert game.over and game.legal_moves() == []
    assert not any(game.move(d) for d in Direction)
    full_with_merge = [row[:] for row in STUCK]
    full_with_merge[3][3] = 4
    game = Game.from_board(full_with_merge, seed=1)
    assert not game.over
    assert game.legal_moves() == list(Direction)  # the 4s meet along the row and the column


def test_a_random_game_ends_over_with_a_consistent_record() -> None:
    game = Game(seed=99)
    order = [Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP]
    while not game.over:
        game.move(next(d for d in order if d in game.legal_moves()))
    assert game.legal_moves() == []
    assert Game.replay(99, game.history).board == game.board
    assert game.moves > 50


def test_legal_moves_are_exactly_the_directions_that_move() -> None:
    board = [[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4]
    game = Game.from_board(board, seed=1)
    assert game.legal_moves() == [Direction.RIGHT, Direction.DOWN]


@pytest.mark.parametrize("seed", [-1, 2**53, "7", 1.5, True, [1]])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        Game(seed=seed)  # type: ignore[arg-type]


def test_replay_skips_directions_that_did_not_move() -> None:
    game = Game(seed=4)
    for direction in "LLLLUUUU":
        game.move(direction)
    assert Game.replay(4, "LLLLUUUU").board == game.board
    assert Game.replay(4, game.history).history == game.history


def test_max_tile_and_big_tiles() -> None:
    board = [[65536, 65536, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    game = Game.from_board(board, seed=1)
    assert game.max_tile == 65536 and game.won
    result = game.step("left")
    assert result.gain == 131072 and game.max_tile == 131072
    assert game.board[0][0] == 131072
    assert Game.from_json(game.to_json()).board == game.board
