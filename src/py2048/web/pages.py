"""The HTML pages: the game, its review, "How to play" in every language, "2048 strategy",
"2048 solver".

Every page is one frame (``templates/page.html``: the head, the navigation, the language
switch) around its own content. The game, the rules and the strategy are HTML fragments written
by hand (``content/``); the solver page is ``docs/solver.md`` rendered on the server, so the
solver's page for players has one source. The developers' documents (``docs/solver-reference.md``,
``docs/results.md``) are neither shipped nor served.

The site's languages are :data:`LANGUAGES`, and nothing else lists them: the navigation, the
game's language menu and the rules' language links all come from it. A language is its labels
(``static/locales/<lang>.json``, which the game page loads too) and its rules
(``content/rules.<lang>.html``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from pathlib import Path
from string import Template
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.responses import HTMLResponse, Response
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from py2048.palette import tile_stylesheet
from py2048.web.charts import CHARTS
from py2048.web.docs import doc_path

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
CONTENT_DIR = WEB_DIR / "content"
LOCALES_DIR = STATIC_DIR / "locales"
TEMPLATE_PATH = WEB_DIR / "templates" / "page.html"
LANGUAGES = ("en", "ru", "ro", "fr")
"""The site's languages, in the order the menus list them."""
DEFAULT_LANGUAGE = "en"

NAVIGATION = (
    ("game", "/"),
    ("rules", "/rules/{lang}"),
    ("strategy", "/strategy"),
    ("solver", "/solver"),
)
"""(page, address) of each page in the navigation; its label is the locale's ``nav.<page>``."""
ENGLISH_ONLY = frozenset({"strategy", "solver"})

router = APIRouter(include_in_schema=False)


def negotiate_language(accept_language: str | None) -> str:
    """The site's language the browser prefers most (Accept-Language), else English."""
    best, best_weight = DEFAULT_LANGUAGE, 0.0
    for entry in (accept_language or "").split(","):
        tag, *params = entry.split(";")
        primary = tag.strip().lower().split("-")[0]
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if primary in LANGUAGES and weight > best_weight:
            best, best_weight = primary, weight
    return best


# --- the frame -----------------------------------------------------------------------------------


@lru_cache(maxsize=len(LANGUAGES))
def labels(lang: str) -> dict[str, str]:
    """The locale's labels (``static/locales/<lang>.json``), shared with the game's scripts."""
    found: dict[str, str] = json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return found


def _navigation(lang: str, current: str) -> str:
    texts = labels(lang)
    links = []
    for page, address in NAVIGATION:
        attributes = [f'href="{address.format(lang=lang)}"', f'data-i18n="nav.{page}"']
        if page == "rules":
            attributes.insert(0, 'id="rules-link"')
        if page in ENGLISH_ONLY and lang != "en":
            attributes.append('hreflang="en"')
        if page == current:
            attributes.append('aria-current="page"')
        links.append(f"      <a {' '.join(attributes)}>{escape(texts[f'nav.{page}'])}</a>")
    return "\n".join(links)


def _rules_languages(lang: str) -> str:
    """Links to the rules in every language (on a phone by their codes: EN, RU...)."""
    links = []
    for other in LANGUAGES:
        current = ' aria-current="page"' if other == lang else ""
        name = escape(labels(other)["language.name"])
        links.append(
            f'<a href="/rules/{other}" hreflang="{other}" lang="{other}"{current}>'
            f'<span class="language-name">{name}</span>'
            f'<span class="language-code" aria-hidden="true">{other.upper()}</span></a>'
        )
    label = escape(labels(lang)["language.label"])
    return (
        f'    <div class="languages" role="group" aria-label="{label}">\n      '
        + "\n      ".join(links)
        + "\n    </div>"
    )


def _language_menu() -> str:
    """The game's language menu: the page's scripts take their languages from its options."""
    options = "\n".join(
        f'        <option value="{lang}" lang="{lang}">{escape(labels(lang)["language.name"])}'
        "</option>"
        for lang in LANGUAGES
    )
    return (
        '    <label class="languages">\n'
        '      <span class="languages-label" data-i18n="language.label">Language</span>\n'
        f'      <select id="language">\n{options}\n      </select>\n'
        "    </label>"
    )


def render_page(
    *,
    lang: str,
    current: str,
    title: str,
    description: str,
    body: str,
    body_class: str = "content-page",
    head: str = "",
    languages: str = "",
) -> str:
    """A whole page: ``body`` (HTML) in the site's frame, in ``lang``."""
    template = Template(TEMPLATE_PATH.read_text(encoding="utf-8"))
    return template.substitute(
        lang=lang,
        title=escape(title),
        description=escape(description),
        head=head,
        body_class=body_class,
        nav_label=escape(labels(lang)["nav.label"]),
        nav_links=_navigation(lang, current),
        languages=languages,
        body=body,
    )


# --- the hand-written pages ----------------------------------------------------------------------


@dataclass(frozen=True)
class Fragment:
    """A page's own content, with the title and description its first comment gives."""

    title: str
    description: str
    html: str


_HEADER = re.compile(r"\A<!--\n(.*?)\n-->\n", re.DOTALL)


def read_fragment(path: Path) -> Fragment:
    """``content/<name>.html``: a comment of ``title:`` and ``description:`` lines, then HTML."""
    if not path.is_file():
        raise HTTPException(404, f"page not found: {path.name} is missing from this install")
    text = path.read_text(encoding="utf-8")
    header = _HEADER.match(text)
    if header is None:
        raise ValueError(f"{path.name} must start with a comment giving its title and description")
    fields = dict(line.split(": ", 1) for line in header[1].splitlines())
    return Fragment(fields["title"], fields["description"], text[header.end() :])


SCRIPTED_PAGES = {
    "game": ("game-page", "", "main.js"),
    "review": (
        "game-page review-page",
        '  <link rel="stylesheet" href="/static/css/review.css">\n',
        "review-main.js",
    ),
}
"""The pages run by scripts, which switch them to the player's language: (body class, extra
stylesheets, script). Both draw the board with the game's stylesheet."""


@lru_cache(maxsize=16)
def _fragment_page(name: str, lang: str, current: str, mtime_ns: int) -> str:
    fragment = read_fragment(CONTENT_DIR / f"{name}.html")
    if current in SCRIPTED_PAGES:
        body_class, stylesheets, script = SCRIPTED_PAGES[current]
        return render_page(
            lang=lang,
            current=current,
            title=fragment.title if current == "game" else f"{fragment.title} · py2048",
            description=fragment.description,
            body=fragment.html,
            body_class=body_class,
            head=(
                '  <link rel="stylesheet" href="/static/css/game.css">\n'
                f"{stylesheets}"
                f'  <script type="module" src="/static/js/{script}"></script>\n'
            ),
            languages=_language_menu(),
        )
    return render_page(
        lang=lang,
        current=current,
        title=f"{fragment.title} · py2048",
        description=fragment.description,
        body=f'  <main class="page">\n{fragment.html}  </main>',
        languages=_rules_languages(lang) if current == "rules" else "",
    )


def _fragment_response(
    name: str, lang: str, current: str, headers: dict[str, str] | None = None
) -> HTMLResponse:
    path = CONTENT_DIR / f"{name}.html"
    if not path.is_file():
        raise HTTPException(404, f"page not found: {path.name} is missing from this install")
    html = _fragment_page(name, lang, current, path.stat().st_mtime_ns)
    return HTMLResponse(html, headers=headers)


def _rules_page(lang: str, headers: dict[str, str] | None = None) -> HTMLResponse:
    if lang not in LANGUAGES:
        raise HTTPException(
            404, f"no rules in language {lang!r}; available: {', '.join(LANGUAGES)}"
        )
    headers = {"Content-Language": lang} | (headers or {})
    return _fragment_response(f"rules.{lang}", lang, "rules", headers)


@router.get("/")
async def game_page() -> HTMLResponse:
    """The game; its scripts then switch it to the player's language."""
    return _fragment_response("game", DEFAULT_LANGUAGE, "game")


@router.get("/review")
async def review_page() -> HTMLResponse:
    """The review of a game: the game comes in the address's fragment (``#seed=...``), which
    the browser keeps to itself, or from a file the player imports; the scripts do the rest."""
    return _fragment_response("review", DEFAULT_LANGUAGE, "review")


@router.get("/rules")
async def rules(
    lang: Annotated[str | None, Query(max_length=16)] = None,
    accept_language: Annotated[str | None, Header()] = None,
) -> HTMLResponse:
    """How to play, in ``lang`` or else in the browser's preferred language."""
    if lang is not None:
        return _rules_page(lang.lower())
    return _rules_page(negotiate_language(accept_language), {"Vary": "Accept-Language"})


@router.get("/rules/{lang}")
async def rules_in(lang: str) -> HTMLResponse:
    return _rules_page(lang.lower())


@router.get("/strategy")
async def strategy() -> HTMLResponse:
    return _fragment_response("strategy", DEFAULT_LANGUAGE, "strategy")


@router.get("/static/css/tiles.css")
async def tile_colours() -> Response:
    """The tiles' colours, made from py2048.palette (the terminal game's source too)."""
    return Response(tile_stylesheet(), media_type="text/css; charset=utf-8")


def not_found_page(detail: str) -> str:
    """The page a browser gets for an address that names no page: what went wrong, and the way
    back to the game."""
    reason = "" if detail == "Not Found" else f"<p>{escape(detail)}</p>\n"
    body = (
        '  <main class="page">\n'
        "<h1>Page not found</h1>\n"
        "<p>No page of py2048 has this address.</p>\n"
        f"{reason}"
        '<p><a href="/">Play 2048</a> · <a href="/rules">How to play</a></p>\n'
        "  </main>"
    )
    return render_page(
        lang=DEFAULT_LANGUAGE,
        current="",
        title="Page not found · py2048",
        description="No page of py2048 has this address.",
        body=body,
    )


# --- the Markdown pages --------------------------------------------------------------------------


@router.get("/solver")
async def solver() -> HTMLResponse:
    """docs/solver.md, rendered into the site's frame."""
    return _markdown_page("solver.md")


def _markdown_page(name: str) -> HTMLResponse:
    source = doc_path(name)
    if source is None:
        raise HTTPException(404, f"page not found: docs/{name} is missing from this install")
    return HTMLResponse(render_markdown_page(source, source.stat().st_mtime_ns))


@lru_cache(maxsize=4)
def render_markdown_page(source: Path, mtime_ns: int) -> str:
    """The Markdown file as a full HTML page (cached until the file changes)."""
    text = source.read_text(encoding="utf-8")
    title = next(
        (line[2:].strip() for line in text.splitlines() if line.startswith("# ")), source.stem
    )
    paragraphs = [p for p in text.split("\n\n") if p and not p.startswith(("#", "`", "|"))]
    description = " ".join(paragraphs[0].split()) if paragraphs else title
    return render_page(
        lang=DEFAULT_LANGUAGE,
        current="solver",
        title=f"{title} · py2048",
        description=re.sub(r"[`*]", "", description),
        body=f'  <main class="page">\n{_markdown().render(text)}  </main>',
    )


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    """CommonMark with tables; raw HTML in the source is shown as text, never run."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    markdown.add_render_rule("table_open", _scrolling_table_open)
    markdown.add_render_rule("table_close", _scrolling_table_close)
    markdown.add_render_rule("image", _chart_or_image)
    markdown.core.ruler.push("heading_ids", _heading_ids)
    return markdown


def _heading_ids(state: StateCore) -> None:
    """Each heading gets an id from its words (``## Endgame tables``: ``endgame-tables``), as
    GitHub gives them, so links to a section work on the page too."""
    for index, token in enumerate(state.tokens):
        if token.type == "heading_open":
            words = re.sub(r"[^\w\- ]", "", state.tokens[index + 1].content.lower())
            token.attrSet("id", words.strip().replace(" ", "-"))


def _scrolling_table_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """A table too wide for a phone scrolls sideways, and can be scrolled from the keyboard (a
    focusable region, named by its number on the page)."""
    env["tables"] = number = env.get("tables", 0) + 1
    return (
        f'<div class="table-scroll" tabindex="0" role="region" aria-label="Table {number}">\n'
        "<table>\n"
    )


def _scrolling_table_close(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return "</table>\n</div>\n"


def _chart_or_image(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """An image whose address names a chart (``charts/<name>.svg``) is that chart, drawn now
    from the measured results as inline SVG, so the page's theme colours it."""
    token = tokens[idx]
    source = str(token.attrGet("src") or "")
    name = source.removeprefix("charts/").removesuffix(".svg")
    if source.startswith("charts/") and name in CHARTS:
        alt = renderer.renderInlineAsText(token.children or [], options, env)
        return CHARTS[name](alt)
    return renderer.image(tokens, idx, options, env)
