"""What the browser tests share: headless Chromium (Playwright, sync API) against the real
server, a watched session on the game page, and prepared saves.

Every test runs in a fresh browser context (empty localStorage) and fails on a console error, an
uncaught exception or any request that leaves the test server. Without /usr/bin/chromium the
tests are skipped, unless PY2048_REQUIRE_BROWSER=1 (CI) makes that a failure. A test module
takes the `browser` and `session` fixtures by importing them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from py2048 import Game

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
HOLD_REQUESTS_JS = """path => {
  window.heldRequests = [];
  const sendNow = window.fetch.bind(window);
  window.fetch = (resource, options) => {
    if (!String(resource).endsWith(path)) return sendNow(resource, options);
    return new Promise((resolve) => {
      window.heldRequests.push(() => resolve(sendNow(resource, options)));
    });
  };
}"""
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
        self.held_path = ""
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

    def hold_requests(self, path: str) -> None:
        """From the next page load on, the page's requests to `path` wait (a slow network) until
        `release_held` lets the first one go. The page holds them itself, so a test never
        depends on the browser driver delivering an interception in time."""
        self.page.add_init_script(f"({HOLD_REQUESTS_JS})({json.dumps(path)})")
        self.held_path = path

    def wait_held(self) -> None:
        self.page.wait_for_function("() => window.heldRequests.length > 0")

    def release_held(self) -> None:
        """Send the first held request and return once its answer came in."""
        with self.page.expect_response(f"**{self.held_path}"):
            self.page.evaluate("() => window.heldRequests.shift()()")

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
