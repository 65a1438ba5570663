"""The folders py2048 keeps its users' own large files in: the endgame tables
(:mod:`py2048.tables.storage`) and installed networks (:mod:`py2048.evaluation.networks`).

Each is named by an environment variable if set, else it is a folder of the user cache folder
(platformdirs) for py2048: on Linux ``~/.cache/py2048/NAME``, on macOS
``~/Library/Caches/py2048/NAME``, on Windows ``%LOCALAPPDATA%\\py2048\\Cache\\NAME``.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def cache_folder(name: str, variable: str, directory: str | os.PathLike[str] | None = None) -> Path:
    """``directory`` if given, else the folder the environment variable ``variable`` names,
    else ``name`` in the user cache folder for py2048."""
    if directory is not None:
        return Path(directory)
    configured = os.environ.get(variable)
    if configured:
        return Path(configured)
    return Path(platformdirs.user_cache_dir("py2048", appauthor=False)) / name
