"""What fits on a player's screen: the game on laptops and a phone in every language, the header
in at most two rows, the help for the screen at hand, the "+N" beside the score, and the pages
that must read without sideways scrolling. Screenshots of every size go to pytest's tmp_path."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from py2048.web.languages import LANGUAGES
from tests.web.browser import OPEN_BOARD, Session, browser, open_session, prepared

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the fixture, taken from tests.web.browser

BROWSER_CHROME_PX = 120
"""What a desktop browser's own tabs, address bar and borders take from the screen's height."""
LAPTOPS = [(1280, 800), (1366, 768), (1440, 900)]
PHONE = (390, 844)
PHONE_CHROME_PX = 100
"""A phone browser's address bar and toolbar."""

BOX_JS = """el => { const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, width: r.width,
          height: r.height}; }"""


def box(session: Session, selector: str) -> dict[str, float]:
    return session.page.eval_on_selector(selector, BOX_JS)


def assert_inside(session: Session, selectors: list[str], width: int, height: int, shot: Path):
    session.page.screenshot(path=str(shot))
    assert session.page.evaluate("window.scrollY") == 0, f"the page scrolled; see {shot}"
    for selector in selectors:
        found = box(session, selector)
        assert found["width"] > 0 and found["height"] > 0, f"{selector} is not shown; see {shot}"
        inside = (
            found["x"] >= 0
            and found["y"] >= 0
            and found["right"] <= width
            and found["bottom"] <= height
        )
        assert inside, f"{selector} at {found} is outside {width}x{height}; see {shot}"
    assert session.page.evaluate("document.documentElement.scrollWidth") <= width, shot


def header_rows(session: Session) -> int:
    """How many rows the header's links and language control take."""
    tops = session.page.eval_on_selector_all(
        ".site-nav > a, .site-nav > .languages",
        "items => items.map(i => Math.round(i.getBoundingClientRect().top))",
    )
    rows: list[int] = []
    for top in sorted(tops):
        if not rows or top - rows[-1] > 8:
            rows.append(top)
    return len(rows)


def open_game(browser: Any, server_url: str, size: tuple[int, int], **options: Any):
    width, height = size
    return open_session(browser, server_url, viewport={"width": width, "height": height}, **options)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("screen", LAPTOPS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_laptop_the_board_scores_controls_and_hint_show_without_scrolling(
    browser: Any, server_url: str, tmp_path: Path, screen: tuple[int, int], language: str
) -> None:
    width, height = screen[0], screen[1] - BROWSER_CHROME_PX
    answer = {"direction": "left", "values": {"left": 9.5, "down": 3.0}, "depth": 2}
    answer["grades"] = {"left": "best", "down": "blunder"}
    with open_game(browser, server_url, (width, height), locale=language) as session:
        session.page.route(
            "**/api/hint", lambda route: route.fulfill(json=answer | {"elapsed_ms": 0.4})
        )
        session.open(prepared(OPEN_BOARD, score=16), **{"py2048.language": language})
        session.page.click("#hint")
        session.page.wait_for_selector("#hint-panel", state="visible")
        shot = tmp_path / f"game-{screen[0]}x{screen[1]}-{language}.png"
        assert_inside(
            session,
            ["#board", ".scores", "#new-game", "#hint", "#autoplay", "#speed", "#hint-panel"],
            width,
            height,
            shot,
        )
        assert header_rows(session) <= 2, shot


def control_rows(session: Session) -> int:
    """How many rows the game's buttons and menus take."""
    tops = session.page.eval_on_selector_all(
        ".controls .button:not([hidden]), .controls select",
        "items => items.map(i => Math.round(i.getBoundingClientRect().top))",
    )
    rows: list[int] = []
    for top in sorted(tops):
        if not rows or top - rows[-1] > 8:
            rows.append(top)
    return len(rows)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("screen", LAPTOPS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_laptop_the_controls_keep_to_two_rows_in_every_language(
    browser: Any, server_url: str, tmp_path: Path, screen: tuple[int, int], language: str
) -> None:
    width, height = screen[0], screen[1] - BROWSER_CHROME_PX
    with open_game(browser, server_url, (width, height), locale=language) as session:
        session.open(prepared(OPEN_BOARD), **{"py2048.language": language})
        session.page.click("#practice")  # Undo shows too
        session.page.wait_for_selector("#undo", state="visible")
        shot = tmp_path / f"controls-{screen[0]}x{screen[1]}-{language}.png"
        session.page.screenshot(path=str(shot))
        assert control_rows(session) <= 2, shot


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_board_and_the_controls_fit_the_first_screen(
    browser: Any, server_url: str, tmp_path: Path, language: str
) -> None:
    width, height = PHONE[0], PHONE[1] - PHONE_CHROME_PX
    with open_game(
        browser, server_url, (width, height), locale=language, has_touch=True, is_mobile=True
    ) as session:
        session.open(prepared(OPEN_BOARD, score=16), **{"py2048.language": language})
        shot = tmp_path / f"game-phone-{language}.png"
        assert_inside(
            session,
            ["#board", ".scores", "#new-game", "#hint", "#autoplay", "#speed"],
            width,
            height,
            shot,
        )
        assert header_rows(session) <= 2, shot


@pytest.mark.parametrize("page", ["/rules/{lang}", "/strategy", "/solver"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_never_takes_more_than_two_rows(
    browser: Any, server_url: str, language: str, page: str
) -> None:
    for width in (PHONE[0], 800, LAPTOPS[0][0]):
        with open_game(browser, server_url, (width, 700), locale=language) as session:
            session.page.goto(server_url + page.format(lang=language))
            assert header_rows(session) <= 2, (page, language, width)


def test_a_phone_shows_help_for_swipes_and_a_keyboard_help_for_keys(
    browser: Any, server_url: str
) -> None:
    with open_game(browser, server_url, PHONE, has_touch=True, is_mobile=True) as session:
        session.open()
        assert session.visible(".touch-help") and not session.visible(".keys-help")
        assert "Swipe" in session.page.inner_text("#board-help")
    with open_game(browser, server_url, LAPTOPS[0]) as session:
        session.open()
        assert session.visible(".keys-help") and not session.visible(".touch-help")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    apart_sideways = a["right"] <= b["x"] or b["right"] <= a["x"]
    return not (apart_sideways or a["bottom"] <= b["y"] or b["bottom"] <= a["y"])


ADDITION_AND_LABELS_JS = f"""() => {{
  const addition = document.querySelector(".score-addition");
  if (!addition) return null;
  const measure = {BOX_JS};
  const boxes = {{addition: measure(addition)}};
  for (const label of ["#score-label", "#best-label", "#score"]) {{
    boxes[label] = measure(document.querySelector(label));
  }}
  return boxes;
}}"""


def test_the_points_of_a_move_show_beside_the_score_and_then_go(
    browser: Any, server_url: str
) -> None:
    with open_game(browser, server_url, LAPTOPS[0]) as session:
        session.open(prepared([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]))
        session.page.keyboard.press("ArrowLeft")
        session.page.wait_for_selector(".score-addition")
        assert session.page.inner_text(".score-addition") == "+4"
        for _ in range(6):  # through the whole fade
            # One snapshot in the page: the "+N" may go between two separate measurements.
            boxes = session.page.evaluate(ADDITION_AND_LABELS_JS)
            if boxes is None:
                break
            for label in ("#score-label", "#best-label", "#score"):
                assert not overlaps(boxes["addition"], boxes[label]), label
            session.page.wait_for_timeout(100)
        session.page.wait_for_timeout(800)
        assert session.page.locator(".score-addition").count() == 0


def test_code_on_the_pages_wraps_instead_of_scrolling_sideways(
    browser: Any, server_url: str
) -> None:
    with open_game(browser, server_url, PHONE) as session:
        for page in ("/strategy", "/solver"):
            session.page.goto(server_url + page)
            widths = session.page.eval_on_selector_all(
                "pre", "blocks => blocks.map(b => [b.scrollWidth, b.clientWidth])"
            )
            assert widths, page
            assert all(scroll <= client for scroll, client in widths), (page, widths)
            assert session.page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


CHART_JS = """chart => {
  const page = getComputedStyle(document.body).backgroundColor;
  const bars = [...chart.querySelectorAll('rect[class^="chart-bar-"]')];
  const texts = [...chart.querySelectorAll('text')];
  return {
    width: chart.getBoundingClientRect().width,
    height: chart.getBoundingClientRect().height,
    page,
    bars: bars.map(b => [getComputedStyle(b).fill, b.getBoundingClientRect().width]),
    texts: [...new Set(texts.map(t => getComputedStyle(t).fill))],
  };
}"""


def luminance(css: str) -> float:
    channels = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_solver_page_is_short_and_its_chart_reads_in_both_themes(
    browser: Any, server_url: str, tmp_path: Path, scheme: str
) -> None:
    width, height = LAPTOPS[0]
    with open_game(browser, server_url, (width, height), color_scheme=scheme) as session:
        session.page.goto(f"{server_url}/solver")
        session.page.screenshot(path=str(tmp_path / f"solver-{scheme}.png"), full_page=True)
        tall = session.page.evaluate("document.documentElement.scrollHeight")
        assert tall <= 3 * height, f"the solver page is {tall} px tall"
        chart = session.page.eval_on_selector("svg.chart", CHART_JS)
        assert chart["width"] >= 300 and chart["height"] >= 150
        assert chart["bars"] and all(bar_width > 0 for _, bar_width in chart["bars"])
        for fill, _ in chart["bars"]:
            assert contrast(fill, chart["page"]) >= 3, (scheme, fill)  # graphics: 3:1
        for fill in chart["texts"]:
            assert contrast(fill, chart["page"]) >= 4.5, (scheme, fill)
        assert session.page.locator('a[href$=".md"], a[href^="/solver/notes"]').count() == 0


CHART_TEXTS_JS = """chart => {
  const frame = chart.getBoundingClientRect();
  const texts = [...chart.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, x: r.left, y: r.top, right: r.right, bottom: r.bottom};
  });
  return {frame: {x: frame.left, y: frame.top, right: frame.right, bottom: frame.bottom}, texts};
}"""


@pytest.mark.parametrize("screen", [(1366, 768), PHONE], ids=["1366x768", "phone"])
def test_the_solver_charts_labels_are_whole_and_apart(
    browser: Any, server_url: str, tmp_path: Path, screen: tuple[int, int]
) -> None:
    with open_game(browser, server_url, screen) as session:
        session.page.goto(f"{server_url}/solver")
        session.page.locator("svg.chart").screenshot(path=str(tmp_path / "chart.png"))
        found = session.page.eval_on_selector("svg.chart", CHART_TEXTS_JS)
        frame, texts = found["frame"], found["texts"]
        assert any("balanced + tables" in t["text"] for t in texts)
        for text in texts:
            inside = (
                text["x"] >= frame["x"] - 0.5
                and text["right"] <= frame["right"] + 0.5
                and text["y"] >= frame["y"] - 0.5
                and text["bottom"] <= frame["bottom"] + 0.5
            )
            assert inside, (text, frame)
        for index, a in enumerate(texts):
            for b in texts[index + 1 :]:
                assert not overlaps(a, b), (a["text"], b["text"])


@pytest.mark.parametrize("screen", [(1366, 768), PHONE], ids=["1366x768", "phone"])
def test_the_strategy_pages_measured_run_reads_as_a_table(
    browser: Any, server_url: str, tmp_path: Path, screen: tuple[int, int]
) -> None:
    """One row per line of the run, never wrapped: whole at 1366x768; on a phone it scrolls
    sideways in its own box while the page does not."""
    with open_game(browser, server_url, screen) as session:
        session.page.goto(f"{server_url}/strategy#method")
        session.page.screenshot(path=str(tmp_path / "method.png"))
        table = session.page.locator("table.figures")
        assert table.locator("tbody tr").count() == 8
        heights = table.locator("tbody tr").evaluate_all(
            "rows => rows.map(r => r.getBoundingClientRect().height)"
        )
        assert max(heights) < 30, heights  # no row wraps onto a second line
        region = session.page.locator(".table-scroll:has(table.figures)")
        scroll, client = region.evaluate("r => [r.scrollWidth, r.clientWidth]")
        if screen[0] >= 1366:
            assert scroll <= client
        assert session.page.evaluate("document.documentElement.scrollWidth") <= screen[0]
