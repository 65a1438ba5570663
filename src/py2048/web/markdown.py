"""The Markdown pages: a document of ``docs/`` (the solver page) rendered into the site's frame,
with tables that scroll on a phone, headings that links can name, and charts drawn from the
measured results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from py2048.web.charts import CHARTS
from py2048.web.frame import render_page
from py2048.web.languages import DEFAULT_LANGUAGE


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
