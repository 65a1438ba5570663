"""The browser game: a FastAPI server for the engine's rules, the solver's hints and the pages.

``create_app()`` builds the application; ``py2048.web.server.serve()`` runs it (``2048 serve``,
whose flags are in :mod:`py2048.web.command`). FastAPI loads when ``create_app`` is first asked
for, so the command line can read the flags without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from py2048._lazy import lazy_names

# Loaded on first use (py2048._lazy): each name is written only here. "X as X" says that the
# package exports it; isort is off so that each module keeps one statement.
# isort: off
if TYPE_CHECKING:
    from py2048.web.app import create_app as create_app
# isort: on

__getattr__, __dir__, _LAZY = lazy_names(__name__)

__all__ = [*_LAZY]
