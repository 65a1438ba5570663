"""The web application: the JSON API, the pages and the static files, in one FastAPI app."""

from __future__ import annotations

import mimetypes
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from py2048 import __version__
from py2048.solver.warmup import warm_up_in_background
from py2048.web import api, pages
from py2048.web.body import JSON_TYPES, MAX_CONTAINERS, check_api_body
from py2048.web.errors import install_error_handlers
from py2048.web.frame import STATIC_DIR
from py2048.web.head import HeadAsGetMiddleware
from py2048.web.headers import SecurityHeadersMiddleware
from py2048.web.hints import HintService
from py2048.web.hosts import HostCheckMiddleware, HostPolicy
from py2048.web.limits import LONG_MAX_BODY_BYTES, MAX_BODY_BYTES, BodyLimitMiddleware
from py2048.web.reviews import ReviewService
from py2048.web.workers import ReplayThreads

DESCRIPTION = f"""\
2048 by the official rules. The server keeps no session: the browser keeps the game as the
engine's save object and sends it with each request; every rule runs in the engine.

Every error is a 4xx with `{{"detail": "<message naming the field>"}}`. Request bodies over
{MAX_BODY_BYTES} bytes ({MAX_BODY_BYTES // 1024} KiB, room for the longest game of 16 cells or
fewer) get 413, unless they name a board of more than 16 cells (`"size": [rows, cols]`), whose
games last longer: those may take {LONG_MAX_BODY_BYTES} bytes. A
body sent as anything but JSON in UTF-8 (`Content-Type`: {JSON_TYPES}), or with no
Content-Type, gets 415; a body holding more than {MAX_CONTAINERS} lists and objects gets 400,
and one that gives a key twice gets 422.
"""
_LOOPBACK = HostPolicy.loopback()


# Browsers refuse JavaScript modules served as text/plain, which is what the Windows registry
# can map .js to; the static files must not depend on the machine's MIME table.
for _type, _suffix in (("text/javascript", ".js"), ("text/css", ".css")):
    mimetypes.add_type(_type, _suffix)


def create_app(
    *,
    hints: HintService | None = None,
    reviews: ReviewService | None = None,
    hosts: HostPolicy | None = _LOOPBACK,
) -> FastAPI:
    """A new app; ``hints`` runs the solver searches (default: one worker per core but one),
    ``reviews`` the game reviews (one at a time).

    ``hosts``: the Host headers it answers (see :mod:`py2048.web.hosts`); by default the names
    of this machine at any port; None answers every one.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        warm_up_in_background()
        yield
        app.state.hints.close()
        app.state.reviews.close()
        app.state.replays.close()

    # FastAPIOffline serves Swagger UI's own files for /docs, so even the docs need no CDN.
    app = FastAPIOffline(
        title="py2048",
        version=__version__,
        description=DESCRIPTION,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.hints = hints or HintService()
    app.state.reviews = reviews or ReviewService()
    app.state.replays = ReplayThreads()
    # The last added runs first: a HEAD becomes a GET, then the Host is checked before anything
    # else.
    app.add_middleware(BodyLimitMiddleware, max_bytes=LONG_MAX_BODY_BYTES, inspect=check_api_body)
    app.add_middleware(SecurityHeadersMiddleware)
    if hosts is not None:
        app.add_middleware(HostCheckMiddleware, policy=hosts)
    app.add_middleware(HeadAsGetMiddleware)
    install_error_handlers(app)
    app.include_router(api.router)
    app.include_router(api.health_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
