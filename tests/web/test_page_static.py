"""The game page's files as shipped: labels complete in every language, page weight, no external
requests, zoom never blocked. These need no browser; test_browser.py drives the page itself."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "py2048" / "web" / "static"
LANGUAGES = ("en", "ru", "ro", "fr")
PAGE_WEIGHT_LIMIT = 150 * 1024
HTML_FILES = sorted(STATIC.rglob("*.html"))
SHIPPED_FILES = sorted(
    path for path in STATIC.rglob("*") if path.suffix in {".html", ".css", ".js", ".json"}
)


def labels(language: str) -> dict[str, str]:
    return json.loads((STATIC / "locales" / f"{language}.json").read_text(encoding="utf-8"))


def keys_used_by_the_page() -> set[str]:
    """Every label key named in index.html (data-i18n...) or in the scripts (t("key"))."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
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


def test_every_language_has_its_rules_page() -> None:
    for language in LANGUAGES:
        page = (STATIC / "pages" / f"rules.{language}.html").read_text(encoding="utf-8")
        assert f'<html lang="{language}">' in page


def test_page_weight_is_under_150_kb() -> None:
    """What the game page loads: its HTML, every stylesheet and every script."""
    loaded = [STATIC / "index.html", *STATIC.glob("css/*.css"), *STATIC.glob("js/*.js")]
    weight = sum(path.stat().st_size for path in loaded)
    assert weight < PAGE_WEIGHT_LIMIT, f"{weight} bytes"


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: str(p.relative_to(STATIC)))
def test_no_file_points_outside_the_server(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE)
    assert "@import" not in text and "@font-face" not in text


@pytest.mark.parametrize("path", HTML_FILES, ids=lambda p: str(p.relative_to(STATIC)))
def test_zoom_is_never_blocked(path: Path) -> None:
    viewport = re.search(r'<meta name="viewport" content="([^"]+)"', path.read_text("utf-8"))
    assert viewport, "every page declares a viewport"
    assert "maximum-scale" not in viewport[1]
    assert "user-scalable" not in viewport[1]
