"""The site's languages: which there are, each one's labels, and which a browser prefers.

:data:`LANGUAGES` is the one list of them: the navigation, the game's language menu and the
rules' language links all come from it. A language is its labels (``static/locales/<lang>.json``,
which the game page loads too) and its rules (``content/rules.<lang>.html``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

LOCALES_DIR = Path(__file__).resolve().parent / "static" / "locales"
LANGUAGES = ("en", "ru", "ro", "fr")
"""The site's languages, in the order the menus list them."""
DEFAULT_LANGUAGE = "en"


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


@lru_cache(maxsize=len(LANGUAGES))
def labels(lang: str) -> dict[str, str]:
    """The locale's labels (``static/locales/<lang>.json``), shared with the game's scripts."""
    found: dict[str, str] = json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return found
