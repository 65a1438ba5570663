"""The site's routes to its pages: the game, its review, "How to play" in every language, "2048
strategy" (HTML fragments written by hand, ``content/``) and "2048 solver" (``docs/solver.md``
rendered on the server, so the solver's page for players has one source).

Every page is the site's frame (:mod:`py2048.web.frame`) around its own content, in one of the
site's languages (:mod:`py2048.web.languages`); the Markdown pages are rendered by
:mod:`py2048.web.markdown`. The developers' documents (``docs/solver-reference.md``,
``docs/results.md``) are neither shipped nor served.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.responses import HTMLResponse, Response

from py2048.palette import tile_stylesheet
from py2048.web.docs import doc_path
from py2048.web.frame import CONTENT_DIR, language_menu, render_page, rules_languages
from py2048.web.languages import DEFAULT_LANGUAGE, LANGUAGES, negotiate_language
from py2048.web.markdown import render_markdown_page

router = APIRouter(include_in_schema=False)


# --- the frame -----------------------------------------------------------------------------------


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
            languages=language_menu(),
        )
    return render_page(
        lang=lang,
        current=current,
        title=f"{fragment.title} · py2048",
        description=fragment.description,
        body=f'  <main class="page">\n{fragment.html}  </main>',
        languages=rules_languages(lang) if current == "rules" else "",
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
