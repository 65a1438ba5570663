"""The review page and practice mode in headless Chromium against the real server: a game
reviewed as py2048.solver.review reviews it, stepped through, shared by its link, exported and
imported; Undo in practice mode, which never sets the best score (see tests/web/browser.py)."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest

from py2048 import Game
from py2048.solver import review
from tests.web.browser import BEST_KEY, Session, browser, open_session, prepared, session
from tests.web.test_browser_a11y import violations

pytestmark = pytest.mark.browser
__all__ = ["browser", "session"]  # fixtures, taken from tests.web.browser

SEED = 3
KEYS = ["ArrowDown", "ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]
"""Played again and again: a corner player that sometimes lifts its corner (mistakes to find)."""


def review_fragment(seed: int, history: str, practice: bool = False) -> str:
    """The review link's fragment, as docs/review.md's "Review links" specifies it (an independent
    reference for the page's encoder)."""
    packed = bytearray((len(history) + 3) // 4)
    for i, letter in enumerate(history):
        packed[i // 4] |= "URDL".index(letter) << (6 - 2 * (i % 4))
    moves = base64.urlsafe_b64encode(bytes(packed)).decode().rstrip("=")
    return f"seed={seed}&n={len(history)}&moves={moves}" + ("&practice=1" if practice else "")


def letters(game: Game) -> str:
    return "".join(d.letter for d in game.history)


def played(session: Session, presses: int) -> dict[str, Any]:
    """Open a new seeded game and play `presses` keys; the saved state."""
    session.open(Game(seed=SEED).to_dict())
    for i in range(presses):
        session.page.keyboard.press(KEYS[i % len(KEYS)])
    session.wait_idle()
    return session.stored()


def wait_reviewed(session: Session) -> None:
    session.page.wait_for_selector("#summary:not([hidden])", timeout=60_000)
    session.page.wait_for_function("() => document.documentElement.dataset.reviewing === 'false'")


def shown_accuracy(session: Session) -> str:
    return session.page.inner_text("#accuracy")


def shown_counts(session: Session) -> dict[str, int]:
    rows = session.page.eval_on_selector_all(
        "#grade-counts-body tr",
        "rows => rows.map(r => [r.className, r.querySelector('td').textContent])",
    )
    return {name.removeprefix("grade-"): int(count.replace(",", "")) for name, count in rows}


def test_a_played_game_is_reviewed_as_review_grades_it_and_can_be_stepped_through(
    session: Session,
) -> None:
    state = played(session, 60)
    history = state["history"]
    assert len(history) > 40
    graded = review(SEED, history)
    session.page.click("#review")
    session.page.wait_for_url(re.compile(r"/review#"))
    assert session.page.url.endswith("/review#" + review_fragment(SEED, history))
    wait_reviewed(session)
    page = session.page

    assert shown_accuracy(session) == f"{round(graded.accuracy * 10) / 10:g}%"
    assert shown_counts(session) == graded.counts
    assert "Seed 3" in page.inner_text("#review-game")
    # The graph: one point per position and the costliest moves marked, costliest first.
    points = page.get_attribute(".graph-line", "points").split()
    assert len(points) == len(history) + 1
    marks = page.eval_on_selector_all(".graph-mark", "ms => ms.map(m => Number(m.dataset.move))")
    assert marks == [move.number for move in graded.costliest] and len(marks) == 5
    listed = page.eval_on_selector_all("#costliest li", "li => li.map(i => Number(i.dataset.move))")
    assert listed == marks
    first = graded.costliest[0]
    item = page.inner_text("#costliest li:first-child")
    assert f"Move {first.number}: played" in item
    assert f"better {'↑→↓←'[first.best]} {first.best}" in item
    assert f"{round(first.loss):,} points" in item

    # Step through: the board shown is the position before each move.
    assert session.grid() == [list(row) for row in graded.moves[0].board]
    for number in range(1, 4):
        page.keyboard.press("ArrowRight")
        assert page.inner_text("#replay-position") == f"Before move {number + 1} of {len(history)}"
        assert session.grid() == [list(row) for row in graded.moves[number].board]
    page.keyboard.press("ArrowLeft")
    assert session.grid() == [list(row) for row in graded.moves[2].board]
    page.keyboard.press("End")
    assert session.grid() == [list(row) for row in graded.final_board]
    assert "After the last move" in page.inner_text("#replay-position")
    page.keyboard.press("Home")
    assert session.grid() == [list(row) for row in graded.moves[0].board]
    page.fill("#replay-slider", "10")
    assert session.grid() == [list(row) for row in graded.moves[10].board]

    # A mark on the graph shows its move, with the better move and the rule book's mistake.
    page.click(f".graph-mark[data-move='{first.number}']")
    assert session.grid() == [list(row) for row in first.board]
    assert f"Move {first.number}:" in page.inner_text("#move-title")
    assert first.grade in page.inner_text("#move-title")
    detail = page.inner_text("#move-detail")
    assert f"{round(first.loss):,} points" in detail
    if first.mistake is not None:
        assert page.get_attribute("#move-mistake a", "href") == first.mistake.link
    # Play runs through the positions; Space pauses.
    page.click("#replay-play")
    page.wait_for_function(
        f"() => document.getElementById('replay-slider').value > {first.number}", timeout=5000
    )
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"


def test_opening_the_review_changes_nothing_of_the_game_in_progress(session: Session) -> None:
    state = played(session, 20)
    best = session.page.evaluate("key => localStorage.getItem(key)", BEST_KEY)
    session.page.click("#review")
    wait_reviewed(session)
    session.page.keyboard.press("ArrowRight")
    session.page.go_back()
    session.wait_ready()
    assert session.stored() == state
    assert session.page.evaluate("key => localStorage.getItem(key)", BEST_KEY) == best
    assert session.grid() == state["board"]


def test_a_review_link_opens_the_same_review_in_a_fresh_browser(
    browser: Any, server_url: str
) -> None:
    game = Game.replay(7, "DLDRDLDDLURDLDDRDLDLDDLRDLDDRULD" * 2)
    history = letters(game)
    graded = review(7, history)
    with open_session(browser, server_url) as fresh:
        fresh.page.goto(f"{server_url}/review#{review_fragment(7, history)}")
        wait_reviewed(fresh)
        assert shown_accuracy(fresh) == f"{round(graded.accuracy * 10) / 10:g}%"
        assert shown_counts(fresh) == graded.counts
        assert fresh.stored() is None  # nothing of a game was saved by the review


def test_export_then_import_opens_the_same_game(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    game = Game.replay(7, "DLDRDLDDLURDLDDRDLDLDDLRDLDD")
    history = letters(game)
    with open_session(browser, server_url, accept_downloads=True) as first:
        first.page.goto(f"{server_url}/review#{review_fragment(7, history)}")
        wait_reviewed(first)
        with first.page.expect_download() as download:
            first.page.click("#export")
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
    assert json.loads(saved.read_text()) == game.to_dict()

    with open_session(browser, server_url) as second:
        second.page.goto(f"{server_url}/review")
        second.page.wait_for_selector("#review-empty:not([hidden])")
        second.page.set_input_files("#import-file", str(saved))
        wait_reviewed(second)
        assert second.page.url.endswith("#" + review_fragment(7, history))
        assert shown_counts(second) == review(7, history).counts


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("this is not json", "it is not JSON"),
        (json.dumps({"format": "other-2048", "board": []}), "is not a py2048 game"),
        (json.dumps(Game(seed=1).to_dict() | {"score": -4}), "not a valid py2048 game"),
        (
            json.dumps(prepared([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 2, 0], [0, 0, 0, 8]])),
            "set up from a board",
        ),
    ],
)
def test_a_bad_or_foreign_file_is_refused_and_changes_nothing(
    session: Session, tmp_path: Path, content: str, message: str
) -> None:
    session.watch.allowed_statuses.add(422)  # the server's refusal of the bad file
    history = "DLDRDLDDLURDLDDR"
    fragment = review_fragment(7, letters(Game.replay(7, history)))
    session.page.goto(f"{session.url}/review#{fragment}")
    wait_reviewed(session)
    before = session.page.inner_text("#summary")
    bad = tmp_path / "game.json"
    bad.write_text(content)
    session.page.locator("#import").scroll_into_view_if_needed()
    session.page.set_input_files("#import-file", str(bad))
    session.page.wait_for_selector("#share-message:not([hidden])")
    assert message in session.page.inner_text("#share-message")
    assert "Nothing was changed" in session.page.inner_text("#share-message")
    assert session.page.url.endswith("#" + fragment)
    assert session.page.inner_text("#summary") == before
    # Said where the player is looking, the Import button, and focused.
    assert session.page.evaluate("document.activeElement.id") == "share-message"
    assert in_viewport(session, "#share-message") and in_viewport(session, "#import")


def in_viewport(session: Session, selector: str) -> bool:
    box = session.page.locator(selector).bounding_box()
    size = session.page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_share_on_the_review_copies_the_score_and_the_link(session: Session) -> None:
    session.context.grant_permissions(["clipboard-read", "clipboard-write"])
    game = Game.replay(7, "DLDRDLDDLURDLDDR")
    fragment = review_fragment(7, letters(game))
    session.page.goto(f"{session.url}/review#{fragment}")
    wait_reviewed(session)
    session.page.click("#share-game")
    session.page.wait_for_selector("#share-message:not([hidden])")
    assert "Copied to the clipboard" in session.page.inner_text("#share-message")
    text = session.page.evaluate("navigator.clipboard.readText()")
    tile = max(max(row) for row in game.board)
    assert text == (
        f"I scored {game.score} in 2048, largest tile {tile}. Every move of the game: "
        f"{session.url}/review#{fragment}"
    )


def test_the_graph_of_a_game_in_progress_ends_where_its_last_move_promised(
    session: Session,
) -> None:
    """A game not over has no final score yet: its graph's last point is what the last move
    promised, not the score so far (which would drop like a cliff)."""
    game = Game.replay(7, "DLDRDLDDLURDLDDRDLDLDDLRDLDD")
    assert not game.over
    session.page.goto(f"{session.url}/review#{review_fragment(7, letters(game))}")
    wait_reviewed(session)
    points = session.page.get_attribute(".graph-line", "points").split()
    heights = [float(point.split(",")[1]) for point in points]
    # SVG's y grows downwards: the last point sits near the one before, far above the score.
    assert abs(heights[-1] - heights[-2]) < (max(heights) - min(heights) + 1) / 2
    graded = review(7, game.history)
    last = graded.moves[-1]
    assert last.score + last.values[last.played] > 4 * game.score


@pytest.mark.parametrize(
    ("fragment", "message"),
    [
        ("seed=abc&n=1&moves=AA", "seed (abc) is not a whole number"),
        ("n=1&moves=AA", "has no seed"),
        ("seed=8&n=5&moves=AA", "fewer than the 5 moves"),
        ("seed=8&n=4&moves=A*", "damaged from move 4"),
        (review_fragment(8, "L"), "move 1 (left) changes nothing"),
        (review_fragment(8, "DL"), "move 2 (left) changes nothing"),
    ],
)
def test_a_bad_review_link_says_what_is_wrong_and_loses_nothing(
    session: Session, fragment: str, message: str
) -> None:
    session.watch.allowed_statuses.add(422)
    state = played(session, 10)
    session.page.goto(f"{session.url}/review#{fragment}")
    session.page.wait_for_function(
        "() => !document.getElementById('notice').hidden"
        " || !document.getElementById('review-again').hidden"
    )
    shown = session.page.inner_text("#notice-text") + session.page.inner_text("#status-text")
    assert message in shown
    assert session.stored() == state


def test_a_long_review_shows_its_progress_and_can_be_cancelled(session: Session) -> None:
    from py2048.solver.reviewer import Grader

    grader = Grader(1)
    game = Game(seed=5)
    while game.moves < 2500:
        game.move(grader.best(game))
    session.page.goto(f"{session.url}/review#{review_fragment(5, letters(game))}")
    session.wait_ready()
    session.page.select_option("#review-setting", "deep")
    session.page.wait_for_function(
        "() => Number(document.getElementById('review-progress').value) > 0", timeout=30_000
    )
    assert "of 2,500 moves graded" in session.page.inner_text("#status-text")
    session.page.click("#review-cancel")
    assert session.page.inner_text("#status-text") == "The review was stopped."
    assert session.visible("#review-again") and not session.visible("#summary")
    session.page.select_option("#review-setting", "quick")
    wait_reviewed(session)
    assert shown_accuracy(session) == "100%"


def test_practice_mode_undo_never_sets_the_best_score(session: Session) -> None:
    start = Game(seed=SEED).to_dict()
    session.open(start, **{BEST_KEY: "12"})
    page = session.page
    assert not session.visible("#undo")
    for key in KEYS * 2:
        page.keyboard.press(key)
    session.wait_idle()
    before_undo = session.stored()
    assert before_undo["score"] > 12 and session.best() == before_undo["score"]
    page.keyboard.press("u")  # practice mode is off: U does nothing
    session.wait_idle()
    assert session.stored() == before_undo

    page.click("#practice")
    assert page.get_attribute("#practice", "aria-pressed") == "true"
    assert session.visible("#undo")
    page.click("#undo")
    page.wait_for_function(
        "n => JSON.parse(localStorage.getItem('py2048.state')).moves === n",
        arg=before_undo["moves"] - 1,
    )
    undone = session.stored()
    history = before_undo["history"]
    assert undone == Game.replay(SEED, history[:-1], practice=True).to_dict()
    assert session.grid() == undone["board"]
    assert session.visible("#practice-badge")
    # The game raised the best before its Undo: the best falls back to what it was before.
    assert session.best() == 12
    assert session.stored(BEST_KEY) == 12
    page.keyboard.press("Control+z")
    page.keyboard.press("u")
    page.wait_for_function(
        "n => JSON.parse(localStorage.getItem('py2048.state')).moves === n",
        arg=before_undo["moves"] - 3,
    )
    for key in KEYS * 3:
        page.keyboard.press(key)
    session.wait_idle()
    assert session.stored()["score"] > 12 and session.stored()["practice"] is True
    assert session.best() == 12 and session.stored(BEST_KEY) == 12
    # The practice game stays practice after a reload, and its review says Undo was used.
    session.reload()
    assert session.visible("#practice-badge") and session.best() == 12
    final = session.stored()
    page.click("#review")
    wait_reviewed(session)
    assert session.visible("#practice-note")
    assert page.url.endswith("#" + review_fragment(SEED, final["history"], practice=True))
    assert shown_counts(session) == review(SEED, final["history"]).counts
    # A new game counts again.
    page.go_back()
    session.wait_ready()
    page.click("#new-game")
    page.click("#confirm-ok")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('py2048.state')).moves === 0")
    assert not session.visible("#practice-badge")


def test_the_review_page_speaks_every_language(browser: Any, server_url: str) -> None:
    history = letters(Game.replay(7, "DLDRDLDDLURDLDDR"))
    for language, title in (("fr", "Analyse de la partie"), ("ru", "Разбор партии"),
                            ("ro", "Analiza partidei"), ("en", "Game review")):  # fmt: skip
        with open_session(browser, server_url, locale=language) as opened:
            opened.page.goto(f"{server_url}/review#{review_fragment(7, history)}")
            wait_reviewed(opened)
            assert opened.page.inner_text("h1") == title
            assert opened.page.get_attribute("html", "lang") == language


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_the_review_page_fits_and_passes_axe(
    browser: Any, server_url: str, tmp_path: Path, scheme: str, size: tuple[int, int]
) -> None:
    game = Game.replay(3, "DLDRDLDULDRDLDDLRDUDLDLDDRLDUDLDRDLDDLRUDLD" * 3)
    fragment = review_fragment(3, letters(game), practice=True)
    with open_session(
        browser, server_url, viewport={"width": size[0], "height": size[1]}, color_scheme=scheme
    ) as opened:
        opened.page.goto(f"{server_url}/review#{fragment}")
        wait_reviewed(opened)
        opened.page.click(".graph-mark")
        shot = tmp_path / f"review-{size[0]}-{scheme}.png"
        opened.page.screenshot(path=str(shot), full_page=True)
        width = opened.page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], shot
        board = opened.page.eval_on_selector("#board", "b => b.getBoundingClientRect().bottom")
        assert board <= size[1], shot  # the replay's board is on the first screen
        assert violations(opened) == [], shot


def test_the_game_page_in_practice_mode_passes_axe(session: Session) -> None:
    session.open(Game(seed=SEED).to_dict(), **{"py2048.practice": "on"})
    session.page.keyboard.press("ArrowDown")
    session.wait_idle()
    session.page.click("#undo")
    session.page.wait_for_selector("#practice-badge:not([hidden])")
    assert violations(session) == []
