"""The site's frame around every page (``templates/page.html``: the head, the navigation, the
language switch), and the page a browser gets for an address that names none.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from string import Template

from py2048.web.languages import DEFAULT_LANGUAGE, LANGUAGES, labels

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
CONTENT_DIR = WEB_DIR / "content"
TEMPLATE_PATH = WEB_DIR / "templates" / "page.html"

NAVIGATION = (
    ("game", "/"),
    ("rules", "/rules/{lang}"),
    ("strategy", "/strategy"),
    ("solver", "/solver"),
)
"""(page, address) of each page in the navigation; its label is the locale's ``nav.<page>``."""
ENGLISH_ONLY = frozenset({"strategy", "solver"})


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


def rules_languages(lang: str) -> str:
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


def language_menu() -> str:
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
