"""Every error the API gives is a 4xx with ``{"detail": "<one clear sentence>"}``.

FastAPI's own validation errors are lists of pydantic error objects; this turns them into a
message that names the field (``state.board[2][1]: ...``) so the page can show it as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from py2048.engine import SaveError

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
    prefix = f"save field {exc.field!r}: "
    message = str(exc).removeprefix(prefix)
    return f"{field}.{exc.field}: {message}" if exc.field else f"{field}: {message}"


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


async def _on_validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = list(exc.errors())
    malformed = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if malformed is not None:
        reason = (malformed.get("ctx") or {}).get("error", "malformed")
        return error_response(400, f"request body is not valid JSON: {reason}")
    details = [_describe(e) for e in errors[:_SHOWN_ERRORS]]
    if len(errors) > _SHOWN_ERRORS:
        details.append(f"and {len(errors) - _SHOWN_ERRORS} more")
    return error_response(422, "; ".join(details))


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _on_validation_error)
