"""What the game page keeps, in headless Chromium against the real server: the statistics (a
lost, a won and a practice game counted; surviving a reload; reset after a question), the past
games (listed, opened in the review, deleted, exported and imported back; a bad file changes
nothing) and sharing a finished game (the clipboard, or a phone's share sheet)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from py2048 import Direction, Game
from tests.web.browser import Session, browser, open_session, prepared, session

pytestmark = pytest.mark.browser
__all__ = ["browser", "session"]  # fixtures, taken from tests.web.browser

ARROW = {"up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown", "left": "ArrowLeft"}
# One move from the end: left fills the board with no merge left (seed 0 brings a 2).
LOSING_BOARD = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 8, 16, 32]]
# One move from 2048.
WINNING_BOARD = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def last_move_of_a_game(seed: int) -> tuple[dict[str, Any], str, Game]:
    """A real game from `seed` (random legal moves to the end): its save before its last move,
    that move, and the finished game."""
    chooser = random.Random(seed)
    game = Game(seed)
    while not game.over:
        game.move(chooser.choice(game.legal_moves()))
    before = Game.replay(seed, game.history[:-1])
    return before.to_dict(), str(Direction.parse(game.history[-1])), game


def finish(session: Session, state: dict[str, Any], direction: str) -> None:
    """Open the game with `state` and play `direction`, its last move."""
    session.open(state)
    session.page.keyboard.press(ARROW[direction])
    session.page.wait_for_selector("#over-banner", state="visible")


def stats(session: Session) -> dict[str, str]:
    """The Statistics dialog's figures by name (the dialog is opened if it is not)."""
    if not session.visible("#records-dialog"):
        session.page.click("#statistics")
    return dict(
        session.page.eval_on_selector_all(
            "#stats .stat",
            "items => items.map(i => [i.dataset.stat, i.querySelector('dd').textContent])",
        )
    )


def tile_bars(session: Session) -> dict[str, str]:
    return dict(
        session.page.eval_on_selector_all(
            "#tile-chart-body tr[data-tile]",
            "rows => rows.map(r => [r.dataset.tile, r.querySelector('.tile-count').textContent])",
        )
    )


def past_games(session: Session) -> list[list[str]]:
    return session.page.eval_on_selector_all(
        "#games-body tr", "rows => rows.map(r => [...r.cells].slice(1, 4).map(c => c.textContent))"
    )


# --- statistics -------------------------------------------------------------------------------


def test_a_lost_a_won_and_a_practice_game_are_counted_and_survive_a_reload(
    session: Session,
) -> None:
    page = session.page
    session.open(prepared(LOSING_BOARD, seed=0))
    assert stats(session)["played"] == "0"
    assert "No game has been counted yet." in page.inner_text("#tile-chart")
    page.click("#records-close")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#over-banner", state="visible")
    page.click("#try-again")  # a lost game, counted once, not again when replaced
    page.wait_for_function("() => JSON.parse(localStorage.getItem('py2048.state')).moves === 0")

    session.page.evaluate(
        "state => localStorage.setItem('py2048.state', JSON.stringify(state))",
        prepared(WINNING_BOARD, seed=1),
    )
    session.reload()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win-banner", state="visible")
    page.click("#win-new-game")  # a won game that New game replaces counts as won
    page.wait_for_function("() => JSON.parse(localStorage.getItem('py2048.state')).moves === 0")

    figures = stats(session)
    assert figures == {
        "played": "2",
        "won": "1",
        "winRate": "50%",
        "bestScore": "2,048",
        "averageScore": "1,024",
        "bestTile": "2048",
        "streak": "1",
        "longestStreak": "1",
    }
    assert tile_bars(session) == {"32": "1", "2048": "1"}
    page.click("#records-close")

    # A practice game (Undo used) is counted apart, and leaves the counts above alone.
    page.click("#practice")
    # The new game's tiles are random: one of left or right may change nothing, and three
    # alternating presses always make at least two moves.
    for key in ("ArrowLeft", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
        session.wait_idle()
    session.wait_moves(2)
    page.keyboard.press("u")
    page.wait_for_function(
        "() => { const s = JSON.parse(localStorage.getItem('py2048.state'));"
        " return s.practice && s.moves >= 1; }"
    )
    page.click("#new-game")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('py2048.state')).moves === 0")
    session.reload()
    assert stats(session) == figures
    assert page.inner_text("#stats-practice").startswith(
        "Practice games, counted apart: 1 played, 0 won"
    )


def test_statistics_are_reset_only_after_the_question(session: Session) -> None:
    state, direction, _ = last_move_of_a_game(3)
    finish(session, state, direction)
    page = session.page
    assert stats(session)["played"] == "1"
    page.click("#stats-reset")
    assert page.is_visible("#stats-reset-confirm")
    assert page.evaluate("document.activeElement.id") == "stats-reset-cancel"
    page.click("#stats-reset-cancel")
    assert stats(session)["played"] == "1"
    page.click("#stats-reset")
    page.click("#stats-reset-ok")
    assert stats(session)["played"] == "0"
    assert page.inner_text("#records-message") == "Statistics reset: every count is back to zero."
    assert len(past_games(session)) == 1  # the past games stay


def test_a_reload_of_a_finished_game_does_not_count_it_again(session: Session) -> None:
    state, direction, _ = last_move_of_a_game(4)
    finish(session, state, direction)
    session.reload()
    session.page.wait_for_selector("#over-banner", state="visible")
    assert stats(session)["played"] == "1"
    assert len(past_games(session)) == 1


# --- past games -------------------------------------------------------------------------------


def test_a_finished_game_is_listed_and_opens_in_the_review(session: Session) -> None:
    state, direction, game = last_move_of_a_game(5)
    finish(session, state, direction)
    session.page.click("#statistics")
    best_tile = max(max(row) for row in game.board)
    assert past_games(session) == [[f"{game.score:,}", str(best_tile), str(game.moves)]]
    session.page.get_by_role("link", name="Review the game of").click()
    session.page.wait_for_url("**/review#seed=5*")
    session.page.wait_for_selector("#summary", state="visible", timeout=60_000)
    assert f"Seed 5 · {game.moves} moves" in session.page.inner_text("#review-game")


def test_an_abandoned_game_is_kept_when_new_game_replaces_it(session: Session) -> None:
    session.open(Game(seed=9).to_dict())
    page = session.page
    for key in ("ArrowLeft", "ArrowDown", "ArrowRight"):
        page.keyboard.press(key)
    session.wait_idle()
    page.click("#new-game")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('py2048.state')).moves === 0")
    page.click("#statistics")
    assert "left unfinished" in page.inner_text("#games-body")
    assert [row[2] for row in past_games(session)] == ["3"]


def test_a_past_game_is_deleted_and_the_list_is_exported_and_imported_back(
    session: Session, tmp_path: Path
) -> None:
    page = session.page
    first, direction, _ = last_move_of_a_game(6)
    finish(session, first, direction)
    page.click("#try-again")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('py2048.state')).moves === 0")
    second, direction, _ = last_move_of_a_game(7)
    page.evaluate("state => localStorage.setItem('py2048.state', JSON.stringify(state))", second)
    session.reload()
    page.keyboard.press(ARROW[direction])
    page.wait_for_selector("#over-banner", state="visible")
    page.click("#statistics")
    kept = past_games(session)
    assert len(kept) == 2

    with page.expect_download() as download:
        page.click("#games-export")
    exported = tmp_path / "games.json"
    download.value.save_as(exported)
    file = json.loads(exported.read_text())
    assert file["format"] == "py2048-games"
    assert len(file["games"]) == 2
    assert all(len(entry["code"]) < 2_000 for entry in file["games"])

    page.locator("#games-body tr").first.get_by_role("button", name="Delete").click()
    assert past_games(session) == kept[1:]
    assert page.evaluate("document.activeElement.id") == "records-message"
    assert "is deleted" in page.inner_text("#records-message")

    page.set_input_files("#games-import-file", str(exported))
    page.wait_for_function(
        "() => document.getElementById('records-message').textContent.includes('added')"
    )
    assert "1 of the file's 2 games added" in page.inner_text("#records-message")
    assert past_games(session) == kept
    session.reload()
    page.click("#statistics")
    assert past_games(session) == kept


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": "py2048"}', "not a py2048 list of games"),
        ('{"format": "py2048-games", "games": [{"code": "seed=1"}]}', "Game 1 of that file"),
        ("forged", "does not replay"),
    ],
)
def test_a_bad_file_of_games_is_refused_and_nothing_is_lost(
    session: Session, tmp_path: Path, content: str, message: str
) -> None:
    state, direction, _ = last_move_of_a_game(8)
    finish(session, state, direction)
    page = session.page
    page.click("#statistics")
    kept = past_games(session)
    if content == "forged":  # a real game's link, claiming another score
        with page.expect_download() as download:
            page.click("#games-export")
        file = json.loads(Path(download.value.path()).read_text())
        file["games"][0]["score"] += 4
        content = json.dumps(file)
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    page.set_input_files("#games-import-file", str(bad))
    page.wait_for_selector("#records-message", state="visible")
    assert message in page.inner_text("#records-message")
    assert "Nothing was changed" in page.inner_text("#records-message")
    assert page.evaluate("document.activeElement.id") == "records-message"
    assert past_games(session) == kept


# --- sharing ----------------------------------------------------------------------------------


def test_share_at_game_over_copies_the_score_and_the_review_link(
    browser: Any, server_url: str
) -> None:
    with open_session(browser, server_url) as session:
        session.context.grant_permissions(["clipboard-read", "clipboard-write"])
        state, direction, game = last_move_of_a_game(10)
        finish(session, state, direction)
        session.page.click("#over-share")
        session.page.wait_for_selector("#notice", state="visible")
        assert "Copied to the clipboard" in session.page.inner_text("#notice-text")
        text = session.page.evaluate("navigator.clipboard.readText()")
        assert f"I scored {game.score:,} in 2048" in text
        link = text.split(": ", 1)[1]
        assert link.startswith(f"{server_url}/review#seed=10&n={game.moves}&moves=")


def test_share_on_a_phone_hands_the_text_to_the_share_sheet(browser: Any, server_url: str) -> None:
    with open_session(
        browser, server_url, has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844}
    ) as session:
        session.page.add_init_script("navigator.share = async (data) => { window.shared = data; };")
        state, direction, game = last_move_of_a_game(12)
        session.open(state)
        session.page.keyboard.press(ARROW[direction])
        session.page.wait_for_selector("#over-banner", state="visible")
        session.page.click("#over-share")
        session.page.wait_for_function("() => window.shared !== undefined")
        shared = session.page.evaluate("window.shared")
        assert f"I scored {game.score:,} in 2048" in shared["text"]
        assert "/review#seed=12&" in shared["text"]


# --- Undo outside practice ----------------------------------------------------------------------


def test_u_outside_practice_says_so_on_screen_and_then_goes(session: Session) -> None:
    session.open(Game(seed=2).to_dict())
    page = session.page
    page.keyboard.press("ArrowLeft")
    session.wait_idle()
    page.keyboard.press("u")
    page.wait_for_selector("#notice", state="visible")
    assert page.inner_text("#notice-text") == (
        "Undo works in practice mode: turn on Practice first."
    )
    assert session.stored()["moves"] == 1  # nothing was taken back
    page.wait_for_selector("#notice", state="hidden", timeout=8_000)
