"""The browser game on every board size (Chromium): the size menu beside New game, a 3x3 and an
8x8 game played, reloaded and reviewed, each size's game, best score and statistics kept
apart (4x4's where older pages kept them), review links that carry the size, and boards that
fit a phone and a laptop with every tile's figure inside its tile, light and dark."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from py2048 import Game
from py2048.solver import review
from tests.web.browser import (
    BEST_KEY,
    STATE_KEY,
    Session,
    browser,
    open_session,
    prepared,
    session,
)
from tests.web.test_browser_a11y import violations

pytestmark = pytest.mark.browser
__all__ = ["browser", "session"]  # the fixtures, taken from tests.web.browser

KEYS = {"left": "ArrowLeft", "down": "ArrowDown", "right": "ArrowRight", "up": "ArrowUp"}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
# One move from the end on 3x3: right leaves no move for seed 3's next spawn.
ALMOST_OVER_3X3 = [[2, 128, 16], [16, 32, 128], [128, 2, 0]]


def state_key(size: str) -> str:
    return STATE_KEY if size == "4x4" else f"{STATE_KEY}.{size}"


def best_key(size: str) -> str:
    return BEST_KEY if size == "4x4" else f"{BEST_KEY}.{size}"


def shown_board(session: Session) -> list[list[int]]:
    """The board as the accessible grid names it, in whatever shape it has."""
    names = session.page.eval_on_selector_all(
        "#grid [role=row]",
        "rows => rows.map(r => [...r.querySelectorAll('[role=gridcell]')]"
        ".map(c => c.getAttribute('aria-label')))",
    )
    return [[int(name) if name.isdigit() else 0 for name in row] for row in names]


def stored(session: Session, key: str) -> Any:
    raw = session.page.evaluate("key => localStorage.getItem(key)", key)
    return None if raw is None else json.loads(raw)


def choose_size(session: Session, size: str) -> None:
    """Pick ``size`` in the size menu and wait until its game is on screen and saved."""
    session.page.select_option("#size", size)
    rows, cols = (int(side) for side in size.split("x"))
    session.page.wait_for_function(
        "([key, rows, cols]) => {"
        "  const grid = document.querySelectorAll('#grid [role=row]');"
        "  const saved = localStorage.getItem(key);"
        "  return grid.length === rows && grid[0].children.length === cols && saved !== null;"
        "}",
        arg=[state_key(size), rows, cols],
    )
    session.wait_idle()


def play(session: Session, size: str, moves: int) -> dict[str, Any]:
    """Press arrow keys until the saved game of ``size`` holds ``moves`` more moves; its save."""
    start = stored(session, state_key(size))["moves"]
    keys = ["left", "down", "right", "up"]
    pressed = 0
    while stored(session, state_key(size))["moves"] < start + moves:
        session.page.keyboard.press(KEYS[keys[pressed % 4]])
        session.wait_idle()
        pressed += 1
        assert pressed < 20 * moves, "the keys stopped moving the board"
    state: dict[str, Any] = stored(session, state_key(size))
    return state


def reviews_every_size() -> bool:
    return "size" in inspect.signature(review).parameters


def open_review_and_check(session: Session, state: dict[str, Any], size: str) -> None:
    """The game's Review opens a link that carries the size, and the review replays it on a
    board of that shape (or, while the solver reviews only 4x4, says so in words)."""
    session.page.click("#review")
    session.page.wait_for_url("**/review#*")
    assert f"size={size}" in session.page.url
    rows, cols = (int(side) for side in size.split("x"))
    session.page.wait_for_function(
        "() => !document.getElementById('replay').hidden"
        " || !document.getElementById('review-status').hidden"
        " && !document.getElementById('review-cancel').offsetParent",
        timeout=60_000,
    )
    line = session.page.inner_text("#review-game")
    assert line.startswith(size.replace("x", "×"))
    if reviews_every_size():
        session.page.wait_for_selector("#replay", state="visible", timeout=60_000)
        assert shown_board(session) == Game.replay(state["seed"], "", size=size).board
        session.page.click("#replay-end")
        assert shown_board(session) == state["board"]
        assert len(shown_board(session)) == rows and len(shown_board(session)[0]) == cols
        graded_by = review(state["seed"], state["history"], size=size).graded_by
        title = session.page.inner_text("#graph-title")
        session.page.click("#replay-start")
        figure = session.page.inner_text("#move-figure")
        if graded_by == "heuristic":  # values, not points: named as the solver's
            assert (title, figure) == ("Solver's value of each position", "Solver's value")
        else:  # perfect play on 3x3: points, as on 4x4
            assert (title, figure) == ("Expected final score", "Final score")
    else:
        text = session.page.inner_text("#status-text")
        assert "does not review" in text and size.replace("x", "×") in text


@pytest.mark.parametrize("size", ["3x3", "8x8"])
def test_a_game_of_another_size_is_played_reloaded_and_reviewed(
    session: Session, size: str
) -> None:
    four = prepared([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 2, 0], [0, 0, 0, 8]], seed=5)
    session.open(four)
    choose_size(session, size)
    state = play(session, size, 6)
    assert state["size"] == [int(side) for side in size.split("x")]
    assert shown_board(session) == state["board"]
    assert state == Game.replay(state["seed"], state["history"], size=size).to_dict()
    assert session.visible("#size-note") == (size == "3x3")
    assert stored(session, STATE_KEY) == four  # the 4x4 game waits, untouched

    session.reload()
    assert session.page.input_value("#size") == size
    assert shown_board(session) == state["board"]
    assert int(session.page.inner_text("#score")) == state["score"]
    more = play(session, size, 2)  # and it plays on after the reload
    assert more["history"].startswith(state["history"])

    open_review_and_check(session, more, size)


def test_each_size_keeps_its_own_game_and_best_score(session: Session) -> None:
    five = Game.from_board(
        [[2, 4, 0, 0, 0], [0, 8, 0, 0, 0], [0] * 5, [0] * 5, [0, 0, 0, 0, 16]], score=60, seed=9
    ).to_dict()
    four = prepared([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 2, 0], [0, 0, 0, 8]], score=12, seed=5)
    session.open(
        four,
        **{BEST_KEY: "1000", state_key("5x5"): json.dumps(five), best_key("5x5"): "40"},
    )
    assert session.best() == 1000 and session.page.input_value("#size") == "4x4"

    choose_size(session, "5x5")
    assert shown_board(session) == five["board"]
    assert session.best() == 60  # the 5x5 game's score passes the 5x5 best, not 4x4's
    assert stored(session, best_key("5x5")) == 60 and stored(session, BEST_KEY) == 1000

    choose_size(session, "6x4")  # no game of that size yet: a new one, best 0
    fresh = stored(session, state_key("6x4"))
    assert fresh["moves"] == 0 and fresh["size"] == [6, 4] and session.best() == 0

    choose_size(session, "4x4")
    assert shown_board(session) == four["board"] and session.best() == 1000
    assert stored(session, "py2048.size") is None  # 4x4 is the default, as older pages knew it


def test_a_plain_new_game_on_4x4_asks_nothing_about_the_size(session: Session) -> None:
    requests: list[Any] = []
    session.page.on(
        "request", lambda r: requests.append(r.post_data) if r.url.endswith("/api/new") else None
    )
    session.open()
    assert requests == ['{"seed":null}']  # exactly the request of a page that knew no sizes
    assert len(shown_board(session)) == 4


def test_statistics_are_counted_for_the_size_played(session: Session) -> None:
    three = Game.from_board(ALMOST_OVER_3X3, seed=3).to_dict()
    session.open(None, **{state_key("3x3"): json.dumps(three), "py2048.size": "3x3"})
    session.page.keyboard.press("ArrowRight")  # the game ends, and is counted
    session.page.wait_for_selector("#over-banner", state="visible")
    counts = stored(session, "py2048.statistics.3x3")
    assert counts["games"]["played"] == 1 and counts["games"]["won"] == 0
    assert stored(session, "py2048.statistics") is None  # nothing counted for 4x4
    session.page.click("#statistics")
    session.page.wait_for_selector("#games-body tr")
    assert "3×3" in session.page.inner_text("#stats-size")
    assert session.page.inner_text("[data-stat=played] dd") == "1"
    assert "3×3" in session.page.inner_text("#games-body tr")
    session.page.click("#records-close")

    choose_size(session, "4x4")
    session.page.click("#statistics")
    assert "4×4" in session.page.inner_text("#stats-size")
    assert session.page.inner_text("[data-stat=played] dd") == "0"


def test_a_review_link_of_another_size_opens_in_a_fresh_browser(
    browser: Any, server_url: str
) -> None:
    game = Game(17, size=(4, 6))
    for letter in "LDRDLD":
        game.move(letter)
    with open_session(browser, server_url) as first:
        first.open(None, **{state_key("4x6"): game.to_json(), "py2048.size": "4x6"})
        first.page.click("#review")
        first.page.wait_for_url("**/review#*")
        link = first.page.url
    assert "size=4x6" in link
    with open_session(browser, server_url) as fresh:
        fresh.page.goto(link)
        fresh.page.wait_for_function("() => document.documentElement.dataset.ready === 'true'")
        fresh.page.wait_for_function(
            "() => document.getElementById('review-game').textContent.startsWith('4×6')"
        )


def test_a_bad_size_in_a_review_link_says_so(session: Session) -> None:
    session.page.goto(f"{session.url}/review#seed=3&size=9x9&n=0&moves=")
    session.page.wait_for_selector("#notice", state="visible")
    assert "9x9" in session.page.inner_text("#notice-text")


def big_8x8_board() -> list[list[int]]:
    """An 8x8 board with tiles of every width, up to 2**40 (past 131072 written 2 with a raised
    exponent)."""
    values = [2**k for k in range(1, 41)] + [0] * 24
    return [values[r * 8 : (r + 1) * 8] for r in range(8)]


FITS = """() => {
  const faces = [...document.querySelectorAll('#tiles .tile-face')];
  const board = document.getElementById('board').getBoundingClientRect();
  const overflowing = faces.filter(f => f.scrollWidth > f.clientWidth + 1
    || f.scrollHeight > f.clientHeight + 1).map(f => f.textContent);
  return {faces: faces.length, overflowing, boardRight: board.right, boardBottom: board.bottom,
          boardWidth: board.width, boardHeight: board.height, width: window.innerWidth,
          height: window.innerHeight,
          scrollWidth: document.documentElement.scrollWidth,
          fontPx: faces.map(f => parseFloat(getComputedStyle(f).fontSize))};
}"""


def test_an_8x8_board_fits_a_phone_with_every_figure_inside_its_tile(
    browser: Any, server_url: str
) -> None:
    board = big_8x8_board()
    state = Game.from_board(board, seed=4).to_dict()
    with open_session(browser, server_url, **PHONE) as phone:
        phone.open(None, **{state_key("8x8"): json.dumps(state), "py2048.size": "8x8"})
        phone.page.wait_for_function("() => document.querySelectorAll('#tiles .tile').length")
        fit = phone.page.evaluate(FITS)
        assert fit["faces"] == 40 and fit["overflowing"] == []
        assert fit["boardRight"] <= fit["width"] and fit["scrollWidth"] <= fit["width"]
        assert abs(fit["boardWidth"] - fit["boardHeight"]) < 1
        assert min(fit["fontPx"]) >= 8  # the smallest figure, 131072's, stays legible
        assert shown_board(phone) == board  # every cell names its full value
        sup = phone.page.inner_text("#tiles .tile-super .tile-face >> nth=-1")
        assert sup.replace("\n", "") == "240"  # 2 with a raised 40
        assert violations(phone) == []


def test_a_tall_and_a_wide_board_fit_a_laptop_without_scrolling(
    browser: Any, server_url: str
) -> None:
    with open_session(browser, server_url, **LAPTOP) as laptop:
        laptop.open()
        for size, (rows, cols) in (("8x3", (8, 3)), ("3x8", (3, 8)), ("8x8", (8, 8))):
            choose_size(laptop, size)
            fit = laptop.page.evaluate(FITS)
            assert fit["boardBottom"] <= fit["height"] and fit["boardRight"] <= fit["width"]
            assert fit["overflowing"] == []
            ratio = fit["boardHeight"] / fit["boardWidth"]
            assert rows / cols * 0.8 < ratio < rows / cols * 1.25, (size, ratio)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["3x3", "8x8"])
def test_other_sizes_pass_axe(browser: Any, server_url: str, scheme: str, size: str) -> None:
    with open_session(browser, server_url, color_scheme=scheme) as themed:
        themed.open()
        choose_size(themed, size)
        play(themed, size, 2)
        assert violations(themed) == []


def test_swipes_move_an_8x8_board(browser: Any, server_url: str) -> None:
    state = Game(6, size=(8, 8)).to_dict()
    with open_session(browser, server_url, **PHONE) as phone:
        phone.open(None, **{state_key("8x8"): json.dumps(state), "py2048.size": "8x8"})
        box = phone.page.locator("#board").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = phone.context.new_cdp_session(phone.page)
        for dx, dy in ((-40, 0), (0, 40), (40, 0), (0, 40)):
            for kind, step in (("touchStart", 0), ("touchMove", 1), ("touchMove", 2)):
                point = {"x": x + dx * step, "y": y + dy * step}
                cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [point]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            phone.wait_idle()
        phone.page.wait_for_function(
            "() => JSON.parse(localStorage.getItem('py2048.state.8x8')).moves >= 3"
        )
        saved = stored(phone, state_key("8x8"))
        assert saved == Game.replay(6, saved["history"], size=(8, 8)).to_dict()


def open_3x3(session: Session) -> dict[str, Any]:
    state = Game.replay(8, "LD", size=(3, 3)).to_dict()
    session.open(None, **{state_key("3x3"): json.dumps(state), "py2048.size": "3x3"})
    return state


def test_a_perfect_play_hint_says_so(session: Session) -> None:
    answer = {
        "direction": "up",
        "values": {"up": 812.0, "left": 790.25},
        "depth": 0,
        "elapsed_ms": 0.2,
        "source": "perfect",
        "grades": {"up": "best", "left": "inaccuracy"},
    }
    session.page.route("**/api/hint", lambda route: route.fulfill(json=answer))
    state = open_3x3(session)
    with session.page.expect_request("**/api/hint") as asked:
        session.page.click("#hint")
    assert json.loads(asked.value.post_data)["state"]["size"] == [3, 3]  # the save carries it
    session.page.wait_for_selector("#hint-panel", state="visible")
    assert session.page.inner_text("#hint-move") == "↑ up (perfect play)"
    session.page.click(".hint-details summary")
    assert session.page.inner_text("#hint-how").startswith("Perfect play: 3×3 is solved")
    final = session.page.inner_text("#hint-values tr[data-direction=up] td >> nth=0")
    assert final == f"{state['score'] + 812:,}"  # the final score the move leads to, as ever


def test_a_size_the_solver_refuses_gets_a_clear_notice_from_hint_and_autoplay(
    session: Session,
) -> None:
    session.watch.allowed_statuses.add(422)
    refusal = {"detail": "state.size: the solver gives no advice on 3x3 boards (4x4 only)"}
    session.page.route("**/api/hint", lambda route: route.fulfill(status=422, json=refusal))
    open_3x3(session)
    session.page.click("#hint")
    session.page.wait_for_selector("#notice", state="visible")
    assert session.page.inner_text("#notice-text") == (
        "The solver gives no hints on 3×3 boards yet."
    )
    session.page.click("#notice-close")
    session.page.click("#autoplay")
    session.page.wait_for_selector("#notice", state="visible")
    assert "no hints on 3×3" in session.page.inner_text("#notice-text")
    session.page.wait_for_function(
        "() => document.getElementById('autoplay').getAttribute('aria-pressed') === 'false'"
    )


def test_a_review_the_solver_refuses_for_its_size_says_so(session: Session) -> None:
    session.watch.allowed_statuses.add(422)
    refusal = {"detail": "size: the solver does not review 5x5 games"}
    session.page.route(
        "**/api/review/stream", lambda route: route.fulfill(status=422, json=refusal)
    )
    session.page.goto(f"{session.url}/review#seed=3&size=5x5&n=0&moves=")
    session.page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('5×5')"
    )
    assert session.page.inner_text("#status-text") == ("The solver does not review 5×5 games yet.")


def test_a_heuristic_hint_shows_the_solvers_values_not_final_scores(session: Session) -> None:
    answer = {
        "direction": "left",
        "values": {"left": 5120.4, "down": 4980.0},
        "depth": 2,
        "elapsed_ms": 12,
        "evaluator": "heuristic",
        "grades": {"left": "best", "down": "good"},
    }
    session.page.route("**/api/hint", lambda route: route.fulfill(json=answer))
    state = Game.replay(8, "LD", size=(5, 5)).to_dict()
    session.open(None, **{state_key("5x5"): json.dumps(state), "py2048.size": "5x5"})
    session.page.click("#hint")
    session.page.wait_for_selector("#hint-panel", state="visible")
    assert session.page.inner_text("#hint-move") == "← left"
    session.page.click(".hint-details summary")
    assert session.page.inner_text("#hint-figure-heading") == "Solver's value"
    figure = session.page.inner_text("#hint-values tr[data-direction=left] td >> nth=0")
    assert figure == "5,120"  # the value itself, not the score plus it
    behind = session.page.inner_text("#hint-values tr[data-direction=down] td >> nth=1")
    assert behind == "140 lower"
    assert "not a score" in session.page.inner_text("#hint-how")
