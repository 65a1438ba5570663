"""Where the terminal game keeps the game in progress and the best score, and how it writes them.

Every write is atomic (:func:`py2048.files.atomic_write`): killing the program at any moment
leaves either the previous save or the new one, whole, and the temporary file such a kill
leaves is removed at the next start. A save that cannot be read is never overwritten: it is
moved aside to a backup file first, and the caller tells the player where it went. Only regular
files are read: a named pipe or a device in a save's place is moved aside like a corrupt save,
instead of waiting forever for data that never comes.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from py2048.engine import Game, SaveError
from py2048.engine.integers import is_int
from py2048.engine.save import MAX_SAVE_BYTES, max_save_bytes_for, size_max_score
from py2048.engine.size import DEFAULT_SIZE, BoardSize
from py2048.files import NotRegularFileError, atomic_write, open_regular, remove_leftovers

DATA_DIR_ENV = "PY2048_DATA_DIR"
GAME_FILE = "game.json"
BEST_SCORE_FILE = "best-score.json"


def size_file(name: str, size: BoardSize) -> str:
    """The file ``name`` of a board size: 4x4 keeps the plain name (``game.json``), as before
    sizes existed, so its old files go on working; every other size has its own
    (``game-5x5.json``)."""
    if size.classic:
        return name
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}-{size}{dot}{suffix}"


def default_data_dir() -> Path:
    """``$PY2048_DATA_DIR`` if set, else the platform's user data directory for py2048."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("py2048", appauthor=False))


def write_failure(error: OSError, directory: Path) -> str:
    """What a failed write of a file in ``directory`` tells the player: the path and what is
    wrong with it. A data folder that is a file (or lies under one) says so, and how to choose
    another, instead of the system's bare "File exists" or "Not a directory"."""
    for place in (directory, *directory.parents):
        if place.exists() or place.is_symlink():
            if not place.is_dir():
                return (
                    f"{place} is a file, not a folder, so nothing can be saved in {directory}; "
                    f"move the file, or set {DATA_DIR_ENV} to a folder"
                )
            break
    problem = error.strerror or str(error)
    return f"{problem}: {error.filename}" if error.filename else problem


@dataclass(frozen=True, slots=True)
class UnreadableSave:
    """A save file that could not be used: why, and where it was moved."""

    path: Path
    reason: str
    backup: Path | None
    """None when even moving it aside failed (``reason`` then says why)."""

    @property
    def message(self) -> str:
        where = f"It was moved to {self.backup}." if self.backup else "It could not be moved aside."
        return f"{self.path} could not be read ({self.reason}). {where}"


class Storage:
    """The save files of one data directory and one board size: the game in progress and the
    best score. Each size keeps its own (:func:`size_file`); 4x4's are the files of old."""

    def __init__(self, directory: Path, size: BoardSize = DEFAULT_SIZE) -> None:
        self.directory = directory
        self.size = size
        self.game_path = directory / size_file(GAME_FILE, size)
        self.best_score_path = directory / size_file(BEST_SCORE_FILE, size)

    def load_game(self) -> tuple[Game | None, UnreadableSave | None]:
        """The saved game (None if there is none); a corrupt save is moved aside and reported.

        Temporary files that a program killed mid-write left in the folder are removed first.
        """
        if self.directory.is_dir():
            remove_leftovers(self.directory)
        try:
            game = Game.from_json(self._read(self.game_path, max_save_bytes_for(self.size)))
            if game.size != self.size:
                raise SaveError(f"it holds a {game.size} game, not a {self.size} one")
            return game, None
        except (FileNotFoundError, NotADirectoryError):  # none, or the folder is a file
            return None, None
        except (OSError, SaveError) as exc:
            return None, self._set_aside(self.game_path, exc)

    def load_best_score(self) -> tuple[int, UnreadableSave | None]:
        """The best score so far (0 if none); a corrupt file is moved aside and reported."""
        try:
            return _parse_best_score(self._read(self.best_score_path), self.size), None
        except (FileNotFoundError, NotADirectoryError):
            return 0, None
        except (OSError, ValueError) as exc:
            return 0, self._set_aside(self.best_score_path, exc)

    def save_game(self, game: Game) -> None:
        _write_text(self.game_path, game.to_json())

    def load_best_before_game(self) -> int | None:
        """The best score as it was before the saved game began (a game in which Undo is used
        falls back to it); None when the file does not say. Read leniently: a value it cannot
        use is None, and the file stays where it is."""
        try:
            obj = json.loads(self._read(self.best_score_path).decode("utf-8"))
        except (OSError, ValueError, RecursionError, SaveError):
            return None
        before = obj.get("before_game") if isinstance(obj, dict) else None
        if not is_int(before) or not 0 <= before <= size_max_score(self.size):
            return None
        return before

    def save_best_score(self, best_score: int, before_game: int | None = None) -> None:
        """Keep the best score; ``before_game``, when given, is the best score before the game
        in progress began (``{"best_score": ..., "before_game": ...}``)."""
        saved: dict[str, int] = {"best_score": best_score}
        if before_game is not None:
            saved["before_game"] = before_game
        _write_text(self.best_score_path, json.dumps(saved))

    @staticmethod
    def _read(path: Path, limit: int = MAX_SAVE_BYTES) -> bytes:
        """The file's bytes; SaveError if it is not a regular file or is larger than ``limit``
        (by default the largest 4x4 save; :func:`~py2048.engine.save.max_save_bytes_for`
        gives each size's).

        It is opened without blocking (a named pipe would otherwise wait for a writer) and
        asked what it is before anything is read.
        """
        try:
            file = open_regular(path)
        except NotRegularFileError as exc:
            raise SaveError(exc.strerror) from None
        with file:
            data = file.read(limit + 1)
        if len(data) > limit:
            raise SaveError(f"the file is larger than {limit} bytes")
        return data

    @staticmethod
    def _set_aside(path: Path, error: Exception) -> UnreadableSave:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        backup = path.with_name(f"{path.name}.corrupt-{stamp}")
        number = 1
        while backup.exists():
            number += 1
            backup = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
        try:
            os.replace(path, backup)
        except OSError as exc:
            return UnreadableSave(path, f"{reason}; moving it failed: {exc.strerror}", None)
        return UnreadableSave(path, reason, backup)


def _write_text(path: Path, text: str) -> None:
    with atomic_write(path) as file:
        file.write(text.encode("utf-8"))


def _parse_best_score(data: bytes, size: BoardSize) -> int:
    try:
        obj = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"not valid JSON: {exc}") from None
    best = obj.get("best_score") if isinstance(obj, dict) else None
    if not is_int(best) or best < 0:
        raise ValueError('expected {"best_score": <a whole number, 0 or more>}')
    most = size_max_score(size)
    if best > most:
        raise ValueError(f"the best score is more than any {size} game can score ({most})")
    return best
