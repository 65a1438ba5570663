"""The 3x3 perfect-play table against a plain-Python expectimax, its symmetry, its recurrence,
its file checks and (where the whole table is built) the published 3x3 figures."""

from __future__ import annotations

import os
import time
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from py2048.engine.grid import legal_mask, slide_into
from py2048.engine.size import BoardSize
from py2048.tables.perfect import (
    PerfectTable,
    PerfectTableError,
    PositionNotInTable,
    build_perfect_table,
    list_positions,
    open_perfect_table,
    perfect_path,
    perfect_table,
)
from py2048.tables.perfect_kernels import SYMMETRIES, canonical, unpack_into
from tests.engine.reference import reference_slide, symmetries

DIRECTIONS = ("up", "right", "down", "left")  # Direction order: 0 up, 1 right, 2 down, 3 left
TILES = (256, 512, 1024)
OPENINGS = (
    (10, 9, 8, 7, 6, 0, 0, 0, 0),  # 13,536 positions: the score to come is far from trivial
    (6, 6, 5, 10, 9, 8, 0, 0, 0),  # 18,076 positions
    (8, 7, 8, 3, 0, 4, 8, 5, 4),  # 256s that make 512 about one time in eleven
    (9, 5, 4, 8, 9, 3, 6, 0, 0),  # two 512s that make 1024 half the time
    (7, 2, 9, 9, 0, 6, 0, 4, 8),  # and one time in ten here
    (7, 6, 6, 5, 4, 5, 6, 5, 4),  # a full board where two 64s may lead to 256, or not
    (6, 5, 0, 3, 6, 3, 7, 5, 7),  # 128s that make 256 about one time in eleven
)
Board = tuple[int, ...]  # nine exponents, row-major


# --- a plain-Python expectimax, the oracle ---------------------------------------------------


def to_rows(board: Board) -> list[list[int]]:
    return [[(1 << e) if e else 0 for e in board[r * 3 : r * 3 + 3]] for r in range(3)]


def to_board(rows: list[list[int]]) -> Board:
    return tuple(v.bit_length() - 1 if v else 0 for row in rows for v in row)


def moves(board: Board) -> list[tuple[int, Board, int]]:
    """(direction, board after it, points) for each direction that changes the board."""
    found = []
    for d, name in enumerate(DIRECTIONS):
        rows, gain = reference_slide(to_rows(board), name, largest=1024)
        after = to_board(rows)
        if after != board:
            found.append((d, after, gain))
    return found


def spawns(after: Board) -> list[tuple[float, Board]]:
    empty = [i for i, e in enumerate(after) if e == 0]
    out = []
    for i in empty:
        for exponent, odds in ((1, 0.9), (2, 0.1)):
            child = list(after)
            child[i] = exponent
            out.append((odds / len(empty), tuple(child)))
    return out


@cache
def expectimax(board: Board) -> tuple[float, float, float, float]:
    """Best expected score to come, and the best chances of a tile of 256, 512, 1024 or more."""
    best = [0.0, 0.0, 0.0, 0.0]
    for _, after, gain in moves(board):
        values = after_values(after)
        best[0] = max(best[0], gain + values[0])
        for j in range(1, 4):
            best[j] = max(best[j], values[j])
    top = max(board)
    for j, tile in enumerate(TILES, start=1):
        if (1 << top) >= tile:
            best[j] = 1.0
    return best[0], best[1], best[2], best[3]


def after_values(after: Board) -> list[float]:
    values = [0.0] * 4
    for odds, child in spawns(after):
        for j, v in enumerate(expectimax(child)):
            values[j] += odds * v
    return values


def reachable(start: Board) -> set[Board]:
    seen = {start}
    todo = [start]
    while todo:
        board = todo.pop()
        for _, after, _ in moves(board):
            for _, child in spawns(after):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    return seen


# --- the table under test --------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("perfect")
    build_perfect_table(path, openings=OPENINGS)
    return path


@pytest.fixture(scope="module")
def table(folder: Path) -> PerfectTable:
    return open_perfect_table(folder)


@pytest.fixture(scope="module")
def positions() -> list[Board]:
    every: set[Board] = set()
    for opening in OPENINGS:
        every |= reachable(opening)
    return sorted(every)


def close(a: float, b: float) -> bool:
    # stored values are float32, each computed from the float32 values above it
    return abs(a - b) <= 1e-5 * max(1.0, abs(b))


def test_every_position_matches_the_plain_expectimax(
    table: PerfectTable, positions: list[Board]
) -> None:
    assert len(positions) == 38_511  # every board the seven openings lead to, in every image
    wrong = []
    for board in positions:
        want = expectimax(board)
        got = (table.value(board), *(table.reach(board, tile) for tile in TILES))
        if not all(close(g, w) for g, w in zip(got, want, strict=True)):
            wrong.append((board, got, want))
    assert not wrong, wrong[:5]


def test_the_values_are_not_trivial(positions: list[Board]) -> None:
    """The sub-problems exercise every column: chances strictly between 0 and 1."""
    values = np.array([expectimax(board) for board in positions])
    assert values[:, 0].max() > 300
    for j in (1, 2, 3):
        assert ((values[:, j] > 0.01) & (values[:, j] < 0.99)).any(), TILES[j - 1]


def test_move_values_match_the_plain_expectimax(table: PerfectTable) -> None:
    for opening in OPENINGS:
        got = table.move_values(opening)
        want: list[float | None] = [None] * 4
        for d, after, gain in moves(opening):
            want[d] = gain + after_values(after)[0]
        assert [g is None for g in got] == [w is None for w in want]
        for g, w in zip(got, want, strict=True):
            if w is not None:
                assert g is not None and close(g, w)
        assert close(table.value(opening), max(w for w in want if w is not None))
        for tile in TILES:
            chances = table.move_reach(opening, tile)
            assert [c is None for c in chances] == [w is None for w in want]


def test_the_table_holds_one_position_per_symmetry_class(
    table: PerfectTable, positions: list[Board]
) -> None:
    classes = {min(to_board(image) for image in symmetries(to_rows(b))) for b in positions}
    assert table.positions == len(classes)
    listed = list_positions(openings=OPENINGS)
    assert sum(layer.size for layer in listed) == len(classes)


# the images of a board under the eight symmetries, and where each direction goes
_TURN = {0: 1, 1: 2, 2: 3, 3: 0}  # a quarter turn clockwise: up becomes right, ...
_MIRROR = {0: 0, 1: 3, 2: 2, 3: 1}  # left-right mirror


def _turn(board: Board) -> Board:
    rows = to_rows(board)
    return to_board([list(r) for r in zip(*rows[::-1], strict=True)])


def _mirror(board: Board) -> Board:
    return to_board([row[::-1] for row in to_rows(board)])


@settings(max_examples=60, deadline=None)
@given(index=st.integers(min_value=0), turns=st.integers(0, 3), mirrored=st.booleans())
def test_every_symmetric_position_reads_the_same(
    table: PerfectTable, positions: list[Board], index: int, turns: int, mirrored: bool
) -> None:
    board = positions[index % len(positions)]
    image = board
    where = [0, 1, 2, 3]  # where[d]: the direction of the image that plays d
    for _ in range(turns):
        image = _turn(image)
        where = [_TURN[w] for w in where]
    if mirrored:
        image = _mirror(image)
        where = [_MIRROR[w] for w in where]
    assert table.value(image) == table.value(board)
    for tile in TILES:
        assert table.reach(image, tile) == table.reach(board, tile)
    original = table.move_values(board)
    mapped = table.move_values(image)
    for d in range(4):
        if original[d] is None:
            assert mapped[where[d]] is None
        else:  # a move's value adds its successors up in the image's cell order: the last bit
            assert mapped[where[d]] == pytest.approx(original[d], rel=1e-12, abs=0.0)


@settings(max_examples=80, deadline=None)
@given(index=st.integers(min_value=0))
def test_a_value_is_the_spawn_weighted_mean_of_what_follows(
    table: PerfectTable, positions: list[Board], index: int
) -> None:
    """The table's own recurrence, read through its public methods on random positions."""
    board = positions[index % len(positions)]
    best = [0.0] * 4
    for _, after, gain in moves(board):
        follow = [0.0] * 4
        for odds, child in spawns(after):
            follow[0] += odds * table.value(child)
            for j, tile in enumerate(TILES, start=1):
                follow[j] += odds * table.reach(child, tile)
        best[0] = max(best[0], gain + follow[0])
        for j in range(1, 4):
            best[j] = max(best[j], follow[j])
    for j, tile in enumerate(TILES, start=1):
        if (1 << max(board)) >= tile:
            best[j] = 1.0
    assert table.value(board) == pytest.approx(best[0], rel=1e-6, abs=1e-6)
    for j, tile in enumerate(TILES, start=1):
        assert table.reach(board, tile) == pytest.approx(best[j], rel=1e-6, abs=1e-7)


def test_a_finished_game_is_worth_nothing_more(table: PerfectTable) -> None:
    over = (10, 9, 8, 7, 6, 5, 4, 3, 2)
    assert not moves(over)
    assert table.value(over) == 0.0
    assert table.move_values(over) == [None, None, None, None]
    assert table.reach(over, 1024) == 1.0
    assert table.reach((9, 8, 7, 6, 5, 4, 3, 2, 1), 1024) == 0.0


def test_a_position_outside_the_table_raises_a_key_error(table: PerfectTable) -> None:
    with pytest.raises(PositionNotInTable, match="not in the perfect-play table") as caught:
        table.value((1, 0, 0, 0, 0, 0, 0, 0, 1))
    assert isinstance(caught.value, KeyError)
    with pytest.raises(KeyError):
        table.move_values((1, 1, 0, 0, 0, 0, 0, 0, 0))


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ((0,) * 8, "9 exponents"),
        ((0,) * 8 + (11,), r"exponents\[8\] = 11"),
        ((0,) * 4 + (-1,) + (0,) * 4, r"exponents\[4\] = -1"),
        ((0,) * 4 + (1.5,) + (0,) * 4, r"exponents\[4\] = 1.5"),
    ],
)
def test_bad_boards_are_refused_naming_the_cell(
    table: PerfectTable, board: tuple[float, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        table.value(board)  # type: ignore[arg-type]


def test_reach_takes_only_the_tiles_it_holds(table: PerfectTable) -> None:
    with pytest.raises(ValueError, match="256, 512, 1024"):
        table.reach(OPENINGS[0], 2048)


# --- the file ---------------------------------------------------------------------------------


def test_perfect_table_is_none_off_3x3_and_when_not_built(tmp_path: Path, folder: Path) -> None:
    assert perfect_table(BoardSize(4, 4), folder) is None
    assert perfect_table(BoardSize(3, 4), folder) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert perfect_table(BoardSize(3, 3), tmp_path) is None
    found = perfect_table(BoardSize(3, 3), folder)
    assert found is not None and found.positions > 0
    with pytest.raises(
        PerfectTableError, match=r"not built\. Build it with `2048 tables build 3x3`"
    ):
        open_perfect_table(tmp_path)


def _copy(folder: Path, to: Path) -> Path:
    to.mkdir()
    perfect_path(to).write_bytes(perfect_path(folder).read_bytes())
    return perfect_path(to)


def test_a_truncated_file_is_refused_with_a_rebuild_hint(tmp_path: Path, folder: Path) -> None:
    path = _copy(folder, tmp_path / "cut")
    os.truncate(path, path.stat().st_size - 16)
    with pytest.raises(PerfectTableError, match=r"truncated: .* Rebuild it with `2048 tables"):
        open_perfect_table(path.parent)
    with pytest.warns(UserWarning, match="truncated"):
        assert perfect_table(BoardSize(3, 3), path.parent) is None


def test_a_damaged_file_is_refused_even_after_a_good_check(tmp_path: Path, folder: Path) -> None:
    path = _copy(folder, tmp_path / "bad")
    time.sleep(1.1)  # a file changed within a second of its check is not sealed
    open_perfect_table(path.parent)  # checked whole and sealed
    assert path.with_suffix(".verified").exists()
    with path.open("r+b") as handle:  # one value changed, size unchanged
        handle.seek(-3, os.SEEK_END)
        byte = handle.read(1)
        handle.seek(-3, os.SEEK_END)
        handle.write(bytes([byte[0] ^ 0x40]))
    with pytest.raises(PerfectTableError, match="corrupted"):
        open_perfect_table(path.parent)
    with pytest.warns(UserWarning, match="corrupted"):
        assert perfect_table(BoardSize(3, 3), path.parent) is None


def test_a_file_of_something_else_is_refused(tmp_path: Path) -> None:
    path = perfect_path(tmp_path)
    path.write_bytes(b"not a table" * 100)
    with pytest.raises(PerfectTableError, match="first bytes are wrong"):
        open_perfect_table(tmp_path)


def test_a_build_leaves_no_temporary_file(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    assert perfect_path(folder).exists()


def test_a_failed_build_leaves_the_old_table_and_no_temporary_file(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from py2048.tables import perfect_kernels

    path = _copy(folder, tmp_path / "kept")
    before = path.read_bytes()

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(perfect_kernels, "solve_layer", full_disk)
    with pytest.raises(OSError, match="No space left"):
        build_perfect_table(path.parent, openings=[OPENINGS[0]])
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    assert path.read_bytes() == before


# --- the command -----------------------------------------------------------------------------


def test_the_command_builds_lists_and_keeps_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`2048 tables build 3x3` (here solving one ending, not the whole game), then `list`."""
    from py2048 import cli
    from py2048.tables import perfect

    whole = perfect.build_perfect_table
    seen: list[perfect.PerfectProgress] = []

    def ending(*args: object, **kwargs: object) -> Path:
        report = kwargs.pop("progress")
        assert callable(report)

        def progress(now: perfect.PerfectProgress) -> None:
            seen.append(now)
            report(now)

        return whole(*args, progress=progress, openings=[OPENINGS[3]], **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(perfect, "build_perfect_table", ending)
    assert cli.main(["tables", "list", "--dir", str(tmp_path)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "│ 3x3 " in line)
    assert "48,713,519" in row and "974.4 MB" in row and "build by name" in row

    assert cli.main(["tables", "build", "3x3", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "perfect-3x3: perfect play on 3x3, 48,713,519 positions" in out
    assert "perfect-3x3: built in" in out
    assert {now.stage for now in seen} == {"listing", "solving"}
    assert seen[-1].done == seen[-1].total == open_perfect_table(tmp_path).positions

    assert cli.main(["tables", "build", "perfect-3x3", "--dir", str(tmp_path)]) == 0
    assert "already built" in capsys.readouterr().out
    assert cli.main(["tables", "list", "--dir", str(tmp_path)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "│ 3x3 " in line)
    assert "built" in row and "by name" not in row


# --- the whole game, where it is built --------------------------------------------------------


WHOLE = "PY2048_TEST_PERFECT_DIR"
"""A folder holding the whole 3x3 table (`2048 tables build 3x3 --dir FOLDER`): the tests
hide the user's tables folder, so the test of the whole game reads it from here."""


def _whole_table() -> PerfectTable | None:
    folder = os.environ.get(WHOLE)
    if not folder:
        return None
    table = open_perfect_table(folder)  # named but bad or missing: fail, do not skip
    return table if table.positions > 40_000_000 else None


@njit(cache=True)
def _census(keys: np.ndarray, starts: np.ndarray, symmetries: np.ndarray) -> tuple[int, int]:
    """The table's positions with no move, and its distinct afterstates (one per symmetry
    class; a move keeps the tile sum, so they are counted layer by layer)."""
    cells = np.empty(9, dtype=np.uint8)
    after = np.empty(9, dtype=np.uint8)
    over = 0
    afterstates = 0
    layers = (starts.size - 1) // 16
    for layer in range(layers):
        first = starts[16 * layer]
        last = starts[16 * layer + 16]
        found = np.empty(4 * (last - first), dtype=np.uint64)
        n = 0
        for bucket in range(16 * layer, 16 * layer + 16):
            for row in range(starts[bucket], starts[bucket + 1]):
                key = (np.uint64(bucket % 16) << np.uint64(32)) | np.uint64(keys[row])
                unpack_into(key, cells)
                mask = legal_mask(cells, 3, 3)
                if mask == 0:
                    over += 1
                for direction in range(4):
                    if mask >> direction & 1:
                        slide_into(cells, 3, 3, direction, after)
                        found[n] = canonical(after, symmetries)
                        n += 1
        afterstates += np.unique(found[:n]).size
    return over, afterstates


def test_the_whole_game_against_the_published_figures() -> None:
    """The counts Yamashita et al. published, and from the opening (two tiles spawned on the
    empty board) best play's 5,468.5 points ("about 5,470") and chances of 99.57% (256),
    73.68% (512) and 1.134% (1024)."""
    table = _whole_table()
    if table is None:
        pytest.skip(
            f"set {WHOLE} to a folder holding the whole 3x3 table (`2048 tables build 3x3`)"
        )
    # Yamashita et al. (github.com/shuymst/solving_2048_on_3x3_board, README "result"): 48,713,519
    # states, 31,431,374 afterstates, 7,388,502 terminal states, about 5,470 from the opening
    assert table.positions == 48_713_519
    over, afterstates = _census(table.keys, table.starts, SYMMETRIES)
    assert (over, afterstates) == (7_388_502, 31_431_374)
    expected = np.zeros(4)
    for a in range(9):
        for b in range(9):
            if a == b:
                continue
            for ea, pa in ((1, 0.9), (2, 0.1)):
                for eb, pb in ((1, 0.9), (2, 0.1)):
                    board = [0] * 9
                    board[a], board[b] = ea, eb
                    row = [table.value(board), *(table.reach(board, t) for t in TILES)]
                    expected += pa * pb / 72 * np.array(row)
    assert expected == pytest.approx([5468.48, 0.995710, 0.736774, 0.0113379], rel=1e-5)
