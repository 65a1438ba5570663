"""Where the served documents are: docs/ in the wheel (pyproject's force-include), or else
docs/ of the source checkout (an editable install)."""

from __future__ import annotations

from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent
DOCS_PACKAGED = WEB_DIR / "docs"
DOCS_SOURCE = WEB_DIR.parents[2] / "docs"
SHIPPED = ("solver.md", "results/strength.json")
"""Every file of docs/ the server reads (the "2048 solver" page and its chart's figures);
pyproject ships each one, and nothing else of docs/."""


def doc_path(name: str) -> Path | None:
    """docs/``name`` as shipped in the wheel, or else from the source checkout."""
    for folder in (DOCS_PACKAGED, DOCS_SOURCE):
        if (folder / name).is_file():
            return folder / name
    return None
