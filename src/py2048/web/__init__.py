"""The browser game: a FastAPI server for the engine's rules, the solver's hints and the pages.

``create_app()`` builds the application; ``py2048.web.server.serve()`` runs it (``2048 serve``,
whose flags are in :mod:`py2048.web.command`). FastAPI loads when ``create_app`` is first asked
for, so the command line can read the flags without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from py2048.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name != "create_app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from py2048.web.app import create_app

    globals()["create_app"] = create_app
    return create_app
