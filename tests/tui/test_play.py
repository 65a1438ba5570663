"""Playing the terminal game through its keys, driven by Textual's pilot at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets._footer import FooterKey

from py2048.engine import Direction, Game
from py2048.tui.app import Py2048App
from py2048.tui.keys import APP_KEYS, GAME_KEYS
from py2048.tui.screens.dialogs import (
    ConfirmNewGameScreen,
    GameOverScreen,
    WinScreen,
)
from py2048.tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen
from py2048.tui.screens.help import HelpScreen
from py2048.tui.storage import GAME_FILE
from py2048.tui.widgets.advice import AdvicePanel
from py2048.tui.widgets.board import Tile
from py2048.tui.widgets.scores import ScoreBox
from tests.tui.support import (
    LOST_ON_LEFT,
    WON_AND_LOST_ON_LEFT,
    WON_ON_LEFT,
    FirstLegalAdvisor,
    board_shown,
    game_screen,
    write_save,
)

pytestmark = pytest.mark.anyio

KEY_DIRECTIONS = {
    "up": Direction.UP,
    "w": Direction.UP,
    "k": Direction.UP,
    "right": Direction.RIGHT,
    "d": Direction.RIGHT,
    "l": Direction.RIGHT,
    "down": Direction.DOWN,
    "s": Direction.DOWN,
    "j": Direction.DOWN,
    "left": Direction.LEFT,
    "a": Direction.LEFT,
    "h": Direction.LEFT,
}


def shown(app: Py2048App) -> tuple[list[list[int]], int, int]:
    """What the player sees: the board, the score and the best score."""
    screen = game_screen(app)
    return (
        board_shown(screen),
        screen.query_one("#score", ScoreBox).value,
        screen.query_one("#best", ScoreBox).value,
    )


def make_app(data_dir: Path, **options: object) -> Py2048App:
    return Py2048App(data_dir=data_dir, advisor=FirstLegalAdvisor(), **options)


async def test_every_move_key_moves_the_tiles_and_the_score_follows(data_dir: Path) -> None:
    keys = list(KEY_DIRECTIONS) * 3
    app = make_app(data_dir, seed=2024)
    async with app.run_test() as pilot:
        assert shown(app)[0] == Game(2024).board
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        expected = Game.replay(2024, [KEY_DIRECTIONS[key] for key in keys])
        board, score, best = shown(app)
    assert expected.moves > 10
    assert expected.score > 0
    assert board == expected.board
    assert score == best == expected.score


async def test_keys_with_modifiers_do_nothing(data_dir: Path) -> None:
    app = make_app(data_dir, seed=5)
    async with app.run_test() as pilot:
        await pilot.press("ctrl+left", "shift+up", "alt+down", "W", "A", "S", "D", "ctrl+right")
        await pilot.pause()
        assert game_screen(app).session.game.moves == 0
        assert shown(app)[0] == Game(5).board


async def test_the_new_tile_is_marked_and_the_points_of_the_move_shown(data_dir: Path) -> None:
    game = Game.from_board([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=3)
    write_save(data_dir, game)
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("left")
        await pilot.pause()
        screen = game_screen(app)
        result_board = screen.session.game.board
        spawned = [tile for tile in screen.query(Tile) if tile.has_class("spawned")]
        assert screen.query_one("#score", ScoreBox).gain == 4
    assert len(spawned) == 1
    row, col = (int(part) for part in spawned[0].id.split("-")[1:])
    assert result_board[row][col] in (2, 4) and (row, col) != (0, 0)


async def test_the_win_banner_appears_on_the_move_that_makes_2048(data_dir: Path) -> None:
    write_save(data_dir, Game.from_board(WON_ON_LEFT, seed=1))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        assert isinstance(app.screen, GameScreen)
        await pilot.press("left")
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        await pilot.press("left", "left")  # moves do not reach the board under the banner
        assert game_screen(app).session.game.moves == 1


async def test_the_banner_comes_back_from_a_save_and_keep_going_survives_a_restart(
    data_dir: Path,
) -> None:
    write_save(data_dir, Game.from_board([[2048, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=9))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    assert Game.from_json((data_dir / GAME_FILE).read_text()).keep_going

    again = make_app(data_dir)
    async with again.run_test() as pilot:
        await pilot.pause()
        assert isinstance(again.screen, GameScreen)
        await pilot.press("right")
        await pilot.pause()
        assert isinstance(again.screen, GameScreen)
        assert game_screen(again).session.game.moves == 1


async def test_new_game_from_the_win_banner_starts_at_once(data_dir: Path) -> None:
    write_save(data_dir, Game.from_board(WON_ON_LEFT, seed=1))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("left")
        await pilot.pause()
        await pilot.click("#new-game")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        game = game_screen(app).session.game
        assert game.moves == 0 and not game.won


async def test_a_2048_made_on_the_last_move_is_a_win_not_a_game_over(data_dir: Path) -> None:
    write_save(data_dir, Game.from_board(WON_AND_LOST_ON_LEFT, seed=1))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("left")
        await pilot.pause()
        banner = app.screen
        assert isinstance(banner, WinScreen)
        assert [button.id for button in banner.query("Button")] == ["new-game"]
        assert "No move is left" in banner.message


async def test_game_over_shows_the_final_score_and_offers_a_new_game(data_dir: Path) -> None:
    write_save(data_dir, Game.from_board(LOST_ON_LEFT, score=40, seed=1))
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("left")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, GameOverScreen)
        assert "Final score: 56" in dialog.message
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert shown(app)[1] == 56
        await pilot.press("n")  # over: nothing to lose, so no question
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.moves == 0


async def test_a_finished_game_shows_game_over_again_after_a_restart(data_dir: Path) -> None:
    write_save(data_dir, Game.from_board(LOST_ON_LEFT, seed=1))
    async with make_app(data_dir).run_test() as pilot:
        await pilot.press("left")
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_new_game_asks_first_while_a_game_is_in_progress(data_dir: Path) -> None:
    app = make_app(data_dir, seed=77)
    async with app.run_test() as pilot:
        await pilot.press("left", "up")
        await pilot.pause()
        before = game_screen(app).session.game.to_json()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmNewGameScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.to_json() == before

        await pilot.press("r", "y")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.moves == 0
        assert shown(app)[1] == 0
    saved = Game.from_json((data_dir / GAME_FILE).read_text())
    assert saved.moves == 0, "a confirmed new game replaces the save at once"


async def test_new_game_does_not_ask_before_the_first_move(data_dir: Path) -> None:
    app = make_app(data_dir, seed=77)
    async with app.run_test() as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.seed != 77


async def test_the_help_screen_lists_every_key(data_dir: Path) -> None:
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        cells = [str(cell.content) for cell in help_screen.query(".keys, .does")]
        rows = list(zip(cells[::2], cells[1::2], strict=True))
        await pilot.press("left")  # the board does not move under the help
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.moves == 0
    described = {does for _, does in rows}
    assert described == {key.help for key in GAME_KEYS + APP_KEYS}
    listed = " ".join(keys for keys, _ in rows)
    for name in ("↑", "→", "↓", "←", "W", "A", "S", "D", "H", "J", "K", "L", "?", "Esc"):
        assert name in listed.split()


async def test_the_theme_switches_between_dark_and_light(data_dir: Path) -> None:
    app = make_app(data_dir)
    async with app.run_test() as pilot:
        dark = app.current_theme.dark
        await pilot.press("t")
        assert app.current_theme.dark is not dark
        await pilot.press("t")
        assert app.current_theme.dark is dark


def visible(app: Py2048App, widget: object) -> bool:
    region = widget.region  # type: ignore[attr-defined]
    return region.area > 0 and app.screen.region.contains_region(region)


@pytest.mark.parametrize("size", [(80, 24), (50, 20), (120, 40), (200, 60)])
async def test_board_and_scores_fit_the_terminal_and_follow_resizes(
    data_dir: Path, size: tuple[int, int]
) -> None:
    app = make_app(data_dir, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(*size)
        await pilot.pause()
        screen = game_screen(app)
        tiles = list(screen.query(Tile))
        scores = list(screen.query(ScoreBox))
        assert all(visible(app, widget) for widget in tiles + scores)
        assert all(tile.region.width >= len("131072") for tile in tiles)
        regions = [tile.region for tile in tiles]
        assert not any(a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1 :])
        assert screen.has_class("-narrow") == (size[0] < 64)
        if size[0] >= 120:
            assert all(tile.region.height >= 5 for tile in tiles)


async def test_enter_in_the_new_game_question_keeps_the_game(data_dir: Path) -> None:
    """Keeping the game is the default, as in the browser: Enter answers Keep playing."""
    app = make_app(data_dir, seed=77)
    async with app.run_test() as pilot:
        await pilot.press("left", "up")
        await pilot.pause()
        before = game_screen(app).session.game.to_json()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmNewGameScreen)
        assert app.screen.focused is not None and app.screen.focused.id == "cancel"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert game_screen(app).session.game.to_json() == before


@pytest.mark.parametrize("size", [(40, 12), (30, 30), (80, 10)])
async def test_below_the_minimum_size_the_screen_says_how_big_to_make_it(
    data_dir: Path, size: tuple[int, int]
) -> None:
    app = make_app(data_dir, seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        message = screen.query_one("#too-small")
        assert visible(app, message)
        text = str(message.render())
        assert f"at least {MIN_WIDTH}x{MIN_HEIGHT}" in text and f"{size[0]}x{size[1]}" in text
        assert not any(visible(app, tile) for tile in screen.query(Tile))
        await pilot.press("left")  # nothing plays unseen
        await pilot.pause()
        assert screen.session.game.moves == 0
        await pilot.resize_terminal(80, 24)  # and the game comes back when there is room
        await pilot.pause()
        assert not visible(app, message)
        assert all(visible(app, tile) for tile in screen.query(Tile))
        await pilot.press("left")
        await pilot.pause()
        assert screen.session.game.moves == 1


async def test_at_the_minimum_size_everything_shows(data_dir: Path) -> None:
    app = make_app(data_dir, seed=3)
    async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
        await pilot.press("i")
        await pilot.pause(0.2)
        screen = game_screen(app)
        assert not visible(app, screen.query_one("#too-small"))
        widgets = [*screen.query(Tile), *screen.query(ScoreBox), screen.query_one(AdvicePanel)]
        assert all(visible(app, widget) for widget in widgets)
        panel = screen.query_one(AdvicePanel)
        lines = str(panel.render()).splitlines()
        assert lines[0].startswith("Best move") and lines[-1].startswith("Autoplay")
        assert panel.content_region.height >= len(lines), "the panel shows every line"


def footer_labels(app: Py2048App) -> dict[str, bool]:
    """Each footer entry's words, and whether the whole entry shows on the screen."""
    return {
        str(key.description): visible(app, key)
        for key in game_screen(app).query(FooterKey)
        if key.display
    }


async def settled_footer(app: Py2048App, pilot: object, seconds: float = 10.0) -> dict[str, bool]:
    """The footer's entries once it has laid them out (a busy machine can take several frames)."""
    labels = footer_labels(app)
    for _ in range(int(seconds / 0.05)):
        if labels and all(labels.values()):
            break
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        labels = footer_labels(app)
    return labels


@pytest.mark.parametrize("size", [(80, 24), (50, 20)])
async def test_the_footer_shows_its_keys_whole_and_no_stray_palette(
    data_dir: Path, size: tuple[int, int]
) -> None:
    app = make_app(data_dir)
    async with app.run_test(size=size) as pilot:
        labels = await settled_footer(app, pilot)
        assert {"New game", "Hint", "Autoplay", "Help", "Quit"} <= set(labels), labels
        assert all(labels.values()), labels
        assert not any("palette" in label.lower() for label in labels)
        await pilot.press("ctrl+p")  # no command palette opens either
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_at_50x20_the_help_wraps_its_lines_instead_of_cutting_them(data_dir: Path) -> None:
    app = make_app(data_dir)
    async with app.run_test(size=(50, 20)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one(VerticalScroll)
        assert box.max_scroll_x == 0
        for text in app.screen.query(".does, .paragraph"):
            assert text.content_region.width > 0 and text.region.right <= box.region.right
            lines = text.render_lines(text.content_region.reset_offset)
            shown = [word for line in lines for word in "".join(s.text for s in line).split()]
            written = str(text.content).split()
            if "Saves are kept in" in str(text.content):  # a long path breaks where it must
                assert "".join(shown) == "".join(written)
            else:  # every line breaks between words, and none is cut short
                assert shown == written
