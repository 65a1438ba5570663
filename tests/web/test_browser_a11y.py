"""axe-core, the open-source accessibility engine (vendored in tests/web/vendor, loaded into the
page by the test only), finds no violation on the game page, in a game, under a banner and with
the hint shown, nor on any content page, in the light and the dark theme."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from py2048.web.languages import LANGUAGES
from tests.web.browser import OPEN_BOARD, Session, browser, open_session, prepared

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the fixture, taken from tests.web.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
SCHEMES = ["light", "dark"]
RUN_AXE = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .map(v => ({rule: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 5).map(n => n.target.join(" "))}))"""


def violations(session: Session) -> list[dict[str, Any]]:
    """What axe finds wrong on the page once its animations (a banner fading in) are over."""
    session.page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState === 'finished')"
    )
    session.page.evaluate(AXE.read_text(encoding="utf-8"))  # not subject to the page's CSP
    return session.page.evaluate(RUN_AXE)


@pytest.fixture(params=SCHEMES)
def themed(request: pytest.FixtureRequest, browser: Any, server_url: str):
    with open_session(browser, server_url, color_scheme=request.param) as opened:
        yield opened


def test_the_game_in_progress(themed: Session) -> None:
    themed.open(prepared(OPEN_BOARD, score=16))
    themed.page.keyboard.press("ArrowLeft")
    themed.wait_idle()
    assert violations(themed) == []


def test_the_game_under_its_win_banner(themed: Session) -> None:
    themed.open(prepared([[2048, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], score=20480))
    themed.page.wait_for_selector("#win-banner", state="visible")
    assert violations(themed) == []


def test_the_game_with_the_hint_shown(themed: Session) -> None:
    answer = {"direction": "left", "values": {"left": 120.5, "down": 80.0}, "depth": 2}
    answer["grades"] = {"left": "best", "down": "blunder"}
    themed.page.route("**/api/hint", lambda route: route.fulfill(json=answer | {"elapsed_ms": 1}))
    themed.open(prepared(OPEN_BOARD, score=16))
    themed.page.click("#hint")
    themed.page.wait_for_selector("#hint-panel", state="visible")
    themed.page.click(".hint-details summary")
    assert violations(themed) == []


def test_the_game_with_its_statistics_and_past_games_open(themed: Session) -> None:
    themed.open(prepared([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 8, 16, 32]], seed=0))
    themed.page.keyboard.press("ArrowLeft")  # the game ends, and is kept
    themed.page.wait_for_selector("#over-banner", state="visible")
    themed.page.click("#statistics")
    themed.page.wait_for_selector("#games-body tr")
    themed.page.click("#stats-reset")
    assert violations(themed) == []


def test_the_game_on_a_phone(browser: Any, server_url: str) -> None:
    with open_session(
        browser, server_url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    ) as session:
        session.open(prepared(OPEN_BOARD))
        assert violations(session) == []


@pytest.mark.parametrize(
    "path",
    [
        *(f"/rules/{lang}" for lang in LANGUAGES),
        "/strategy",
        "/solver",
        "/no-such-page",
    ],
)
def test_every_content_page(themed: Session, path: str) -> None:
    themed.watch.allowed_statuses.add(404)  # the missing page's own status
    themed.page.goto(themed.url + path)
    assert violations(themed) == []
