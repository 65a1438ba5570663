"""Hints, autoplay, review and bench on boards other than 4x4, and perfect play on 3x3."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from py2048 import Direction, Game
from py2048.engine import grid
from py2048.engine.size import BoardSize
from py2048.solver import best_move, review
from py2048.solver.autoplay import autoplay
from py2048.solver.bench import BenchSettings, bench_report, run_bench, tables_line
from py2048.solver.hint import resolve_plan
from py2048.solver.mistakes import grid_strategy_mistake, strategy_mistake
from py2048.solver.perfect import use_table
from py2048.solver.reviewer import GRADES, ReviewError, heuristic_scale
from py2048.solver.stats import MILESTONES, milestones_for, summarize

SIZES = [BoardSize(3, 3), BoardSize(5, 5), BoardSize(3, 5)]


@pytest.fixture(autouse=True)
def no_perfect_table() -> Iterator[None]:
    """The search answers on 3x3 unless a test installs a table (a built one is not used)."""
    use_table(BoardSize(3, 3), _NoTable())
    yield
    use_table(BoardSize(3, 3), None)


class _NoTable:
    """A table that holds no position: the search answers instead."""

    def move_values(self, exponents: Sequence[int]) -> list[float | None]:
        raise KeyError("not held")


class _FakeTable:
    """A stand-in for the 3x3 perfect-play table: every legal move is worth 1000 less the
    move's number in Direction order, so the first legal direction is the best."""

    def __init__(self) -> None:
        self.asked: list[list[int]] = []

    def move_values(self, exponents: Sequence[int]) -> list[float | None]:
        self.asked.append(list(exponents))
        mask = grid.legal_mask(np.array(exponents, dtype=np.uint8), 3, 3)
        return [1000.0 - d if mask >> d & 1 else None for d in range(4)]


def _played(size: BoardSize, moves: int, seed: int = 3) -> Game:
    game = Game(seed, size=size)
    while game.moves < moves and not game.over:
        hint = best_move(game.board, depth=1)
        assert hint.direction is not None
        game.move(hint.direction)
    return game


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_a_hint_advises_a_legal_move_on_every_size(size: BoardSize) -> None:
    game = _played(size, 20)
    for limits in ({"depth": 2}, {"preset": "fast"}, {"time_ms": 10}):
        hint = best_move(game.board, **limits)  # type: ignore[arg-type]
        assert hint.source == "search" and hint.evaluator == "heuristic"
        assert set(hint.values) == set(game.legal_moves())
        assert hint.direction == max(hint.values, key=hint.values.__getitem__)


@pytest.mark.parametrize(
    ("size", "cap"), [(BoardSize(3, 3), None), (BoardSize(5, 5), 150), (BoardSize(3, 5), None)]
)
def test_autoplay_is_the_game_played_with_best_move(size: BoardSize, cap: int | None) -> None:
    record = autoplay(17, resolve_plan(depth=1), size=size, max_moves=cap, tables=False)
    game = Game(17, size=size)
    while not game.over and (cap is None or game.moves < cap):
        direction = best_move(game.board, depth=1).direction
        assert direction is not None
        game.move(direction)
    assert (record.score, record.moves, record.max_tile) == (
        game.score,
        game.moves,
        game.max_tile,
    )
    assert record.capped == (cap is not None and not game.over)
    assert record.table_moves == 0 and record.nodes > 0


def test_autoplay_can_start_from_a_board() -> None:
    board = [[0, 0, 2], [0, 4, 0], [8, 0, 0]]
    record = autoplay(5, resolve_plan(depth=1), size=(3, 3), board=board, tables=False)
    game = Game.from_board(board, seed=5)
    while not game.over:
        direction = best_move(game.board, depth=1).direction
        assert direction is not None
        game.move(direction)
    assert (record.score, record.moves) == (game.score - 0, game.moves)


def test_autoplay_refuses_what_does_not_apply_off_4x4() -> None:
    with pytest.raises(ValueError, match="4x4 games"):
        autoplay(1, resolve_plan(depth=1), size="5x5", rng="c-rand")
    with pytest.raises(ValueError, match="4x4 boards only"):
        autoplay(1, resolve_plan(depth=1), size="5x5", evaluator="ntuple")
    with pytest.raises(ValueError, match="max_moves"):
        autoplay(1, resolve_plan(depth=1), size="5x5", max_moves=0)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_a_review_grades_every_move_on_every_size(size: BoardSize) -> None:
    game = _played(size, 40)
    graded = review(game.seed, game.history, setting="quick", size=size)
    assert graded.size == size and graded.graded_by == "heuristic"
    assert len(graded.moves) == game.moves and graded.final_score == game.score
    assert sum(graded.counts.values()) == game.moves
    assert graded.final_board == tuple(tuple(row) for row in game.board)
    for move in graded.moves:
        assert len(move.board) == size.rows and all(len(r) == size.cols for r in move.board)
        assert move.played in move.values and move.grade in GRADES
    # the game was played by the same search at the same depth: every move is the best
    assert graded.counts["best"] == game.moves and graded.accuracy == 100.0
    document = graded.to_dict()
    assert document["size"] == [size.rows, size.cols] and document["graded_by"] == "heuristic"
    json.dumps(document)


def test_a_review_grades_a_heuristic_loss_against_the_whole_board() -> None:
    size = BoardSize(5, 5)
    game = Game(9, size=size)
    for _ in range(30):
        game.move(game.legal_moves()[-1])  # the last legal direction in action order
    graded = review(game.seed, game.history, setting="quick", size=size)
    costly = graded.costliest[0]
    assert costly.loss > 0
    assert costly.relative == pytest.approx(min(1.0, costly.loss / heuristic_scale(size)))
    assert heuristic_scale(size) == 2 * 1000.0 * 25


def test_a_review_names_a_bad_size_or_move() -> None:
    with pytest.raises(ReviewError) as caught:
        review(1, "L", size="9x9")
    assert caught.value.field == "size"
    seed = next(s for s in range(100) if len(Game(s, size="3x3").legal_moves()) < 4)
    blocked = next(d for d in Direction if d not in Game(seed, size="3x3").legal_moves())
    with pytest.raises(ReviewError) as caught:
        review(seed, blocked.letter, size="3x3")
    assert caught.value.field == "history"


def test_the_perfect_table_answers_hints_and_reviews_on_3x3() -> None:
    table = _FakeTable()
    use_table(BoardSize(3, 3), table)
    game = Game(4, size="3x3")
    hint = best_move(game.board)
    legal = game.legal_moves()
    assert (hint.source, hint.evaluator, hint.depth, hint.nodes) == ("perfect", "perfect", 0, 0)
    assert hint.direction == min(legal) and set(hint.values) == set(legal)
    assert table.asked == [game.exponents]
    # tables=False asks the search
    assert best_move(game.board, depth=1, tables=False).source == "search"
    for _ in range(10):
        game.move(game.legal_moves()[-1])
    graded = review(game.seed, game.history, size="3x3")
    assert graded.graded_by == "perfect" and graded.to_dict()["graded_by"] == "perfect"
    for move in graded.moves:
        assert move.best == min(move.values)
        assert move.loss == pytest.approx(move.values[move.best] - move.values[move.played])
        assert move.relative == pytest.approx(move.loss / move.values[move.best])


@pytest.mark.parametrize("cap", [None, 7])
def test_autoplay_on_3x3_plays_the_perfect_table(cap: int | None) -> None:
    use_table(BoardSize(3, 3), _FakeTable())
    record = autoplay(21, resolve_plan(depth=1), size="3x3", max_moves=cap)
    game = Game(21, size="3x3")
    while not game.over and (cap is None or game.moves < cap):
        game.move(min(game.legal_moves()))  # the stand-in table's best move
    assert (record.score, record.moves, record.max_tile) == (
        game.score,
        game.moves,
        game.max_tile,
    )
    assert record.table_moves == record.moves and record.nodes == 0
    assert record.capped == (cap is not None)


def test_autoplay_searches_where_the_table_holds_nothing() -> None:
    # the autouse _NoTable: every position is searched, as best_move does
    searched = autoplay(21, resolve_plan(depth=1), size="3x3")
    compiled = autoplay(21, resolve_plan(depth=1), size="3x3", tables=False)
    assert (searched.score, searched.moves, searched.nodes) == (
        compiled.score,
        compiled.moves,
        compiled.nodes,
    )
    assert searched.table_moves == 0


def test_a_3x3_bench_names_the_perfect_table() -> None:
    use_table(BoardSize(3, 3), _FakeTable())
    settings = BenchSettings(games=1, seed=3, depth=1, workers=1, size=BoardSize(3, 3))
    assert settings.uses_tables
    assert tables_line(settings).startswith("tables: perfect play on 3x3")
    records = run_bench(settings.checked())
    document = bench_report(settings, records, summarize(records, 1.0, BoardSize(3, 3)))
    assert document["settings"]["tables"] == ["perfect-3x3"]
    assert records[0].table_moves == records[0].moves
    assert not BenchSettings(size=BoardSize(3, 3), tables=False).uses_tables


def test_a_position_the_table_does_not_hold_is_searched() -> None:
    board = [[2, 0, 0], [0, 0, 0], [0, 0, 4]]
    assert best_move(board, depth=1).source == "search"  # the autouse _NoTable


def test_the_general_mistakes_are_the_4x4_ones_on_4x4() -> None:
    from py2048.engine.board import pack_exponents

    generator = np.random.default_rng(7)
    for _ in range(300):
        exponents = [int(e) for e in generator.integers(0, 8, 16)]
        cells = np.array(exponents, dtype=np.uint8)
        legal = [d for d in Direction if grid.legal_mask(cells, 4, 4) >> d & 1]
        if len(legal) < 2:
            continue
        played, best = legal[0], legal[-1]
        lo, hi = pack_exponents(exponents)
        assert grid_strategy_mistake(exponents, BoardSize(4, 4), played, best) == (
            strategy_mistake(lo, hi, played, best)
        )


def test_mistakes_use_the_corners_of_the_size() -> None:
    size = BoardSize(3, 5)
    # the 64 sits in the top-right corner (cell 4); left takes it out, up keeps it there
    board = [[0, 0, 0, 2, 64], [0, 0, 4, 0, 0], [0, 0, 0, 0, 0]]
    _, exponents = grid.read_board(board)
    mistake = grid_strategy_mistake(exponents, size, Direction.LEFT, Direction.UP)
    assert mistake is not None and mistake.name == "corner"


def test_milestones_follow_the_size() -> None:
    assert milestones_for(BoardSize(4, 4)) == MILESTONES
    assert milestones_for(BoardSize(3, 3)) == (128, 256, 512, 1024)
    assert milestones_for(BoardSize(3, 4)) == (1024, 2048, 4096, 8192)
    assert milestones_for(BoardSize(5, 5))[0] == 2048
    assert milestones_for(BoardSize(5, 5))[-1] == 2**18
    assert milestones_for(BoardSize(8, 8), best=2**20)[-1] == 2**20


def test_bench_plays_any_size_and_says_so(tmp_path: Path) -> None:
    settings = BenchSettings(
        games=2, seed=11, depth=0, workers=1, size=BoardSize(5, 5), max_moves=50
    ).checked()
    records = run_bench(settings)
    assert [r.moves for r in records] == [50, 50] and all(r.capped for r in records)
    summary = summarize(records, 1.0, settings.board_size)
    assert summary.capped == 2
    document = bench_report(settings, records, summary)
    assert document["settings"]["size"] == "5x5"
    assert document["settings"]["max_moves"] == 50
    assert document["settings"]["evaluator"] == "heuristic"
    assert document["settings"]["tables"] == [] and document["settings"]["network"] is None
    assert document["games"][0]["capped"] is True
    assert next(rate["tile"] for rate in document["summary"]["rates"]) == 2048


def test_bench_refuses_c_rand_and_other_evaluations_off_4x4() -> None:
    with pytest.raises(ValueError, match="c-rand"):
        BenchSettings(size=BoardSize(3, 3), rng="c-rand", depth=1).checked()
    with pytest.raises(ValueError, match="4x4 boards only"):
        BenchSettings(size=BoardSize(3, 3), evaluator="ntuple", depth=1).checked()
    with pytest.raises(ValueError, match="max_moves"):
        BenchSettings(depth=1, max_moves=0).checked()


def test_the_solver_reference_shows_the_kept_size_runs() -> None:
    from benchmarks.results import RUNS, page_table

    assert list(RUNS.glob("sizes-*.json")), "the board sizes' runs are kept in docs/results/runs"
    page = (RUNS.parents[1] / "solver-reference.md").read_text(encoding="utf-8")
    assert page_table() in page, "run: python benchmarks/results.py --page-table"
