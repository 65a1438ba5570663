"""The terminal game on every board size: ``2048 play --size``, the size chosen in the game, the
board's layout, and saves, best scores and statistics kept per size."""

from __future__ import annotations

import io
import itertools
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from rich.console import Console
from textual.widgets import Input, OptionList, Static

from py2048.cli import main
from py2048.engine import Direction, Game
from py2048.engine.size import DEFAULT_SIZE, SIZES, BoardSize
from py2048.tui.app import Py2048App
from py2048.tui.records import PastGame, Records, decode_game, encode_game
from py2048.tui.screens.dialogs import ConfirmNewGameScreen, GameOverScreen
from py2048.tui.screens.records import RecordsScreen
from py2048.tui.screens.review import ReviewScreen
from py2048.tui.screens.size import SizeScreen
from py2048.tui.settings import Settings
from py2048.tui.storage import BEST_SCORE_FILE, GAME_FILE, Storage, size_file
from py2048.tui.widgets.advice import AdvicePanel, advice_lines
from py2048.tui.widgets.board import SHORT_WIDTH, SPACINGS, Tile, fit, label
from py2048.tui.widgets.scores import ScoreBox
from tests.tui.support import (
    FakeAdvice,
    FirstLegalAdvisor,
    board_shown,
    game_screen,
    tile_number,
    write_save,
)

pytestmark = pytest.mark.anyio

LOST_3X3_ON_LEFT = [[2, 4, 2], [4, 2, 8], [2, 8, 8]]
"""Left merges the two 8s; whatever spawns in the freed corner, no move is left."""


def make_app(data_dir: Path, **options: object) -> Py2048App:
    return Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor(), **options)


def visible(app: Py2048App, widget: object) -> bool:
    region = widget.region  # type: ignore[attr-defined]
    return region.area > 0 and app.screen.region.contains_region(region)


async def play_until_moved(pilot: object, app: Py2048App, keys: str = "adws") -> None:
    """Press move keys until the board has moved at least once."""
    for key in keys * 3:
        await pilot.press(key)  # type: ignore[attr-defined]
        if game_screen(app).session.game.moves:
            break
    await pilot.pause()  # type: ignore[attr-defined]


# --- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "said"),
    [
        ("9x9", "rows must be from 3 to 8, got 9"),
        ("4x2", "columns must be from 3 to 8, got 2"),
        ("big", "'big' is not a board size: write rows x columns, like 4x4 or 5x6"),
        ("0", "rows must be from 3 to 8, got 0"),
    ],
)
def test_a_bad_size_is_refused_before_the_game_starts(
    capsys: pytest.CaptureFixture[str], size: str, said: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--size", size])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "argument --size" in error and said in error


def test_a_bad_size_from_python_is_a_value_error_naming_it(data_dir: Path) -> None:
    with pytest.raises(ValueError, match="size 2x5: rows must be from 3 to 8"):
        Py2048App(data_dir=data_dir, size="2x5")


def _read_until(fd: int, seconds: float) -> bytes:
    """What the terminal shows within ``seconds`` (or until it closes)."""
    output = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            output += chunk
    return output


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_play_size_3x3_in_a_real_terminal(tmp_path: Path) -> None:
    """``2048 play --size 3x3`` in a pseudo-terminal of 80x24: the keys move a 3x3 board, Q quits,
    and the game is saved as a 3x3 game beside (not over) the 4x4 save."""
    import fcntl
    import pty
    import struct
    import termios

    data_dir = tmp_path / "data"
    four = Game(seed=8)
    four.move(Direction.LEFT)
    write_save(data_dir, four)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = os.environ | {"PY2048_DATA_DIR": str(data_dir), "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)
    command = [sys.executable, "-m", "py2048", "play", "--size", "3x3", "--seed", "5"]
    process = subprocess.Popen(
        command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    saved = data_dir / size_file(GAME_FILE, BoardSize(3, 3))
    shown = b""
    try:
        deadline = time.monotonic() + 120
        keys = iter("adwsadwsadws" * 20)
        while not saved.exists() and time.monotonic() < deadline:
            shown += _read_until(master, 0.5)
            if b"Best on 3x3" in shown:  # the game screen is up: play
                os.write(master, next(keys).encode())
        assert saved.exists(), shown[-2000:].decode(errors="replace")
        os.write(master, b"q")
        shown += _read_until(master, 10)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    game = Game.from_json(saved.read_text())
    assert game.size == (3, 3) and game.seed == 5 and game.moves >= 1
    assert Game.from_json((data_dir / GAME_FILE).read_text()).to_dict() == four.to_dict()
    assert Settings.load(data_dir).size == "3x3"


# --- the board on the screen ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "width", "written"),
    [
        (2, 1, "2"),
        (2048, 4, "2048"),
        (2048, 3, "2k"),
        (131072, 6, "131072"),
        (131072, 5, "128k"),
        (1 << 20, 4, "1M"),
        (1 << 65, 4, "32E"),
        (0, 4, ""),
    ],
)
def test_a_number_too_wide_for_its_tile_is_written_short(
    value: int, width: int, written: str
) -> None:
    assert label(value, width) == written
    assert tile_number(written) == value


@given(
    st.sampled_from(SIZES),
    st.integers(min_value=30, max_value=250),
    st.integers(min_value=8, max_value=80),
    st.integers(min_value=1, max_value=20),
)
@example(BoardSize(rows=3, cols=8), 48, 8, 1)  # the most generous spacing left only 3 columns
def test_the_board_fits_its_room_with_tiles_of_one_size(
    size: BoardSize, width: int, height: int, widest: int
) -> None:
    layout = fit(size, width, height, widest)
    assert layout.width <= width and layout.height <= height
    assert layout.tile_height >= 1
    if width >= 48:  # the room at the smallest terminal (50 columns): any number fits, short
        assert layout.tile_width >= len(label(1 << 19, 4)) == 4
    assert (layout.pad_x, layout.pad_y, layout.gap_x, layout.gap_y) in SPACINGS
    for spacing in SPACINGS:  # no more generous spacing would have given the number its room
        if spacing == (layout.pad_x, layout.pad_y, layout.gap_x, layout.gap_y):
            break
        pad_x, pad_y, gap_x, gap_y = spacing
        room_x = (width - 2 * pad_x - (size.cols - 1) * gap_x) // size.cols
        room_y = (height - 2 * pad_y - (size.rows - 1) * gap_y) // size.rows
        room = max(widest + 2, SHORT_WIDTH)
        assert room_y < 1 or min(room_x, 2 * min(room_y, 7) + 2, 16) < room


def test_a_4x4_board_keeps_its_big_tiles() -> None:
    layout = fit(DEFAULT_SIZE, 50, 21)
    assert (layout.tile_width, layout.tile_height) == (10, 4)
    assert fit(DEFAULT_SIZE, 200, 60).width == 74


BIG_8X8 = [[1 << (1 + (r * 8 + c) % 40) for c in range(8)] for r in range(8)]
"""Every cell filled, with tiles up to 2**40 (13 digits in full)."""


@pytest.mark.parametrize("size", [(80, 24), (50, 20), (120, 40)])
@pytest.mark.parametrize("board", ["new", "big"])
async def test_an_8x8_board_fits_the_terminal_and_every_number_reads(
    data_dir: Path, size: tuple[int, int], board: str
) -> None:
    if board == "big":
        write_save(data_dir, Game.from_board(BIG_8X8))
        data_dir.joinpath(GAME_FILE).rename(data_dir / size_file(GAME_FILE, BoardSize(8, 8)))
        app = make_app(data_dir, size="8x8")
    else:
        app = make_app(data_dir, size="8x8", seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        tiles = list(screen.query(Tile))
        assert len(tiles) == 64
        assert all(visible(app, tile) for tile in tiles)
        regions = [tile.region for tile in tiles]
        assert not any(a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1 :])
        assert len({(r.width, r.height) for r in regions}) == 1, "every tile the same size"
        for tile in tiles:
            assert len(str(tile.render())) <= tile.content_size.width
        assert board_shown(screen) == screen.session.game.board
        if size == (80, 24):  # beside the sidebar, with a gap between every tile
            assert screen.has_class("-wide")
            assert all(tile.region.width >= (5 if board == "big" else 4) for tile in tiles)
            columns = sorted({r.x for r in regions})
            rows = sorted({r.y for r in regions})
            assert min(b - a for a, b in itertools.pairwise(columns)) > regions[0].width
            assert min(b - a for a, b in itertools.pairwise(rows)) > regions[0].height


# --- 3x3 ----------------------------------------------------------------------------------------


async def test_a_3x3_game_is_played_saved_apart_and_says_2048_cannot_be_made(
    data_dir: Path,
) -> None:
    four = Game(seed=8)
    four.move(Direction.LEFT)
    write_save(data_dir, four)
    app = make_app(data_dir, size="3x3", seed=11)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert len(screen.query(Tile)) == 9
        assert any("1024" in str(n.message) for n in app._notifications)
        assert screen.query_one("#best", ScoreBox).border_title == "Best on 3x3"
        await play_until_moved(pilot, app)
        assert board_shown(screen) == screen.session.game.board
        assert screen.session.game.size == (3, 3)
    saved = Game.from_json((data_dir / "game-3x3.json").read_text())
    assert saved.to_dict() == screen.session.game.to_dict()
    assert Game.from_json((data_dir / GAME_FILE).read_text()).to_dict() == four.to_dict()


# --- per-size saves, best scores and statistics --------------------------------------------------


def test_a_5x5_save_round_trips_through_the_storage(data_dir: Path) -> None:
    size = BoardSize(5, 5)
    game = Game(seed=21, size=size)
    for direction in "LDRDLDDLRDLU" * 4:
        game.move(direction)
    storage = Storage(data_dir, size)
    storage.save_game(game)
    storage.save_best_score(game.score, 4)
    assert storage.game_path.name == "game-5x5.json"
    loaded, problem = Storage(data_dir, size).load_game()
    assert problem is None and loaded is not None
    assert loaded.to_dict() == game.to_dict() and loaded.size == size
    assert Storage(data_dir, size).load_best_score() == (game.score, None)
    assert Storage(data_dir, size).load_best_before_game() == 4
    assert Storage(data_dir).load_game() == (None, None)  # the 4x4 save is another file
    assert Storage(data_dir).load_best_score() == (0, None)


def test_a_save_of_another_size_in_a_sizes_file_is_moved_aside(data_dir: Path) -> None:
    storage = Storage(data_dir, BoardSize(5, 5))
    data_dir.mkdir()
    storage.game_path.write_text(Game(seed=1, size="6x6").to_json())
    game, problem = storage.load_game()
    assert game is None and problem is not None
    assert "it holds a 6x6 game, not a 5x5 one" in problem.reason and problem.backup is not None


def test_a_best_score_beyond_any_3x3_game_is_refused(data_dir: Path) -> None:
    data_dir.mkdir()
    storage = Storage(data_dir, BoardSize(3, 3))
    storage.best_score_path.write_text(json.dumps({"best_score": 10**6}))
    score, problem = storage.load_best_score()
    assert score == 0 and problem is not None and "any 3x3 game" in problem.reason


async def test_a_5x5_game_round_trips_through_the_app_and_the_size_comes_back(
    data_dir: Path,
) -> None:
    app = make_app(data_dir, size=(5, 5), seed=4)
    async with app.run_test() as pilot:
        await play_until_moved(pilot, app, "adwsad")
        played = game_screen(app).session.game.to_dict()
    app = make_app(data_dir)  # no size: the one last played
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert screen.session.game.to_dict() == played
        assert len(screen.query(Tile)) == 25
        assert board_shown(screen) == screen.session.game.board


async def test_best_scores_are_kept_apart_per_size(data_dir: Path) -> None:
    """A 5x5 game's points raise the 5x5 best only; each size shows its own best."""
    write_save(data_dir, Game(seed=2))
    Storage(data_dir).save_best_score(1000)
    app = make_app(data_dir, size="5x5", seed=6)
    async with app.run_test() as pilot:
        screen = game_screen(app)
        for key in "adwsadwsadwsadws" * 3:
            await pilot.press(key)
        await pilot.pause()
        five = screen.session.game.score
        assert five > 0
        assert screen.query_one("#best", ScoreBox).value == five
        screen.change_size(DEFAULT_SIZE)
        await pilot.pause()
        assert screen.query_one("#best", ScoreBox).value == 1000
        assert screen.query_one("#best", ScoreBox).border_title == "Best on 4x4"
        assert len(screen.query(Tile)) == 16
        assert board_shown(screen) == Game(seed=2).board
    assert json.loads((data_dir / BEST_SCORE_FILE).read_text())["best_score"] == 1000
    five_best = json.loads((data_dir / size_file(BEST_SCORE_FILE, BoardSize(5, 5))).read_text())
    assert five_best["best_score"] == five
    assert Settings.load(data_dir).size == "4x4"


async def test_statistics_are_kept_per_size_and_past_games_carry_their_size(
    data_dir: Path,
) -> None:
    small = BoardSize(3, 3)
    Storage(data_dir, small).save_game(Game.from_board(LOST_3X3_ON_LEFT, score=40, seed=7))
    app = make_app(data_dir, size="3x3")
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("left")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        app.pop_screen()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, RecordsScreen)
        assert "3x3" in str(app.screen.query_one(".box").border_title)
    three = Records(data_dir, small).statistics()
    assert three.games.played == 1 and three.games.best_score == 40 + 16
    assert Records(data_dir).statistics().games.played == 0
    assert not (data_dir / "statistics.json").exists()
    (past,) = Records(data_dir).games()
    assert past.size == small and "&size=3x3&" in past.code


def test_a_past_game_of_any_size_replays_from_its_link_form() -> None:
    game = Game(seed=33, size="4x6")
    for direction in "LDRDLDDLRDLU" * 3:
        game.move(direction)
    entry = PastGame.of(game, "abandoned")
    assert entry.code.startswith("seed=33&size=4x6&n=")
    assert entry.game().to_dict() == game.to_dict()
    history = "".join(d.letter for d in game.history)
    assert decode_game(encode_game(33, history, size=game.size)) == (33, history, False, (4, 6))
    assert "size" not in encode_game(33, history)  # 4x4 links are as before


def test_a_link_form_with_a_bad_size_says_so() -> None:
    from py2048.tui.records import RecordsError

    with pytest.raises(RecordsError, match="its size 9x9: rows must be from 3 to 8"):
        decode_game("seed=1&size=9x9&n=0&moves=")


def test_records_of_one_size_do_not_count_a_game_of_another(data_dir: Path) -> None:
    game = Game(seed=3, size="5x5")
    game.move("L")
    with pytest.raises(ValueError, match="a 5x5 game cannot be counted with the 4x4 games"):
        Records(data_dir).record(game, "over")


# --- choosing the size in the game ---------------------------------------------------------------


async def test_b_chooses_a_square_from_the_list_and_the_game_left_waits(data_dir: Path) -> None:
    app = make_app(data_dir, seed=9)
    async with app.run_test() as pilot:
        await play_until_moved(pilot, app)
        four = game_screen(app).session.game.to_dict()
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, SizeScreen)
        options = app.screen.query_one(OptionList)
        assert options.highlighted == 1  # 4x4, being played
        assert "3x3" in str(options.get_option_at_index(0).prompt)
        assert "no 2048" in str(options.get_option_at_index(0).prompt)
        await pilot.press("down", "down", "enter")  # 6x6
        await pilot.pause()
        screen = game_screen(app)
        assert app.screen is screen
        assert screen.session.game.size == (6, 6) and screen.session.game.moves == 0
        assert len(screen.query(Tile)) == 36
        assert board_shown(screen) == screen.session.game.board
        await pilot.press("b")
        await pilot.pause()
        assert "a saved game" in str(app.screen.query_one(OptionList).get_option_at_index(1).prompt)
        await pilot.press("up", "up", "enter")  # back to 4x4: the game left is there
        await pilot.pause()
        assert game_screen(app).session.game.to_dict() == four


async def test_a_rectangle_is_typed_and_a_bad_size_is_answered_in_words(data_dir: Path) -> None:
    app = make_app(data_dir, seed=9)
    async with app.run_test() as pilot:
        await pilot.press("b")
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.focus()
        await pilot.press(*"9x4", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SizeScreen)
        problem = str(app.screen.query_one("#size-problem").render())
        assert "rows must be from 3 to 8, got 9" in problem
        field.value = ""
        await pilot.press(*"4x6", "enter")
        await pilot.pause()
        screen = game_screen(app)
        assert app.screen is screen and screen.session.game.size == (4, 6)
        assert board_shown(screen) == screen.session.game.board
        await play_until_moved(pilot, app)
    assert Storage(data_dir, BoardSize(4, 6)).load_game()[0] is not None


async def test_choosing_the_size_being_played_is_new_game_and_asks_first(data_dir: Path) -> None:
    app = make_app(data_dir, seed=9, size="5x5")
    async with app.run_test() as pilot:
        await play_until_moved(pilot, app)
        await pilot.press("b")
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        assert "playing now" in str(options.get_option_at_index(2).prompt)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmNewGameScreen)
        await pilot.press("y")
        await pilot.pause()
        game = game_screen(app).session.game
        assert game.size == (5, 5) and game.moves == 0


# --- the solver on other sizes -------------------------------------------------------------------


async def test_a_size_the_solver_refuses_gets_a_message_not_a_failure(data_dir: Path) -> None:
    def refusing(board: object, preset: str) -> FakeAdvice:
        raise ValueError("boards of 7x5 are not played")

    app = Py2048App(data_dir=data_dir, size="7x5", seed=1, advisor=refusing)
    async with app.run_test() as pilot:
        await pilot.press("p")
        await pilot.pause(0.3)
        screen = game_screen(app)
        panel = screen.query_one(AdvicePanel)
        assert panel.problem == "No advice on 7x5: the solver said: boards of 7x5 are not played"
        assert not screen.autoplaying


async def test_hint_and_autoplay_get_the_board_of_the_size_played(data_dir: Path) -> None:
    advisor = FirstLegalAdvisor()
    app = Py2048App(data_dir=data_dir, size="3x5", seed=1, advisor=advisor)
    async with app.run_test() as pilot:
        await pilot.press("i")
        await pilot.pause(0.3)
        assert advisor.calls and len(advisor.calls[0][0]) == 3 and len(advisor.calls[0][0][0]) == 5
        await pilot.press("p")
        await pilot.pause(0.5)
        await pilot.press("escape")
        await pilot.pause()
        assert game_screen(app).session.game.moves >= 1


def test_a_hint_from_perfect_play_says_so() -> None:
    values = {Direction.LEFT: 1200.5, Direction.DOWN: 1100.0}
    hint = FakeAdvice(Direction.LEFT, values)
    object.__setattr__(hint, "source", "perfect")
    lines = [str(line) for line in advice_lines(hint, 100)]
    assert lines[0] == "Best move: ← left"
    assert lines[1] == "Final score after each:"
    assert lines[-1] == "perfect play (exact values)"


# --- review of any size --------------------------------------------------------------------------


def test_the_review_command_reviews_the_save_of_a_size(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PY2048_DATA_DIR", str(data_dir))
    game = Game(seed=12, size="3x4")
    for direction in "LDRDLDDLRD":
        game.move(direction)
    Storage(data_dir, game.size).save_game(game)
    assert main(["review", "--size", "3x4", "--setting", "quick", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["history"] == "".join(d.letter for d in game.history)
    assert printed["final_board"] == game.board and printed["final_score"] == game.score
    assert main(["review", "--size", "3x4", "--setting", "quick"]) == 0
    assert "3x4 board · seed 12" in capsys.readouterr().out
    assert main(["review", "--size", "5x5"]) == 2
    assert "game-5x5.json does not exist yet" in capsys.readouterr().err


async def test_the_review_in_the_game_replays_a_game_of_another_size(data_dir: Path) -> None:
    game = Game(seed=5, size="5x4")
    for direction in "LDRDLDDLRD":
        game.move(direction)
    Storage(data_dir, game.size).save_game(game)
    app = make_app(data_dir, size="5x4")
    async with app.run_test(size=(100, 40)) as pilot:
        game_screen(app).action_review()
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        for _ in range(600):
            await pilot.pause(0.1)
            if app.screen.ended:
                break
        review = app.screen.review
        assert review is not None, str(app.screen.query_one("#status").render())
        assert review.final_board == tuple(tuple(row) for row in game.board)  # type: ignore[attr-defined]
        summary = app.screen.query_one("#summary", Static).content
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(summary)
        assert "5x4 board · seed 5 · 10 moves" in console.export_text()


def test_the_heuristics_values_are_not_called_a_final_score() -> None:
    values = {Direction.LEFT: 4500.4, Direction.DOWN: 4000.0}
    hint = FakeAdvice(Direction.LEFT, values)
    object.__setattr__(hint, "evaluator", "heuristic")
    lines = [str(line) for line in advice_lines(hint, 1000)]
    assert lines[1] == "Solver's value of each:"
    assert "4,500" in lines[2] and "5,500" not in "".join(lines)


@pytest.mark.parametrize("size", ["3x4", "6x6"])
async def test_hint_and_autoplay_by_the_real_solver_on_other_sizes(
    data_dir: Path, size: str
) -> None:
    app = Py2048App(data_dir=data_dir, size=size, seed=2001)
    async with app.run_test() as pilot:
        screen = game_screen(app)
        await pilot.press("m")  # the fast preset: the quickest answers
        while screen.preset != "fast":
            await pilot.press("m")
        await pilot.press("i")
        panel = screen.query_one(AdvicePanel)
        for _ in range(600):
            await pilot.pause(0.1)
            if panel.advice is not None or panel.problem is not None:
                break
        assert panel.problem is None, panel.problem
        advice = panel.advice
        assert advice is not None and advice.direction in screen.session.game.legal_moves()
        assert set(advice.values) == set(screen.session.game.legal_moves())
        await pilot.press("p")
        for _ in range(600):
            await pilot.pause(0.1)
            if screen.session.game.moves >= 5:
                break
        await pilot.press("escape")
        await pilot.pause()
        game = screen.session.game
        assert game.moves >= 5 and game.size == BoardSize(*map(int, size.split("x")))
    replayed = Game.replay(game.seed, game.history, strict=True, size=game.size)
    assert replayed.board == game.board
