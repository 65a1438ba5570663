"""The HTML pages: the game, "How to play" in four languages, "2048 strategy", "2048 solver".

The game and the rules and strategy pages are static files written by hand; the solver page is
``docs/solver.md`` rendered on the server, so the solver's documentation has one source, and its
developer notes (``docs/solver-notes.md``, every measured figure) are served at /solver/notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from html import escape
from pathlib import Path
from string import Template
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
PAGES_DIR = STATIC_DIR / "pages"
TEMPLATE_PATH = WEB_DIR / "templates" / "page.html"
DOCS_PACKAGED = WEB_DIR / "docs"
"""Where the wheel puts docs/solver.md and docs/solver-notes.md (pyproject's force-include)."""
DOCS_SOURCE = WEB_DIR.parents[2] / "docs"
"""docs/ of a source checkout (an editable install)."""
SOLVER_DOC_PACKAGED = DOCS_PACKAGED / "solver.md"
SOLVER_DOC_SOURCE = DOCS_SOURCE / "solver.md"
SERVED_DOCS = {"solver.md": "/solver", "solver-notes.md": "/solver/notes"}
"""The Markdown documents served as pages, by file name; links between them follow them."""

LANGUAGES = ("en", "ru", "ro", "fr")
DEFAULT_LANGUAGE = "en"

router = APIRouter(include_in_schema=False)


def negotiate_language(accept_language: str | None) -> str:
    """The rules' language the browser prefers most (Accept-Language), else English."""
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


def _static_page(path: Path, headers: dict[str, str] | None = None) -> FileResponse:
    if not path.is_file():
        raise HTTPException(404, f"page not found: {path.name} is missing from this install")
    return FileResponse(path, media_type="text/html; charset=utf-8", headers=headers)


def _rules_page(lang: str, headers: dict[str, str] | None = None) -> FileResponse:
    if lang not in LANGUAGES:
        raise HTTPException(
            404, f"no rules in language {lang!r}; available: {', '.join(LANGUAGES)}"
        )
    return _static_page(
        PAGES_DIR / f"rules.{lang}.html", {"Content-Language": lang} | (headers or {})
    )


@router.get("/")
async def game_page() -> FileResponse:
    return _static_page(STATIC_DIR / "index.html")


@router.get("/rules")
async def rules(
    lang: Annotated[str | None, Query(max_length=16)] = None,
    accept_language: Annotated[str | None, Header()] = None,
) -> FileResponse:
    """How to play, in ``lang`` or else in the browser's preferred language."""
    if lang is not None:
        return _rules_page(lang.lower())
    return _rules_page(negotiate_language(accept_language), {"Vary": "Accept-Language"})


@router.get("/rules/{lang}")
async def rules_in(lang: str) -> FileResponse:
    return _rules_page(lang.lower())


@router.get("/strategy")
async def strategy() -> FileResponse:
    return _static_page(PAGES_DIR / "strategy.html")


@router.get("/solver")
async def solver() -> HTMLResponse:
    """docs/solver.md, rendered into the site's frame."""
    return _markdown_page("solver.md")


@router.get("/solver/notes")
async def solver_notes() -> HTMLResponse:
    """docs/solver-notes.md, the solver's developer notes with every measured figure."""
    return _markdown_page("solver-notes.md")


def _markdown_page(name: str) -> HTMLResponse:
    source = doc_path(name)
    if source is None:
        raise HTTPException(404, f"page not found: docs/{name} is missing from this install")
    return HTMLResponse(render_markdown_page(source, source.stat().st_mtime_ns))


def doc_path(name: str) -> Path | None:
    """docs/``name`` as shipped in the wheel, or else from the source checkout."""
    for folder in (DOCS_PACKAGED, DOCS_SOURCE):
        if (folder / name).is_file():
            return folder / name
    return None


def solver_doc_path() -> Path | None:
    """docs/solver.md as shipped in the wheel, or else from the source checkout."""
    return doc_path("solver.md")


@lru_cache(maxsize=4)
def render_markdown_page(source: Path, mtime_ns: int) -> str:
    """The Markdown file as a full HTML page (cached until the file changes)."""
    text = source.read_text(encoding="utf-8")
    title = next(
        (line[2:].strip() for line in text.splitlines() if line.startswith("# ")), source.stem
    )
    template = Template(TEMPLATE_PATH.read_text(encoding="utf-8"))
    return template.substitute(title=escape(title), content=_markdown().render(text))


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    """CommonMark with tables; raw HTML in the source is shown as text, never run."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    markdown.add_render_rule("table_open", _scrolling_table_open)
    markdown.add_render_rule("table_close", _scrolling_table_close)
    markdown.core.ruler.push("served_doc_links", _served_doc_links)
    return markdown


def _served_doc_links(state: StateCore) -> None:
    """A link to another served document (``solver-notes.md``) leads to its page."""
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "link_open":
                href = str(token.attrGet("href") or "")
                name, hash_, fragment = href.partition("#")
                if name in SERVED_DOCS:
                    token.attrSet("href", SERVED_DOCS[name] + hash_ + fragment)


def _scrolling_table_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """Wide results tables scroll sideways on a phone instead of widening the page."""
    return '<div class="table-scroll" style="overflow-x: auto">\n<table>\n'


def _scrolling_table_close(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return "</table>\n</div>\n"
