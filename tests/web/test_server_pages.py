"""The pages: served at their addresses, in the browser's language, framed by the site, loading
nothing from anywhere but this server; and the API documented in /docs."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from py2048.web.charts import strength_results
from py2048.web.languages import LANGUAGES, labels, negotiate_language
from py2048.web.markdown import render_markdown_page

PAGES = [
    "/",
    "/rules",
    *(f"/rules/{lang}" for lang in LANGUAGES),
    "/strategy",
    "/solver",
]


class References(HTMLParser):
    """What a page loads (scripts, styles, images, frames...) and where its links go."""

    LOADING: ClassVar[dict[str, str]] = {
        "script": "src",
        "img": "src",
        "source": "src",
        "iframe": "src",
        "embed": "src",
    }

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.links: list[str] = []
        self.lang: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.lang = values.get("lang")
        if tag in self.LOADING and self.LOADING[tag] in values:
            self.loads.append(values[self.LOADING[tag]])
        if tag == "link" and "href" in values:
            self.loads.append(values["href"])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])


def references(html: str) -> References:
    parser = References()
    parser.feed(html)
    return parser


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("", "data") and not parts.netloc


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_html_loading_only_from_this_server(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    found = references(response.text)
    assert found.loads, "every page loads at least the site's stylesheet"
    assert all(is_local(url) for url in found.loads), found.loads
    for url in found.loads:
        if not url.startswith("data:"):
            assert http.get(urljoin(path, url)).status_code == 200, url


def test_scripts_and_styles_are_served_with_types_browsers_accept(http: httpx.Client) -> None:
    page = references(http.get("/").text)
    scripts = [url for url in page.loads if url.endswith(".js")]
    styles = [url for url in page.loads if url.endswith(".css")]
    assert scripts and styles
    for url in scripts:
        assert http.get(url).headers["content-type"].startswith("text/javascript")
    for url in styles:
        assert http.get(url).headers["content-type"].startswith("text/css")


def test_every_link_between_pages_leads_somewhere(http: httpx.Client) -> None:
    seen: set[str] = set()
    to_visit = ["/"]
    while to_visit:
        path = to_visit.pop()
        if path in seen:
            continue
        seen.add(path)
        response = http.get(path)
        assert response.status_code == 200, f"{path} is linked but answers {response.status_code}"
        if response.headers["content-type"].startswith("text/html"):
            for link in references(response.text).links:
                target = urlsplit(urljoin(path, link))
                if not target.netloc and target.path:
                    to_visit.append(target.path)
    assert {"/strategy", "/solver"} <= seen
    assert any(path.startswith("/rules") for path in seen)


@pytest.mark.parametrize(
    ("accept_language", "lang"),
    [
        (None, "en"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("de-DE, fr;q=0.5, en;q=0.4", "fr"),
        ("en;q=0.3, ro", "ro"),
        ("fr;q=0", "en"),
        ("*", "en"),
        ("de", "en"),
    ],
)
def test_rules_follow_the_browsers_language(
    http: httpx.Client, accept_language: str | None, lang: str
) -> None:
    headers = {"accept-language": accept_language} if accept_language else {}
    response = http.get("/rules", headers=headers)
    assert response.status_code == 200
    assert response.headers["content-language"] == lang
    assert "Accept-Language" in response.headers["vary"]
    assert references(response.text).lang == lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_in_a_chosen_language(http: httpx.Client, lang: str) -> None:
    by_query = http.get("/rules", params={"lang": lang}, headers={"accept-language": "de"})
    by_path = http.get(f"/rules/{lang}")
    for response in (by_query, by_path):
        assert response.status_code == 200
        assert references(response.text).lang == lang
    assert by_query.text == by_path.text


def test_rules_in_a_language_we_do_not_have_say_which_we_have(http: httpx.Client) -> None:
    for response in (http.get("/rules", params={"lang": "de"}), http.get("/rules/de")):
        assert response.status_code == 404
        assert "en, ru, ro, fr" in response.json()["detail"]


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize("path", ["/no-such-page", "/rules/de", "/static/no-such-file.css"])
def test_a_browser_asking_for_a_missing_page_gets_an_html_page(
    http: httpx.Client, path: str
) -> None:
    response = http.get(path, headers={"accept": BROWSER_ACCEPT})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "<h1>Page not found</h1>" in response.text
    assert '<a href="/">Play 2048</a>' in response.text
    assert 'class="site-nav"' in response.text  # the site's frame
    if path == "/rules/de":
        assert "en, ru, ro, fr" in response.text


@pytest.mark.parametrize("path", ["/no-such-page", "/api/no-such-route"])
def test_the_api_and_scripts_still_get_json_for_a_missing_address(
    http: httpx.Client, path: str
) -> None:
    for accept in ("application/json", "*/*"):
        response = http.get(path, headers={"accept": accept})
        assert response.status_code == 404
        assert response.json() == {"detail": "Not Found"}
    answer = http.get("/api/no-such-route", headers={"accept": BROWSER_ACCEPT})
    assert answer.json() == {"detail": "Not Found"}


@given(st.text(max_size=200))
def test_any_accept_language_header_picks_a_language_we_have(header: str) -> None:
    assert negotiate_language(header) in LANGUAGES


def test_the_solver_page_is_the_markdown_in_the_sites_frame(tmp_path: Path) -> None:
    source = tmp_path / "solver.md"
    source.write_text(
        "# How the solver <works>\n\nIt *searches*.\n\n| depth | score |\n|---|---|\n| d1 | 1 |\n\n"
        "<script>alert(1)</script>\n",
        encoding="utf-8",
    )
    html = render_markdown_page(source, source.stat().st_mtime_ns)
    assert "<title>How the solver &lt;works&gt; · py2048</title>" in html
    assert "<em>searches</em>" in html
    assert '<div class="table-scroll"' in html and "<td>d1</td>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    found = references(html)
    assert "/static/css/site.css" in found.loads
    assert {"/", "/rules/en", "/strategy", "/solver"} <= set(found.links)


class Frame(HTMLParser):
    """The frame's parts: the navigation's links and labels, the language choices."""

    def __init__(self) -> None:
        super().__init__()
        self.nav: dict[str, str] = {}
        self.current: list[str] = []
        self.options: list[str] = []
        self.language_links: list[str] = []
        self._href: str | None = None
        self._in_languages = False
        self._in_nav = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self._in_nav = self._in_nav or tag == "nav"
        if not self._in_nav:
            return
        if "languages" in values.get("class", "").split():
            self._in_languages = True
        if tag == "a" and self._in_languages:
            self.language_links.append(values["href"])
        elif tag == "a" and "data-i18n" in values:
            self._href = values["href"]
            if values.get("aria-current") == "page":
                self.current.append(values["href"])
        if tag == "option" and self._in_languages:
            self.options.append(values["value"])

    def handle_endtag(self, tag: str) -> None:
        self._in_nav = self._in_nav and tag != "nav"
        if tag in ("div", "label"):
            self._in_languages = False
        self._href = None if tag == "a" else self._href

    def handle_data(self, data: str) -> None:
        if self._href is not None and data.strip():
            self.nav[self._href] = data.strip()


def frame_of(html: str) -> Frame:
    frame = Frame()
    frame.feed(html)
    return frame


@pytest.mark.parametrize(
    "path, current",
    [
        ("/", "/"),
        *((f"/rules/{lang}", f"/rules/{lang}") for lang in LANGUAGES),
        ("/strategy", "/strategy"),
        ("/solver", "/solver"),
    ],
)
def test_every_page_is_one_frame_in_its_language(
    http: httpx.Client, path: str, current: str
) -> None:
    html = http.get(path).text
    lang = references(html).lang
    assert lang in LANGUAGES
    frame = frame_of(html)
    texts = labels(lang)
    assert frame.nav == {
        "/": texts["nav.game"],
        f"/rules/{lang}": texts["nav.rules"],
        "/strategy": texts["nav.strategy"],
        "/solver": texts["nav.solver"],
    }
    assert frame.current == [current]
    assert html.count('class="site-header"') == 1 and html.count("<main") == 1


def test_the_languages_come_from_one_list(http: httpx.Client) -> None:
    """The game's Language menu and the rules' language links both list pages.LANGUAGES, each
    language named in its own words from its labels."""
    game = http.get("/").text
    assert frame_of(game).options == list(LANGUAGES)
    for lang in LANGUAGES:
        assert f'lang="{lang}">{labels(lang)["language.name"]}</' in game
        rules = frame_of(http.get(f"/rules/{lang}").text)
        assert rules.language_links == [f"/rules/{other}" for other in LANGUAGES]


def test_the_tile_colours_are_served_from_the_palette(http: httpx.Client) -> None:
    response = http.get("/static/css/tiles.css")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert ".tile-131072 { --tile-bg:" in response.text


def test_the_solver_page_shows_docs_solver_md(http: httpx.Client) -> None:
    response = http.get("/solver")
    assert response.status_code == 200
    assert (
        '<h1 id="the-2048-solver">' in response.text
        and 'aria-current="page">2048 solver' in response.text
    )


def test_the_solver_page_draws_its_chart_from_the_measured_results(http: httpx.Client) -> None:
    page = http.get("/solver").text
    chart = re.search(r'<svg class="chart" role="img".*?</svg>', page, re.DOTALL)
    assert chart, "the chart is inline SVG"
    programs = strength_results()["programs"]
    for program in programs:
        assert f">{program['short_name']}</text>" in chart[0]
        for tile in ("16384", "32768"):
            assert f">{program['reached'][tile]:g}%</text>" in chart[0]
    assert chart[0].count('<rect class="chart-bar-') == 2 * len(programs) + 2


def test_the_solver_pages_table_shows_the_figures_its_chart_draws(http: httpx.Client) -> None:
    page = http.get("/solver").text
    for program in strength_results()["programs"]:
        mean = f"{program['mean_score']:,}"
        reached = [f"{program['reached'][tile]:g}" for tile in ("16384", "32768")]
        row = re.search(rf"<td>{re.escape(mean)}</td>\s*<td>([\d.]+)%</td>\s*<td>([\d.]+)%", page)
        assert row, program["name"]
        assert [f"{float(v):g}" for v in row.groups()] == reached, program["name"]


def test_the_solver_page_links_no_developer_document_and_none_is_served(
    http: httpx.Client,
) -> None:
    """The developers' documents (the solver reference, the results record) are not pages of
    the site: the solver page links none of them, and their old address is the site's 404."""
    page = http.get("/solver").text
    assert not [link for link in references(page).links if ".md" in link or "/notes" in link]
    notes = http.get("/solver/notes", headers={"accept": BROWSER_ACCEPT})
    assert notes.status_code == 404 and "<h1>Page not found</h1>" in notes.text


def test_the_api_is_documented_with_models_and_examples(http: httpx.Client) -> None:
    schema = http.get("/openapi.json").json()
    for path in ("/api/new", "/api/move", "/api/keep-going", "/api/hint"):
        operation = schema["paths"][path]["post"]
        assert operation["summary"] and operation["description"]
        assert {"200", "400", "413", "422"} <= set(operation["responses"])
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        if "$ref" in body:
            model = schema["components"]["schemas"][body["$ref"].split("/")[-1]]
            assert model["examples"], path
    docs = http.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text
    assert "//" not in docs.text.replace("http://www.w3.org", ""), "docs load from elsewhere"
    assets = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert assets and all(http.get(url).status_code == 200 for url in assets)
