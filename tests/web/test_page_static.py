"""The pages' files as shipped: labels complete in every language, one list of languages, page
weight, no external requests, zoom never blocked. These need no browser; test_browser.py drives
the page itself."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from py2048.web.frame import CONTENT_DIR, TEMPLATE_PATH
from py2048.web.languages import LANGUAGES

STATIC = Path(__file__).resolve().parents[2] / "src" / "py2048" / "web" / "static"
PAGE_WEIGHT_LIMIT = 150 * 1024
SHIPPED_FILES = sorted(
    [
        *(p for p in STATIC.rglob("*") if p.suffix in {".html", ".css", ".js", ".json"}),
        *CONTENT_DIR.glob("*.html"),
        TEMPLATE_PATH,
    ]
)


def labels(language: str) -> dict[str, str]:
    return json.loads((STATIC / "locales" / f"{language}.json").read_text(encoding="utf-8"))


def keys_used_by_the_page() -> set[str]:
    """Every label key named in the game page, the review page and their frame (data-i18n...)
    or in the scripts (t("key"))."""
    html = (CONTENT_DIR / "game.html").read_text(encoding="utf-8")
    html += (CONTENT_DIR / "review.html").read_text(encoding="utf-8")
    html += TEMPLATE_PATH.read_text(encoding="utf-8")
    used = set(re.findall(r'data-i18n="([\w.]+)"', html))
    used |= {
        key
        for attr in re.findall(r'data-i18n-attr="([^"]+)"', html)
        for key in re.findall(r":([\w.]+)", attr)
    }
    for script in (STATIC / "js").glob("*.js"):
        used |= set(re.findall(r'\bt\(\s*"([\w.]+)"', script.read_text(encoding="utf-8")))
    return used


def test_every_language_has_exactly_the_english_labels() -> None:
    english = set(labels("en"))
    for language in LANGUAGES[1:]:
        assert set(labels(language)) == english, language


def test_every_language_fills_in_the_same_names() -> None:
    english = labels("en")
    for language in LANGUAGES[1:]:
        for key, text in labels(language).items():
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", english[key])), (
                language,
                key,
            )


def test_every_label_the_page_uses_exists() -> None:
    used = keys_used_by_the_page()
    assert used, "found no label keys: the search for them is broken"
    missing = used - set(labels("en"))
    assert not missing


def test_direction_labels_exist_for_every_direction() -> None:
    """The scripts build `dir.<direction>` keys at run time."""
    for language in LANGUAGES:
        assert {f"dir.{d}" for d in ("up", "right", "down", "left")} <= set(labels(language))


def test_every_language_has_its_labels_and_its_rules_page() -> None:
    for language in LANGUAGES:
        assert labels(language)["language.name"]
        assert (CONTENT_DIR / f"rules.{language}.html").is_file()


def test_no_script_lists_the_languages_itself() -> None:
    """The server lists them (the Language menu's options): one list for the whole site."""
    for script in (STATIC / "js").glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"""["'](ru|ro|fr)["']""", text), script.name


def test_page_weight_is_under_150_kb() -> None:
    """What the game page loads: its HTML, every stylesheet and every script."""
    loaded = [
        TEMPLATE_PATH,
        CONTENT_DIR / "game.html",
        *STATIC.glob("css/*.css"),
        *STATIC.glob("js/*.js"),
    ]
    weight = sum(path.stat().st_size for path in loaded)
    assert weight < PAGE_WEIGHT_LIMIT, f"{weight} bytes"


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.name)
def test_no_file_points_outside_the_server(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE)
    assert "@import" not in text and "@font-face" not in text


def test_zoom_is_never_blocked() -> None:
    """Every page is the one frame, which declares the viewport."""
    viewport = re.search(
        r'<meta name="viewport" content="([^"]+)"', TEMPLATE_PATH.read_text("utf-8")
    )
    assert viewport, "the frame declares a viewport"
    assert "maximum-scale" not in viewport[1]
    assert "user-scalable" not in viewport[1]
