"""Charts for the served documents, drawn as SVG when the page is rendered, from the measured
results in docs/results/ (no chart library, nothing loaded from elsewhere).

Each chart is inline SVG whose colours are CSS classes (``chart-*`` in site.css), so it follows
the page's light or dark theme; its <title> and <desc> say in words what it shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import Any

from py2048.web.docs import doc_path

STRENGTH_RESULTS = "results/strength.json"
STRENGTH_TILES = ("16384", "32768")

# Geometry of the strength chart, in SVG units (it scales to the page's width): the names in a
# column wide enough for the longest, each program's two bars apart enough for their values.
_WIDTH = 460
_LABEL_WIDTH = 168
_BAR_WIDTH = 240
_BAR_HEIGHT = 10
_BAR_GAP = 3
_ROW_HEIGHT = 2 * _BAR_HEIGHT + _BAR_GAP + 6
_TOP = 36


def strength_results() -> dict[str, Any]:
    """docs/results/strength.json: each program's figures over whole games."""
    path = doc_path(STRENGTH_RESULTS)
    if path is None:
        raise FileNotFoundError(f"docs/{STRENGTH_RESULTS} is missing from this install")
    results: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return results


def _percent(value: float) -> str:
    return f"{value:g}%"


def strength_chart(title: str) -> str:
    """How often each program's games reach 16384 and 32768, as grouped bars."""
    programs = strength_results()["programs"]
    height = _TOP + _ROW_HEIGHT * len(programs) + 24
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {_WIDTH} {height}" '
        f'aria-labelledby="strength-title strength-desc">',
        f'<title id="strength-title">{escape(title)}</title>',
        '<desc id="strength-desc">'
        + escape(
            "; ".join(
                f"{p['name']}: "
                + ", ".join(f"{tile} in {_percent(p['reached'][tile])}" for tile in STRENGTH_TILES)
                for p in programs
            )
        )
        + "</desc>",
    ]
    # The legend, then the scale: a line at every 25%.
    for index, tile in enumerate(STRENGTH_TILES):
        legend_x = _LABEL_WIDTH + index * 130
        parts.append(
            f'<rect class="chart-bar-{index}" x="{legend_x}" y="6" width="14" height="14" rx="2"/>'
            f'<text class="chart-text" x="{legend_x + 20}" y="18">reached {tile}</text>'
        )
    bottom = _TOP + _ROW_HEIGHT * len(programs)
    for share in (0, 25, 50, 75, 100):
        x = _LABEL_WIDTH + _BAR_WIDTH * share / 100
        parts.append(
            f'<line class="chart-grid" x1="{x:g}" y1="{_TOP - 4}" x2="{x:g}" y2="{bottom}"/>'
            f'<text class="chart-axis" x="{x:g}" y="{bottom + 16}" '
            f'text-anchor="middle">{share}%</text>'
        )
    for row, program in enumerate(programs):
        y = _TOP + row * _ROW_HEIGHT
        name = program["short_name"]
        name_class = "chart-name chart-ours" if name.startswith("py2048") else "chart-name"
        parts.append(
            f'<text class="{name_class}" x="{_LABEL_WIDTH - 6}" '
            f'y="{y + _BAR_HEIGHT + 5}" text-anchor="end">{escape(name)}</text>'
        )
        for index, tile in enumerate(STRENGTH_TILES):
            share = program["reached"][tile]
            bar_y = y + index * (_BAR_HEIGHT + _BAR_GAP)
            width = max(_BAR_WIDTH * share / 100, 1)
            parts.append(
                f'<rect class="chart-bar-{index}" x="{_LABEL_WIDTH}" y="{bar_y}" '
                f'width="{width:.1f}" height="{_BAR_HEIGHT}"/>'
                f'<text class="chart-value" x="{_LABEL_WIDTH + width + 4:.1f}" '
                f'y="{bar_y + _BAR_HEIGHT - 1}">{_percent(share)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


CHARTS: dict[str, Callable[[str], str]] = {"strength": strength_chart}
"""Each chart by the name a document gives it (``![what it shows](charts/<name>.svg)``)."""
