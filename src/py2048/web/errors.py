"""Every error the API gives is a 4xx with ``{"detail": "<one clear sentence>"}``; a browser
that asks for a page that does not exist gets an HTML page in the site's frame instead.

FastAPI's own validation errors are lists of pydantic error objects; this turns them into a
message that names the field (``state.board[2][1]: ...``) so the page can show it as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from py2048.engine import SaveError
from py2048.web.frame import not_found_page

_FASTAPI_UNREADABLE_BODY = "There was an error parsing the body"
_SHOWN_ERRORS = 3
_SHOWN_INPUT_CHARS = 40


def error_response(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


def field_path(location: Sequence[str | int]) -> str:
    """``("body", "state", "board", 2, 1)`` -> ``"state.board[2][1]"``."""
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path or "request body"


def save_error_detail(exc: SaveError, field: str = "state") -> str:
    """A SaveError from the engine, placed under the request field that held the save."""
    message = str(exc).removeprefix(f"save field {exc.field!r}: ")
    if not exc.field:
        return f"{field}: {message}"
    if message.startswith(exc.field):  # "board[0][1] = 3 is not a tile..."
        return f"{field}.{message}"
    return f"{field}.{exc.field}: {message}"


def unreadable_body_detail(cause: BaseException) -> str:
    """Why a body that is not plain JSON text could not be read (FastAPI says only "error")."""
    if isinstance(cause, RecursionError):
        return "request body is not valid JSON: nested too deeply"
    if isinstance(cause, UnicodeDecodeError):
        return "request body is not valid JSON: it is not UTF-8 text"
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return "request body is not valid JSON: a number in it has too many digits"
    return "request body is not valid JSON"


def _describe(error: dict[str, Any]) -> str:
    location = list(error.get("loc", ()))
    if location[:1] == ["body"]:
        location = location[1:]
    kind = error.get("type")
    if kind == "missing" and not location:
        return "request body: a JSON object is required"
    message = error.get("msg", "invalid")
    if kind == "extra_forbidden":
        message = "unknown field"
    elif "input" in error and isinstance(error["input"], (str, int, float, bool)):
        shown = repr(error["input"])
        if len(shown) <= _SHOWN_INPUT_CHARS:
            message += f", got {shown}"
    return f"{field_path(location)}: {message}"


def _sent_as_json(request: Request) -> bool:
    """Whether FastAPI read the body as JSON: no content type, or application/json or +json."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return media_type in ("", "application/json") or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


async def _on_validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = list(exc.errors())
    if not _sent_as_json(request) and any(list(e.get("loc", ())) == ["body"] for e in errors):
        media_type = request.headers["content-type"].split(";")[0].strip()
        return error_response(
            415, f"send the request body as JSON (Content-Type: application/json), not {media_type}"
        )
    malformed = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if malformed is not None:
        reason = (malformed.get("ctx") or {}).get("error", "malformed")
        return error_response(400, f"request body is not valid JSON: {reason}")
    details = [_describe(e) for e in errors[:_SHOWN_ERRORS]]
    if len(errors) > _SHOWN_ERRORS:
        details.append(f"and {len(errors) - _SHOWN_ERRORS} more")
    return error_response(422, "; ".join(details))


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a script's request for a file)."""
    accept = request.headers.get("accept", "").lower()
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith("/api/")
        and "text/html" in accept
    )


async def _on_http_error(
    request: Request, exc: StarletteHTTPException
) -> JSONResponse | HTMLResponse:
    detail = str(exc.detail)
    if detail == _FASTAPI_UNREADABLE_BODY and exc.__cause__ is not None:
        detail = unreadable_body_detail(exc.__cause__)
    if exc.status_code == 404 and _wants_page(request):
        return HTMLResponse(not_found_page(detail), status_code=404, headers=exc.headers)
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    # Starlette types a handler as taking any Exception; it calls each with its own class only.
    app.add_exception_handler(RequestValidationError, _on_validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _on_http_error)  # type: ignore[arg-type]
