"""What an API request body must be before it is parsed: JSON, UTF-8, shaped like a request.

Parsing JSON into Python objects costs time on the event loop, and far more when the body
holds many small lists or objects (each is an object for the garbage collector to follow):
a body of 40,000 nested empty lists cost 0.3 s to parse. No request of this API holds more
than seven lists and objects (the body, the state, the board and its four rows) or about thirty
items, so :func:`check_api_body` counts the bytes that open a list or an object and the commas
(``bytes.count``: no parsing, well under a millisecond for the largest body) and refuses a body
with more than any request needs before anything parses it. The count also bounds how deeply
a body can nest. A body that passes is parsed once here, to refuse a key given twice (JSON
parsers keep the last one silently), and that parse is cheap because the body is small in
structure.

A body over the 4x4 limit (:data:`~py2048.web.limits.MAX_BODY_BYTES`) is read only for a game of
more than 16 cells, whose history may be 16 times as long: such a body must name that size
(``"size": [rows, cols]``, found by a regular expression, before any parse), else it gets the
413 any body over the limit gets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from starlette.types import Scope

from py2048.engine.size import BoardSize
from py2048.web.errors import field_path
from py2048.web.limits import LONG_MAX_BODY_BYTES, MAX_BODY_BYTES

API_PREFIX = "/api/"
MAX_CONTAINERS = 16
"""Lists and objects a request body may hold; the largest request (an 8x8 game's) holds 12."""
MAX_COMMAS = 128
"""Commas a request body may hold (items after the first); the largest request (an 8x8
game's) holds 76, a 4x4 game's 26."""
_LONG_SIZE = re.compile(rb'"size"\s*:\s*\[\s*([3-8])\s*,\s*([3-8])\s*\]')
"""A size named in a body: how a body over the 4x4 limit says it is about a larger board."""
JSON_CHARSETS = ("utf-8", "utf8")
JSON_TYPES = "application/json, or any application/*+json type"
"""The media types a request body is read as (JSON either way; the app's description and
``docs/server.md`` say the same)."""

Refusal = tuple[int, str]


def check_api_body(scope: Scope, body: bytes) -> Refusal | None:
    """Why an API request's body is refused, as ``(status, detail)``; None to go on.

    Any body over :data:`MAX_BODY_BYTES` that is not an API request naming a board of more
    than 16 cells is refused (413). Beyond that, only requests to /api/ that carry a body are
    checked: it must be sent as JSON
    (:data:`JSON_TYPES`; 415 otherwise, also with no Content-Type), in UTF-8, with no more
    lists, objects and items than a request of this API holds (400), and with no key given
    twice in an object (422).
    """
    api = scope["path"].startswith(API_PREFIX)
    if len(body) > MAX_BODY_BYTES and not (api and _names_a_long_size(body)):
        return 413, (
            f"request body is larger than the limit of {MAX_BODY_BYTES} bytes (a request about "
            f"a board of more than 16 cells, which names its size, may take {LONG_MAX_BODY_BYTES})"
        )
    if not body or not api:
        return None
    refusal = _content_type_refusal(_header(scope, b"content-type"))
    if refusal is not None:
        return refusal
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return 400, "request body is not valid JSON: it is not UTF-8 text"
    containers = body.count(b"[") + body.count(b"{")
    if containers > MAX_CONTAINERS:
        return 400, (
            f"request body holds {containers} lists and objects; a request of this API holds "
            f"at most {MAX_CONTAINERS} (an 8x8 game's holds 12)"
        )
    commas = body.count(b",")
    if commas > MAX_COMMAS:
        return 400, (
            f"request body holds {commas} items; a request of this API holds at most "
            f"{MAX_COMMAS} (an 8x8 game's holds 76)"
        )
    try:
        parsed = json.loads(text, object_pairs_hook=_Object)
    except (ValueError, RecursionError):
        return None  # malformed: FastAPI's own parse says where (see py2048.web.errors)
    duplicate = _first_duplicate(parsed, ())
    if duplicate is not None:
        return 422, f"{field_path(duplicate)}: given more than once; each key may appear once"
    return None


def _names_a_long_size(body: bytes) -> bool:
    """Whether the body names a board size of more than 16 cells."""
    named = _LONG_SIZE.search(body)
    return named is not None and BoardSize(int(named[1]), int(named[2])).cells > 16


def _content_type_refusal(content_type: str | None) -> Refusal | None:
    how = f"send the request body as JSON (Content-Type: {JSON_TYPES})"
    if content_type is None:
        return 415, f"{how}; this request has no Content-Type"
    media_type, *parameters = (part.strip() for part in content_type.split(";"))
    media_type = media_type.lower()
    is_json = media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )
    if not is_json:
        return 415, f"{how}, not {media_type or 'an empty Content-Type'}"
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        charset = value.strip().strip('"').lower()
        if name.strip().lower() == "charset" and charset not in JSON_CHARSETS:
            return 415, f"send the request body as UTF-8 JSON, not charset={charset}"
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class _Object(dict[str, Any]):
    """A parsed JSON object that remembers the first key given twice in it."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.duplicate: str | None = None
        if len(self) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    self.duplicate = key
                    break
                seen.add(key)


def _first_duplicate(value: object, path: tuple[str | int, ...]) -> Sequence[str | int] | None:
    """Where the first key given twice is, as a path of keys and indexes; None if nowhere."""
    if isinstance(value, _Object):
        if value.duplicate is not None:
            return (*path, value.duplicate)
        children: Any = value.items()
    elif isinstance(value, list):
        children = enumerate(value)
    else:
        return None
    for key, child in children:
        found = _first_duplicate(child, (*path, key))
        if found is not None:
            return found
    return None
