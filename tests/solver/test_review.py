"""review(): the solver grades every move of a game, the same way every time."""

from __future__ import annotations

import json

import numpy as np
import pytest

from py2048 import Direction, Game
from py2048.engine.board import pack
from py2048.evaluation.registry import NETWORK_EVALUATOR
from py2048.solver import REVIEW_SETTINGS, GameReview, best_move, review
from py2048.solver.grades import TIE, grade_of, grade_values
from py2048.solver.mistakes import strategy_mistake
from py2048.solver.reviewer import (
    DEFAULT_SETTING,
    GRADES,
    STRATEGY_MISTAKES,
    Grader,
    ReviewError,
)

SEED = 5


def solver_game(moves: int, depth: int = 2, seed: int = SEED) -> Game:
    """A game whose every move is the one the review rates best (the review's own search)."""
    grader = Grader(depth)
    game = Game(seed)
    while game.moves < moves and not game.over:
        game.move(grader.best(game))
    return game


@pytest.fixture(scope="module")
def played() -> Game:
    """2600 moves of the review's own best moves: the largest tile, a 4096, first sits in a
    corner at move 2340."""
    return solver_game(2600, REVIEW_SETTINGS[DEFAULT_SETTING].depth)


def test_a_game_of_the_solvers_own_best_moves_is_100_percent_accurate(played: Game) -> None:
    graded = review(played.seed, played.history)
    assert graded.setting.name == DEFAULT_SETTING
    assert len(graded.moves) == played.moves > 1000
    assert graded.accuracy == 100.0
    assert graded.counts == {"best": played.moves} | {grade: 0 for grade in GRADES[1:]}
    assert graded.costliest == ()
    assert all(move.played == move.best and move.loss == 0.0 for move in graded.moves)
    assert (graded.final_board, graded.final_score) == (
        tuple(map(tuple, played.board)),
        played.score,
    )


def test_best_move_at_the_same_depth_is_the_quick_reviews_best() -> None:
    game = Game(SEED)
    while game.moves < 300:  # with the evaluation reviews grade with: the network alone
        hint = best_move(game.board, depth=1, tables=False, evaluator=NETWORK_EVALUATOR)
        game.move(hint.direction)
    graded = review(game.seed, game.history, setting="quick")
    assert graded.accuracy == 100.0 and graded.counts["best"] == 300


def corner_blunder(game: Game) -> tuple[int, Direction]:
    """The first position of ``game`` with a 2048 where a legal move pulls the largest tile out
    of its corner and gives up 20% or more (a smaller tile in the corner is cheaper to lose)."""
    grader = Grader(REVIEW_SETTINGS[DEFAULT_SETTING].depth)
    replayed = Game(game.seed)
    for number, played in enumerate(game.history, 1):
        board = replayed.board
        largest = max(max(row) for row in board)
        corners = [(0, 0), (0, 3), (3, 0), (3, 3)]
        if largest >= 2048 and any(board[r][c] == largest for r, c in corners):
            lo, hi = replayed.packed
            row = grader.values(np.array([lo], np.uint64), np.array([hi], np.uint64))[0]
            best = max(row)
            for direction in replayed.legal_moves():
                after = Game.from_board(board, seed=1)
                after.move(direction)  # the spawn lands elsewhere: the corner stays empty or not
                leaves = not any(after.board[r][c] >= largest for r, c in corners)
                if leaves and (best - row[direction]) / best >= 0.2:
                    return number, direction
        replayed.move(played)
    raise AssertionError("no corner blunder in this game: choose another seed")


def test_a_planted_corner_blunder_is_a_blunder_named_as_the_rule_books_mistake(
    played: Game,
) -> None:
    number, blunder = corner_blunder(played)
    history = "".join(d.letter for d in played.history[: number - 1]) + blunder.letter
    graded = review(played.seed, history)
    move = graded.moves[-1]
    assert (move.number, move.played) == (number, blunder)
    assert move.best != blunder
    assert move.grade == "blunder"
    assert move.relative >= 0.2 and move.loss == pytest.approx(
        move.values[move.best] - move.values[blunder]
    )
    assert move.mistake is STRATEGY_MISTAKES["corner"]
    assert move.mistake.link == "/strategy#directions"
    assert "four directions" in move.mistake.rule
    assert graded.costliest[0] is move
    assert graded.counts["blunder"] == 1 and graded.accuracy < 100.0


def test_a_replayed_game_gets_the_same_review_as_the_original() -> None:
    original = Game(seed=11)
    for letter in "LDLDRDLLDDRDLURDLDDL" * 3:
        original.move(letter)
    replayed = Game.replay(original.seed, original.history)
    first = review(original.seed, original.history)
    assert review(replayed.seed, replayed.history) == first
    letters = "".join(d.letter for d in original.history)
    assert review(original.seed, letters) == first
    assert review(original.seed, Game.from_json(original.to_json()).history) == first


def test_a_practice_game_is_reviewed_as_the_line_finally_played() -> None:
    game = Game.replay(11, "LDLDRDLRDLULDRD", strict=True)
    game.undo(3)
    assert game.move("R") and game.practice
    assert review(game.seed, game.history) == review(11, "LDLDRDLRDLULR")


def test_the_same_game_gets_the_same_review_whatever_was_searched_before() -> None:
    game = solver_game(120)
    first = review(game.seed, game.history)
    best_move(game.board, depth=4, tables=False)  # grows this thread's table for hints
    again = review(game.seed, game.history, progress=lambda done, total: None)
    assert again == first
    assert json.dumps(again.to_dict()) == json.dumps(first.to_dict())


def test_progress_is_reported_and_an_exception_from_it_cancels() -> None:
    game = Game.replay(3, "LDRDLDDLRDLDDLRD" * 4)
    calls: list[tuple[int, int]] = []
    review(game.seed, game.history, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, game.moves) and calls[-1] == (game.moves, game.moves)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)

    class Stop(Exception):
        pass

    def cancel(done: int, total: int) -> None:
        if done:
            raise Stop

    with pytest.raises(Stop):
        review(game.seed, game.history, progress=cancel)


def test_every_move_gets_its_loss_relative_loss_and_grade() -> None:
    game = Game(seed=21)
    order = ["down", "left", "right", "up"]
    while game.moves < 150 and not game.over:  # a weak corner player: many poor moves
        legal = {str(d) for d in game.legal_moves()}
        game.move(next(d for d in order if d in legal))
    graded = review(game.seed, game.history)
    for move in graded.moves:
        best = move.values[move.best]
        assert best == max(move.values.values())
        given_up = best - move.values[move.played]
        tie = given_up <= TIE * max(1.0, abs(best))  # equal within rounding: no loss
        assert move.loss == (0.0 if tie else pytest.approx(given_up))
        assert 0.0 <= move.relative <= 1.0
        assert move.grade == grade_of(move.loss, move.relative)
        assert move.forced == (len(move.values) == 1)
        assert (move.mistake is None) or move.grade in ("inaccuracy", "mistake", "blunder")
        assert Game.from_board([list(r) for r in move.board]).legal_moves() == list(move.values)
    assert sum(graded.counts.values()) == game.moves
    assert graded.counts["inaccuracy"] + graded.counts["mistake"] + graded.counts["blunder"] > 0
    free = [m for m in graded.moves if not m.forced]
    assert graded.accuracy == pytest.approx(sum(m.accuracy for m in free) / len(free))
    losses = sorted((m.loss for m in graded.moves), reverse=True)[:5]
    assert [m.loss for m in graded.costliest] == losses


@pytest.mark.parametrize(
    ("loss", "relative", "grade"),
    [
        (0.0, 0.0, "best"),
        (3.0, 0.0099, "good"),
        (3.0, 0.01, "inaccuracy"),
        (3.0, 0.0499, "inaccuracy"),
        (3.0, 0.05, "mistake"),
        (3.0, 0.1999, "mistake"),
        (3.0, 0.2, "blunder"),
        (3.0, 1.0, "blunder"),
    ],
)
def test_the_documented_thresholds(loss: float, relative: float, grade: str) -> None:
    assert grade_of(loss, relative) == grade


def test_a_hints_moves_are_graded_against_the_best_of_them() -> None:
    values = {"up": 1000.0, "left": 995.0, "right": 960.0, "down": 700.0}
    assert grade_values(values) == {
        "up": "best",
        "left": "good",
        "right": "inaccuracy",
        "down": "blunder",
    }
    assert grade_values({"up": 0.5, "down": 0.45}) == {"up": "best", "down": "mistake"}
    assert grade_values({}) == {}


def mistake_of(board: list[list[int]], played: str, best: str) -> str | None:
    lo, hi = pack(board)
    found = strategy_mistake(lo, hi, Direction.parse(played), Direction.parse(best))
    return None if found is None else found.name


def test_the_rule_books_other_mistakes_are_recognised() -> None:
    # Up lifts the 2 into the gap under the 512, between two 64s and over a 64; right leaves it
    # beside a free cell.
    trapped = [[1024, 512, 256, 128], [64, 0, 64, 4], [32, 2, 32, 8], [0, 64, 0, 0]]
    assert mistake_of(trapped, "up", "right") == "trapped"
    # Right merges the two 4s at once (8 points); down scores nothing and keeps the shape.
    merge = [[0, 0, 0, 0], [0, 4, 4, 0], [16, 32, 0, 128], [2048, 1024, 512, 256]]
    assert mistake_of(merge, "right", "down") == "merge"
    # Two empty cells, no corner given up, nothing trapped, no merge: a hasty move on a full board.
    full = [[2, 8, 2, 0], [16, 4, 32, 0], [64, 128, 8, 2], [1024, 512, 256, 4]]
    assert mistake_of(full, "up", "right") == "full"
    # With room on the board and none of the others, a poor move matches none of them.
    roomy = [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 4, 0], [2, 0, 0, 8]]
    assert mistake_of(roomy, "up", "down") is None


@pytest.mark.parametrize(
    ("seed", "history", "field", "message"),
    [
        (-1, "L", "seed", "seed"),
        (2**53, "L", "seed", "seed"),
        (8, "UXL", "history", "move 2 is 'X', not a move"),
        (8, "L", "history", r"move 1 \(left\) changes nothing"),
        (8, "DL", "history", r"move 2 \(left\) changes nothing"),
    ],
)
def test_a_bad_game_is_refused_naming_the_field_and_the_move(
    seed: int, history: str, field: str, message: str
) -> None:
    with pytest.raises(ReviewError, match=message) as caught:
        review(seed, history)
    assert caught.value.field == field


def test_an_unknown_setting_is_refused() -> None:
    with pytest.raises(ReviewError, match="unknown review setting 'slow'") as caught:
        review(8, "U", setting="slow")
    assert caught.value.field == "setting"


def test_the_review_as_json() -> None:
    game = Game.replay(3, "LDRDLDDLRDLDDLRDUU")
    graded = review(game.seed, game.history)
    data = json.loads(json.dumps(graded.to_dict()))
    assert isinstance(graded, GameReview)
    assert data["setting"] == {"name": "standard", "depth": 2}
    assert (data["seed"], data["history"]) == (3, "".join(d.letter for d in game.history))
    assert data["final_board"] == game.board and data["final_score"] == game.score
    assert data["counts"] == graded.counts
    assert data["costliest"] == [m.number for m in graded.costliest]
    first = data["moves"][0]
    assert first["board"] == Game(3).board and first["score"] == 0
    assert set(first) == {
        "number", "board", "score", "played", "best", "values", "loss", "relative", "grade",
        "forced", "mistake",
    }  # fmt: skip
    assert first["played"] in ("up", "right", "down", "left")
