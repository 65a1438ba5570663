"""The browser game: a FastAPI server for the engine's rules, the solver's hints and the pages.

``create_app()`` builds the application; ``py2048.web.server.serve()`` runs it (``2048 serve``).
"""

from py2048.web.app import create_app

__all__ = ["create_app"]
