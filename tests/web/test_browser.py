"""The game page in headless Chromium (Playwright, sync API) against the real server.

Every test runs in a fresh browser context (empty localStorage) and fails on a console error, an
uncaught exception or any request that leaves the test server. Without /usr/bin/chromium the
tests are skipped, unless PY2048_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from py2048 import Game
from py2048.solver import PRESETS

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
STATE_KEY = "py2048.state"
BACKUP_KEY = "py2048.state.backup"
BEST_KEY = "py2048.best"
TILE_VALUES = [2**k for k in range(1, 18)]
KEY_DIRECTIONS = {
    "ArrowUp": "up",
    "ArrowRight": "right",
    "ArrowDown": "down",
    "ArrowLeft": "left",
    "w": "up",
    "d": "right",
    "s": "down",
    "a": "left",
    "k": "up",
    "l": "right",
    "j": "down",
    "h": "left",
}
# Every direction moves something on this board, so any key or swipe is a real move.
OPEN_BOARD = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 2, 0], [0, 0, 0, 8]]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for this module's tests; Playwright's sync API holds an event loop on the main
    thread while it runs, so it must stop before any later test runs an asyncio loop there."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing (Debian's chromium package)"
        if os.environ.get("PY2048_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PY2048_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        yield chromium
        chromium.close()


@dataclass
class Watch:
    """What a page did that it must not: console errors, uncaught exceptions, outside requests."""

    server_url: str
    problems: list[str] = field(default_factory=list)
    allowed_statuses: set[int] = field(default_factory=set)

    def on_console(self, message: Any) -> None:
        if message.type != "error":
            return
        status = re.search(r"status of (\d{3})", message.text)
        if status and int(status[1]) in self.allowed_statuses:
            return
        self.problems.append(f"console error: {message.text}")

    def on_request(self, request: Any) -> None:
        url = request.url
        if not (url.startswith(self.server_url) or url.startswith("data:")):
            self.problems.append(f"request outside the server: {url}")


class Session:
    """One browser context on the game, with helpers that read what the page shows."""

    def __init__(self, context: Any, server_url: str, watch: Watch) -> None:
        self.context = context
        self.url = server_url
        self.watch = watch
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("console", self.watch.on_console)
        page.on("pageerror", lambda error: self.watch.problems.append(f"page error: {error}"))
        page.on("request", self.watch.on_request)
        return page

    def open(
        self, state: dict[str, Any] | str | None = None, *, wait: bool = True, **storage: str
    ) -> None:
        """Load the game with `state` (and other keys) put in localStorage before it loads.

        The values are written once per tab, before the page's own scripts run, so a reload
        later finds whatever the page saved meanwhile. With `wait`, return once the page is
        ready (its saved game restored).
        """
        items = dict(storage)
        if state is not None:
            items[STATE_KEY] = state if isinstance(state, str) else json.dumps(state)
        if items:
            self.page.add_init_script(
                "const items = " + json.dumps(items) + ";\n"
                "if (location.origin !== 'null' && !sessionStorage.getItem('seeded')) {\n"
                "  sessionStorage.setItem('seeded', '1');\n"
                "  for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);\n"
                "}"
            )
        self.page.goto(f"{self.url}/")
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        self.page.wait_for_function("() => document.documentElement.dataset.ready === 'true'")

    def reload(self) -> None:
        self.page.reload()
        self.wait_ready()

    def wait_idle(self) -> None:
        self.page.wait_for_function("() => document.documentElement.dataset.busy !== 'true'")

    def wait_moves(self, at_least: int, timeout: float = 30_000) -> None:
        """Wait until the saved game holds `at_least` moves (the page's CSP forbids eval)."""
        self.page.wait_for_function(
            "n => JSON.parse(localStorage.getItem('py2048.state')).moves >= n",
            arg=at_least,
            timeout=timeout,
        )

    def stored(self, key: str = STATE_KEY) -> Any:
        raw = self.page.evaluate("key => localStorage.getItem(key)", key)
        return None if raw is None else json.loads(raw) if key != BACKUP_KEY else raw

    def grid(self) -> list[list[int]]:
        """The board as the accessible grid names it (cell names: a value or "empty")."""
        names = self.page.eval_on_selector_all(
            "#grid [role=row]",
            "rows => rows.map(r => [...r.querySelectorAll('[role=gridcell]')]"
            ".map(c => c.getAttribute('aria-label')))",
        )
        assert len(names) == 4 and all(len(row) == 4 for row in names)
        return [[int(name) if name.isdigit() else 0 for name in row] for row in names]

    def score(self) -> int:
        return int(self.page.inner_text("#score"))

    def best(self) -> int:
        return int(self.page.inner_text("#best"))

    def visible(self, selector: str) -> bool:
        return self.page.is_visible(selector)


@contextmanager
def open_session(browser: Any, server_url: str, **options: Any) -> Iterator[Session]:
    """A fresh context with `options` (viewport, color_scheme, locale...), watched throughout."""
    watch = Watch(server_url)
    context = browser.new_context(**{"viewport": {"width": 800, "height": 1000}} | options)
    try:
        yield Session(context, server_url, watch)
    finally:
        context.close()
    assert not watch.problems, watch.problems


@pytest.fixture
def session(browser: Any, server_url: str) -> Iterator[Session]:
    with open_session(browser, server_url) as opened:
        yield opened


def prepared(board: list[list[int]], score: int = 0, seed: int = 7, **fields: Any) -> dict:
    """A valid save of `board` (the engine validates it), with `fields` overriding."""
    return Game.from_board(board, score=score, seed=seed).to_dict() | fields


def expected_after(state: dict[str, Any], directions: list[str]) -> Game:
    game = Game.from_dict(state)
    for direction in directions:
        game.move(direction)
    return game


# --- moves ------------------------------------------------------------------------------------


def test_every_move_key_plays_in_order_and_none_is_lost(session: Session) -> None:
    start = Game(seed=2024).to_dict()
    session.open(start)
    keys = list(KEY_DIRECTIONS) * 2
    for key in keys:  # far faster than the 100 ms slides: the page must queue them
        session.page.keyboard.press(key)
    session.wait_idle()
    expected = expected_after(start, [KEY_DIRECTIONS[k] for k in keys])
    assert expected.moves > 10
    assert session.stored() == expected.to_dict()
    assert session.grid() == expected.board
    assert session.score() == expected.score


def test_keys_with_modifiers_are_left_to_the_browser(session: Session) -> None:
    session.open(prepared(OPEN_BOARD))
    for key in ("Shift+ArrowLeft", "Control+ArrowDown", "Meta+ArrowUp", "Alt+KeyD"):
        session.page.keyboard.press(key)
    session.wait_idle()
    assert session.stored()["moves"] == 0
    session.page.keyboard.press("ArrowLeft")
    session.wait_idle()
    assert session.stored()["history"] == "L"


def drag(page: Any, dx: float, dy: float) -> None:
    box = page.locator("#board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2)
    page.mouse.move(x + dx, y + dy)
    page.mouse.up()


def test_mouse_drags_move_by_their_longer_side_from_10_px(session: Session) -> None:
    start = prepared(OPEN_BOARD)
    session.open(start)
    drag(session.page, 9, 0)  # too short
    drag(session.page, -60, 25)  # mostly left
    session.wait_idle()
    drag(session.page, 12, -30)  # mostly up
    session.wait_idle()
    expected = expected_after(start, ["left", "up"])
    assert session.stored()["history"] == "LU"
    assert session.grid() == expected.board


def test_touch_swipe_moves_and_does_not_scroll(browser: Any, server_url: str) -> None:
    with open_session(
        browser, server_url, has_touch=True, is_mobile=True, viewport={"width": 360, "height": 640}
    ) as session:
        start = prepared(OPEN_BOARD)
        session.open(start)
        page = session.page
        assert page.eval_on_selector("#board", "b => getComputedStyle(b).touchAction") == "none"
        box = page.locator("#board").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = session.context.new_cdp_session(page)
        scroll_before = page.evaluate("window.scrollY")
        for kind, point_y in (("touchStart", y), ("touchMove", y + 40), ("touchMove", y + 80)):
            cdp.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": point_y}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        session.wait_moves(1)
        session.wait_idle()
        assert session.stored()["history"] == "D"
        assert session.grid() == expected_after(start, ["down"]).board
        assert page.evaluate("window.scrollY") == scroll_before


def test_moves_are_announced_politely(session: Session) -> None:
    session.open(prepared([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]))
    live = session.page.locator("#announcer")
    assert live.get_attribute("aria-live") == "polite"
    session.page.keyboard.press("ArrowLeft")
    session.wait_idle()
    live_text = re.compile(
        r"Moved left\. Merged into 4\. New [24] in row \d, column \d\. Score 4\."
    )
    session.page.wait_for_function(
        "re => new RegExp(re).test(document.getElementById('announcer').textContent)",
        arg=live_text.pattern,
    )


# --- saves ------------------------------------------------------------------------------------


def test_reload_brings_back_the_same_game_without_a_score_float(session: Session) -> None:
    session.open(Game(seed=99).to_dict())
    for key in ("ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown", "ArrowLeft"):
        session.page.keyboard.press(key)
    session.wait_idle()
    before = (session.stored(), session.grid(), session.score(), session.best())
    assert before[2] > 0 and before[3] == before[2]
    session.reload()
    assert (session.stored(), session.grid(), session.score(), session.best()) == before
    assert session.page.locator(".score-addition").count() == 0


@pytest.mark.parametrize(
    "saved, reason",
    [
        ('{"format": "py2048", "board": [[2, 0', "not valid JSON"),
        ('{"format": "someone-else", "cells": [1, 2, 3]}', "format"),
        (json.dumps(prepared(OPEN_BOARD) | {"score": 10**6}), "score"),
    ],
    ids=["unparseable", "foreign", "tampered"],
)
def test_an_unusable_save_starts_a_new_game_and_is_backed_up(
    session: Session, saved: str, reason: str
) -> None:
    session.watch.allowed_statuses = {400, 422}  # the server rejecting the save, as it should
    session.open(saved, **{BEST_KEY: "512"})
    notice = session.page.locator("#notice")
    assert notice.is_visible()
    assert reason in notice.inner_text()
    assert BACKUP_KEY in notice.inner_text()
    assert session.stored(BACKUP_KEY) == saved
    fresh = session.stored()
    assert fresh["moves"] == 0 and fresh["score"] == 0
    assert sum(v > 0 for row in session.grid() for v in row) == 2
    assert session.best() == 512
    session.page.keyboard.press("ArrowLeft")  # and the new game plays
    session.page.keyboard.press("ArrowRight")
    session.wait_idle()
    assert session.stored()["moves"] >= 1


def test_a_browser_that_refuses_to_save_is_told_and_play_goes_on(session: Session) -> None:
    session.page.add_init_script(
        "const setItem = Storage.prototype.setItem;\n"
        "Storage.prototype.setItem = function (key, value) {\n"
        "  if (key === 'py2048.state') throw new DOMException('full', 'QuotaExceededError');\n"
        "  return setItem.call(this, key, value);\n"
        "};"
    )
    session.open()
    assert "refused to save" in session.page.inner_text("#notice")
    before = session.grid()
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        session.page.keyboard.press(key)
    session.wait_idle()
    assert session.grid() != before
    assert session.stored() is None


# --- win and game over ------------------------------------------------------------------------


def test_win_banner_keep_going_is_remembered_across_reloads(session: Session) -> None:
    session.open(
        prepared([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0], [2, 0, 0, 0]], score=18432)
    )
    assert not session.visible("#win-banner")
    session.page.keyboard.press("ArrowLeft")
    session.page.wait_for_selector("#win-banner", state="visible")
    assert session.stored()["won"] is True
    assert session.page.evaluate("document.activeElement.id") == "keep-going"
    session.page.keyboard.press("ArrowRight")  # moves wait while the banner asks
    session.page.click("#keep-going")
    session.page.wait_for_selector("#win-banner", state="hidden")
    assert session.stored()["keep_going"] is True
    assert session.stored()["moves"] == 1
    session.reload()
    assert not session.visible("#win-banner")
    session.page.keyboard.press("ArrowRight")
    session.wait_idle()
    assert session.stored()["moves"] == 2
    assert not session.visible("#win-banner")


def test_new_game_on_the_win_banner_wins_over_a_keep_going_still_on_its_way(
    session: Session,
) -> None:
    session.open(prepared([[2048, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], score=20480))
    session.page.wait_for_selector("#win-banner", state="visible")
    held: list[Any] = []
    session.page.route("**/api/keep-going", lambda route: held.append(route))
    session.page.click("#keep-going")
    while not held:
        session.page.wait_for_timeout(10)
    session.page.click("#win-new-game")
    session.page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('py2048.state')).seed !== 7"
    )
    new_game = session.stored()
    with session.page.expect_response("**/api/keep-going"):
        held[0].continue_()
    session.page.wait_for_timeout(200)  # let the page handle the late answer
    assert session.stored() == new_game
    assert not session.visible("#win-banner")


def test_an_unacknowledged_win_shows_its_banner_on_load(session: Session) -> None:
    session.open(prepared([[2048, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], score=20480))
    session.page.wait_for_selector("#win-banner", state="visible")
    session.page.click("#win-new-game")  # the banner's own New game: no question asked
    session.page.wait_for_selector("#win-banner", state="hidden")
    assert session.stored()["won"] is False


def test_a_2048_made_on_the_last_move_shows_the_win_then_game_over(session: Session) -> None:
    board = [[1024, 1024, 8, 16], [4, 32, 64, 128], [8, 16, 32, 64], [2, 4, 8, 16]]
    session.open(prepared(board))
    session.page.keyboard.press("ArrowLeft")
    session.page.wait_for_selector("#win-banner", state="visible")
    assert session.stored()["over"] is True
    assert not session.visible("#over-banner")
    session.page.click("#keep-going")
    session.page.wait_for_selector("#over-banner", state="visible")
    assert "2048" in session.page.inner_text("#final-score")
    assert not session.visible("#win-banner")


def test_game_over_from_a_saved_game_and_try_again(session: Session) -> None:
    stuck = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]]
    session.open(prepared(stuck, score=8))
    session.page.wait_for_selector("#over-banner", state="visible")
    assert session.page.inner_text("#final-score") == "Final score: 8"
    session.page.click("#try-again")  # the game is over: no question asked
    session.page.wait_for_selector("#over-banner", state="hidden")
    assert session.stored()["moves"] == 0 and session.stored()["over"] is False


def test_new_game_during_a_game_asks_first(session: Session) -> None:
    session.open(prepared(OPEN_BOARD))
    session.page.keyboard.press("ArrowLeft")
    session.wait_idle()
    played = session.stored()
    dialog = session.page.get_by_role("dialog", name="Start a new game?")
    session.page.click("#new-game")
    assert dialog.is_visible()
    session.page.get_by_role("button", name="Cancel").click()
    assert not dialog.is_visible()
    session.page.keyboard.press("r")
    assert dialog.is_visible()
    session.page.keyboard.press("Escape")
    assert not dialog.is_visible()
    assert session.stored() == played
    session.page.keyboard.press("r")
    session.page.get_by_role("button", name="Start a new game").click()
    session.page.wait_for_function(
        "seed => JSON.parse(localStorage.getItem('py2048.state')).seed !== seed", arg=played["seed"]
    )
    assert session.stored()["moves"] == 0
    assert session.stored()["seed"] != played["seed"]


def test_new_game_pressed_while_the_save_loads_asks_about_the_saved_game(
    session: Session,
) -> None:
    saved = expected_after(prepared(OPEN_BOARD), ["left"]).to_dict()
    held: list[Any] = []
    session.page.route("**/api/check", lambda route: held.append(route))
    session.open(saved, wait=False)
    while not held:
        session.page.wait_for_timeout(10)
    session.page.click("#new-game")  # before the saved game is back on the board
    held[0].continue_()
    session.wait_ready()
    session.page.get_by_role("dialog", name="Start a new game?").wait_for(timeout=10_000)
    assert session.stored() == saved
    session.page.get_by_role("button", name="Cancel").click()
    assert session.stored() == saved
    assert session.grid() == saved["board"]


def test_a_late_close_event_does_not_swallow_the_answer(session: Session) -> None:
    # The browser may deliver the "close" of a dismissed question after the next key press has
    # asked again (Escape, then R at once). That stale event must not answer the new question.
    session.open(prepared(OPEN_BOARD))
    session.page.keyboard.press("ArrowLeft")
    session.wait_idle()
    played = session.stored()
    session.page.keyboard.press("r")
    assert session.page.get_by_role("dialog", name="Start a new game?").is_visible()
    session.page.eval_on_selector("#confirm-dialog", "d => d.dispatchEvent(new Event('close'))")
    session.page.get_by_role("button", name="Start a new game").click()
    session.page.wait_for_function(
        "seed => JSON.parse(localStorage.getItem('py2048.state')).seed !== seed",
        arg=played["seed"],
        timeout=10_000,
    )
    assert session.stored()["moves"] == 0


def test_a_move_answered_after_a_new_game_does_not_bring_the_old_game_back(
    session: Session,
) -> None:
    # A move still on its way when a new game starts (fast autoplay, or a key and then R) must
    # not overwrite the new game when its answer comes in last.
    session.open(prepared(OPEN_BOARD))
    held: list[Any] = []
    session.page.route("**/api/move", lambda route: held.append(route))
    session.page.keyboard.press("ArrowLeft")
    session.page.wait_for_function("() => document.documentElement.dataset.busy === 'true'")
    while not held:
        session.page.wait_for_timeout(10)
    old_seed = session.stored()["seed"]
    session.page.click("#new-game")
    session.page.wait_for_function(
        "seed => JSON.parse(localStorage.getItem('py2048.state')).seed !== seed", arg=old_seed
    )
    new_game = session.stored()
    with session.page.expect_response("**/api/move"):
        held[0].continue_()
    session.wait_idle()
    assert session.stored() == new_game
    assert session.grid() == new_game["board"]


# --- hint and autoplay ------------------------------------------------------------------------


def test_hint_advises_a_legal_move_and_shows_every_value(session: Session) -> None:
    board = [[2, 4, 8, 16], [0, 0, 0, 32], [0, 0, 0, 64], [0, 0, 0, 0]]
    session.open(prepared(board))
    session.page.click("#hint")
    session.page.wait_for_selector("#hint-panel", state="visible", timeout=30_000)
    legal = {str(d) for d in Game.from_board(board).legal_moves()}
    advice = session.page.inner_text("#hint-advice")
    advised = next(d for d in ("up", "right", "down", "left") if f"move {d}" in advice)
    assert advised in legal
    rows = session.page.locator("#hint-values tr").all_inner_texts()
    assert len(rows) == 4
    for row in rows:
        direction = row.split()[1]
        assert ("not possible" in row) == (direction not in legal), row
    session.page.keyboard.press(f"Arrow{advised.capitalize()}")
    session.page.wait_for_selector("#hint-panel", state="hidden")


def test_autoplay_plays_legal_moves_until_the_player_takes_over(session: Session) -> None:
    session.open(Game(seed=5).to_dict())
    session.page.select_option("#speed", "fast")
    button = session.page.locator("#autoplay")
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    session.wait_moves(8, timeout=60_000)
    session.page.keyboard.press("ArrowDown")  # the player takes over
    assert button.get_attribute("aria-pressed") == "false"
    session.wait_idle()
    state = session.stored()
    replayed = Game.replay(state["seed"], state["history"])
    assert replayed.to_dict() == state  # every move recorded was a real, legal move
    session.page.wait_for_timeout(600)
    assert session.stored()["moves"] == state["moves"]  # nothing plays after the takeover
    assert session.page.evaluate("localStorage.getItem('py2048.autoplay.speed')") == "fast"


def test_hints_and_autoplay_search_with_the_presets_the_server_names(session: Session) -> None:
    """The page names no preset itself: a hint asks for the server's default preset, fast
    autoplay for its quickest (answered here as other presets than the solver's, to tell)."""
    named = {"presets": [asdict(p) for p in PRESETS.values()], "default": "strong"}
    named["quickest"] = "balanced"
    session.page.route("**/api/presets", lambda route: route.fulfill(json=named))
    asked: list[str] = []

    def on_request(request: Any) -> None:
        if request.url.endswith("/api/hint"):
            asked.append(json.loads(request.post_data)["preset"])

    session.page.on("request", on_request)
    session.open(Game(seed=5).to_dict())
    session.page.click("#hint")
    session.page.wait_for_selector("#hint-panel", state="visible", timeout=30_000)
    assert asked == ["strong"]
    session.page.select_option("#speed", "fast")
    session.page.click("#autoplay")
    session.wait_moves(3, timeout=60_000)
    session.page.click("#autoplay")
    session.wait_idle()
    assert len(asked) > 3 and set(asked[1:]) == {"balanced"}


# --- look, languages, accessibility -------------------------------------------------------------


def test_board_is_a_grid_of_named_cells(session: Session) -> None:
    session.open(
        prepared([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 131072, 0], [0, 0, 0, 4]], score=2_000_000)
    )
    grid = session.page.get_by_role("grid", name="Game board")
    assert grid.get_by_role("row").count() == 4
    cells = grid.get_by_role("gridcell")
    assert cells.count() == 16
    assert [cells.nth(i).get_attribute("aria-label") for i in (0, 1, 10, 15)] == [
        "2",
        "empty",
        "131072",
        "4",
    ]
    assert session.page.get_by_label("Score", exact=True).inner_text() == "2000000"
    assert session.page.get_by_label("Best", exact=True).inner_text() == "2000000"


def test_every_button_is_reachable_with_tab(session: Session) -> None:
    session.open()
    reached = set()
    for _ in range(20):
        session.page.keyboard.press("Tab")
        reached.add(session.page.evaluate("document.activeElement.id"))
    assert {"new-game", "hint", "autoplay", "speed", "language"} <= reached


def contrast(foreground: str, background: str) -> float:
    def luminance(css: str) -> float:
        channels = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


TILE_COLOURS_JS = """faces => faces.map(f => {
  const s = getComputedStyle(f);
  return [f.textContent, s.color, s.backgroundColor, s.fontSize, f.scrollWidth <= f.clientWidth];
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_tile_has_its_own_colour_and_aa_contrast(
    browser: Any, server_url: str, scheme: str
) -> None:
    with open_session(browser, server_url, color_scheme=scheme) as session:
        session.page.goto(f"{server_url}/rules/en")
        tiles = session.page.eval_on_selector_all(".ladder .tile-face", TILE_COLOURS_JS)
        assert [int(value) for value, *_ in tiles] == TILE_VALUES
        assert len({background for _, _, background, _, _ in tiles}) == len(TILE_VALUES)
        for value, colour, background, _, fits in tiles:
            assert contrast(colour, background) >= 4.5, (value, colour, background)
            assert fits, f"{value} overflows its tile"
        ladder = {value: (colour, background) for value, colour, background, _, _ in tiles}
        for page in ("/strategy", "/rules/fr"):  # the pictures in the pages use the same colours
            session.page.goto(f"{server_url}{page}")
            pictured = session.page.eval_on_selector_all(".mini-board .tile-face", TILE_COLOURS_JS)
            assert pictured, page
            for value, colour, background, _, fits in pictured:
                assert (colour, background) == ladder[value], (page, value)
                assert fits, f"{value} overflows its tile on {page}"
        board = [
            [131072, 65536, 32768, 16384],
            [8192, 4096, 2048, 1024],
            [512, 256, 128, 64],
            [32, 16, 8, 2],
        ]
        session.open(prepared(board, score=3_000_000), **{"py2048.language": "en"})
        on_board = session.page.eval_on_selector_all("#tiles .tile-face", TILE_COLOURS_JS)
        assert {value for value, *_ in on_board} == {str(v) for row in board for v in row}
        for value, colour, background, _, fits in on_board:
            assert (colour, background) == ladder[value]  # the game and the pages agree
            assert fits, f"{value} overflows its tile on the board"


def test_fits_a_360_px_screen(browser: Any, server_url: str) -> None:
    with open_session(browser, server_url, viewport={"width": 360, "height": 740}) as session:
        session.open()
        page = session.page
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        box = page.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360


def test_reduced_motion_skips_animations(browser: Any, server_url: str) -> None:
    with open_session(browser, server_url, reduced_motion="reduce") as session:
        session.open(prepared([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]))
        session.page.keyboard.press("ArrowLeft")
        session.wait_idle()
        durations = session.page.eval_on_selector_all(
            "#tiles .tile, #tiles .tile-face",
            "els => els.map(e => [getComputedStyle(e).transitionDuration, "
            "getComputedStyle(e).animationName])",
        )
        assert durations and all(d == ["0s", "none"] for d in durations)
        assert session.page.locator(".score-addition").count() == 0


def test_language_follows_the_browser_and_the_choice_is_remembered(
    browser: Any, server_url: str
) -> None:
    with open_session(browser, server_url, locale="ru-RU") as session:
        session.open()
        page = session.page
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.inner_text("#new-game") == "Новая игра"
        assert page.get_by_role("grid", name="Игровое поле").is_visible()
        page.select_option("#language", "fr")
        page.wait_for_function("() => document.documentElement.lang === 'fr'")
        assert page.inner_text("#new-game") == "Nouvelle partie"
        assert page.get_attribute("#rules-link", "href") == "/rules/fr"
        session.reload()
        assert page.inner_text("#new-game") == "Nouvelle partie"
        assert "vide" in page.eval_on_selector_all(
            "[role=gridcell]", "cells => cells.map(c => c.getAttribute('aria-label'))"
        )


@pytest.mark.parametrize("language", ["en", "ru", "ro", "fr"])
def test_rules_page_renders_in_every_language(session: Session, language: str) -> None:
    page = session.page
    page.goto(f"{session.url}/rules/{language}")
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("h1").is_visible()
    ladder = page.locator(".ladder .tile-face").all_inner_texts()
    assert ladder == [str(v) for v in TILE_VALUES]
    keys = set(page.locator("table kbd").all_inner_texts())
    assert {"↑", "→", "↓", "←", "W", "A", "S", "D", "H", "J", "K", "L", "R"} <= keys
    for href in ("/", "/strategy", "/solver", "/rules/en", "/rules/ru", "/rules/ro", "/rules/fr"):
        assert page.locator(f'a[href="{href}"]').count() >= 1, href
    assert page.evaluate("document.documentElement.scrollWidth") <= 800


def test_strategy_page_draws_its_boards_and_links_back(session: Session) -> None:
    page = session.page
    page.goto(f"{session.url}/strategy")
    assert page.locator("h1").inner_text() == "2048 strategy"
    assert page.locator("section .mini-board").count() >= 5
    assert page.locator('a[href="/"]').count() >= 1
    assert page.locator("pre").filter(has_text="benchmarks/strategy.py").count() >= 1
    page.click('a[href="/"] >> nth=0')
    session.wait_ready()
