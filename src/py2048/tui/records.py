"""What the terminal game keeps besides the game in progress: statistics and past games.

Every game is counted once, when it ends (game over) or when a new game replaces it after a
move; a game in which Undo was used (practice) is counted apart. Each board size has its own
counts: ``statistics.json`` in the data folder for 4x4 (as before sizes existed),
``statistics-5x5.json`` and so on for the others. The past games of every size are
``games.json``: the same file the browser game's "Export all" writes (``{"format":
"py2048-games", "version": 1, "games": [...]}``), each game kept as its review link's fragment
(seed and moves packed four to a byte, so a 5,000-move game takes about 1.7 KB; ``size=5x5`` on
any board but 4x4), newest first, the last :data:`KEEP_GAMES`. So ``2048 review --games`` reads
either, and a browser's export opens in the terminal.

Both files are written atomically. A file that cannot be read is not overwritten: it is moved
aside (as a corrupt save is) before anything new is kept, and the caller says where it went.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from py2048.engine import Game, GameError, SaveError
from py2048.engine.direction import LETTERS
from py2048.engine.integers import is_int
from py2048.engine.save import max_moves_for
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size
from py2048.tui.storage import Storage, UnreadableSave, size_file

STATISTICS_FILE = "statistics.json"
GAMES_FILE = "games.json"
GAMES_FORMAT = "py2048-games"
KEEP_GAMES = 200
"""How many past games are kept; the oldest goes first."""
WIN_TILE = 2048
_SEED_LIMIT = 2**53


class RecordsError(ValueError):
    """A file of past games that cannot be used; the message says why."""


# --- the review link's form of a game ------------------------------------------------------------


def encode_game(
    seed: int, history: str, practice: bool = False, size: BoardSize = DEFAULT_SIZE
) -> str:
    """The review link's fragment for a game (``seed=42&n=7&moves=...``), as the browser game
    writes it (``docs/review.md``, "Review links"); a board other than 4x4 adds its size
    (``seed=42&size=5x5&n=7&moves=...``)."""
    packed = bytearray((len(history) + 3) // 4)
    for index, letter in enumerate(history):
        packed[index // 4] |= LETTERS.index(letter) << (6 - 2 * (index % 4))
    moves = base64.urlsafe_b64encode(bytes(packed)).decode("ascii").rstrip("=")
    sized = "" if size.classic else f"&size={size}"
    fragment = f"seed={seed}{sized}&n={len(history)}&moves={moves}"
    return fragment + ("&practice=1" if practice else "")


def decode_game(fragment: str) -> tuple[int, str, bool, BoardSize]:
    """(seed, history, practice, size) of a review link's fragment (4x4 when it names no size);
    RecordsError says what is wrong."""
    fields: dict[str, str] = {}
    for part in fragment.removeprefix("#").split("&"):
        name, _, value = part.partition("=")
        fields.setdefault(name, value)
    seed_text, count_text = fields.get("seed", ""), fields.get("n", "")
    if not re.fullmatch(r"\d{1,16}", seed_text) or int(seed_text) >= _SEED_LIMIT:
        raise RecordsError(f"its seed ({seed_text[:30]!r}) is not a whole number below 2^53")
    try:
        size = parse_size(fields["size"], "its size") if "size" in fields else DEFAULT_SIZE
    except ValueError as exc:
        raise RecordsError(str(exc)) from None
    if not re.fullmatch(r"\d{1,7}", count_text) or int(count_text) > max_moves_for(size):
        raise RecordsError("it does not say how many moves it holds")
    count = int(count_text)
    moves = fields.get("moves", "")
    needed = -(-(-(-count // 4) * 8) // 6)
    if len(moves) != needed or not re.fullmatch(r"[A-Za-z0-9_-]*", moves):
        raise RecordsError(f"its moves are damaged (it announces {count} moves)")
    try:
        packed = base64.urlsafe_b64decode(moves + "=" * (-len(moves) % 4))
    except (binascii.Error, ValueError):
        raise RecordsError("its moves are damaged") from None
    history = "".join(
        LETTERS[(packed[index // 4] >> (6 - 2 * (index % 4))) & 3] for index in range(count)
    )
    return int(seed_text), history, fields.get("practice") == "1", size


# --- past games ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PastGame:
    """One past game as kept: its review link's fragment and what it came to."""

    code: str
    date: str
    """When it ended, ISO 8601 in UTC."""
    score: int
    tile: int
    moves: int
    practice: bool = False
    won: bool = False
    ended: str = "over"
    """"over" (no move left) or "abandoned" (a new game replaced it)."""

    @classmethod
    def of(cls, game: Game, ended: str, now: datetime | None = None) -> PastGame:
        history = "".join(direction.letter for direction in game.history)
        return cls(
            code=encode_game(game.seed, history, game.practice, game.size),
            date=(now or datetime.now(UTC)).isoformat(timespec="seconds"),
            score=game.score,
            tile=max(max(row) for row in game.board),
            moves=game.moves,
            practice=game.practice,
            won=game.won,
            ended=ended,
        )

    @property
    def seed(self) -> int:
        return decode_game(self.code)[0]

    @property
    def size(self) -> BoardSize:
        return decode_game(self.code)[3]

    def game(self) -> Game:
        """The game replayed from its seed and moves; RecordsError if they do not make it."""
        seed, history, practice, size = decode_game(self.code)
        try:
            game = Game.replay(seed, history, strict=True, practice=practice, size=size)
        except (GameError, ValueError) as exc:
            raise RecordsError(f"its moves do not replay: {exc}") from None
        if game.score != self.score or max(max(row) for row in game.board) != self.tile:
            raise RecordsError("it does not replay to the score and tile it claims")
        return game

    @classmethod
    def from_json(cls, entry: Any) -> PastGame:
        if not isinstance(entry, dict) or not isinstance(entry.get("code"), str):
            raise RecordsError("it is not a past game")
        _seed, history, practice, _size = decode_game(entry["code"])
        numbers = [entry.get(name) for name in ("score", "tile", "moves")]
        if not all(is_int(n) and n >= 0 for n in numbers):
            raise RecordsError("its score, tile and moves must be whole numbers")
        if entry["moves"] != len(history):
            raise RecordsError("its move count disagrees with its moves")
        try:
            datetime.fromisoformat(str(entry.get("date")).replace("Z", "+00:00"))
        except ValueError:
            raise RecordsError("its date is not a date") from None
        ended = "abandoned" if entry.get("ended") == "abandoned" else "over"
        return cls(
            entry["code"],
            str(entry["date"]),
            entry["score"],
            entry["tile"],
            entry["moves"],
            practice,
            bool(entry.get("won")),
            ended,
        )


def parse_games(data: bytes) -> list[PastGame]:
    """The games of a py2048-games file (``games.json``, or the browser's "Export all");
    RecordsError says what is wrong, naming the game at fault."""
    try:
        file = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        raise RecordsError("it is not JSON") from None
    if not isinstance(file, dict) or file.get("format") != GAMES_FORMAT:
        raise RecordsError(f"it is not a py2048 list of games (its format is not {GAMES_FORMAT!r})")
    entries = file.get("games")
    if not isinstance(entries, list):
        raise RecordsError("it holds no list of games")
    games = []
    for number, entry in enumerate(entries, start=1):
        try:
            games.append(PastGame.from_json(entry))
        except RecordsError as exc:
            raise RecordsError(f"game {number} cannot be read: {exc}") from None
    return games


def games_text(games: list[PastGame]) -> str:
    return json.dumps({"format": GAMES_FORMAT, "version": 1, "games": [asdict(g) for g in games]})


# --- statistics ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counts:
    """One kind of game's counts (normal or practice)."""

    played: int = 0
    won: int = 0
    total_score: int = 0
    best_score: int = 0
    best_tile: int = 0
    final_tiles: dict[int, int] = field(default_factory=dict)
    """The largest tile a game ended with -> how many games."""
    streak: int = 0
    """Games won in a row, up to the last one."""
    longest_streak: int = 0

    def counted(self, score: int, tile: int, won: bool) -> Counts:
        """These counts after one more game."""
        streak = self.streak + 1 if won else 0
        tiles = dict(self.final_tiles)
        tiles[tile] = tiles.get(tile, 0) + 1
        return Counts(
            played=self.played + 1,
            won=self.won + won,
            total_score=self.total_score + score,
            best_score=max(self.best_score, score),
            best_tile=max(self.best_tile, tile),
            final_tiles=tiles,
            streak=streak,
            longest_streak=max(self.longest_streak, streak),
        )

    @property
    def win_rate(self) -> float:
        """Percent of the games played that reached 2048."""
        return 100.0 * self.won / self.played if self.played else 0.0

    @property
    def average_score(self) -> int:
        return round(self.total_score / self.played) if self.played else 0

    def to_json(self) -> dict[str, Any]:
        saved = asdict(self)
        saved["final_tiles"] = {str(tile): n for tile, n in sorted(self.final_tiles.items())}
        return saved

    @classmethod
    def from_json(cls, saved: Any) -> Counts:
        if not isinstance(saved, dict):
            raise ValueError("expected an object of counts")
        names = ("played", "won", "total_score", "best_score", "best_tile", "streak")
        values: dict[str, Any] = {name: saved.get(name) for name in (*names, "longest_streak")}
        for name, value in values.items():
            if not is_int(value) or value < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more")
        tiles = saved.get("final_tiles")
        if not isinstance(tiles, dict):
            raise ValueError("final_tiles must be an object")
        final_tiles = {}
        for tile, count in tiles.items():
            if not str(tile).isdigit() or not isinstance(count, int) or count < 0:
                raise ValueError("final_tiles must map tiles to counts")
            final_tiles[int(tile)] = count
        return cls(**values, final_tiles=final_tiles)


@dataclass(frozen=True, slots=True)
class Statistics:
    games: Counts = field(default_factory=Counts)
    practice: Counts = field(default_factory=Counts)
    counted: int | None = None
    """The seed of the last game counted, so that it is never counted twice."""


class Records:
    """The statistics of one board size and the past games (of every size) of one data
    folder."""

    def __init__(self, directory: Path, size: BoardSize = DEFAULT_SIZE) -> None:
        self.directory = directory
        self.size = size
        self.statistics_path = directory / size_file(STATISTICS_FILE, size)
        self.games_path = directory / GAMES_FILE
        self.problems: list[UnreadableSave] = []
        """Files found unreadable (and moved aside) since this was made."""

    def _read(self, path: Path) -> bytes | None:
        try:
            return Storage._read(path)
        except (FileNotFoundError, NotADirectoryError):  # none, or the folder is a file
            return None

    def _set_aside(self, path: Path, error: Exception) -> None:
        self.problems.append(Storage._set_aside(path, error))

    def statistics(self) -> Statistics:
        """The counts so far (none if there is no file; an unreadable one is moved aside)."""
        try:
            data = self._read(self.statistics_path)
            if data is None:
                return Statistics()
            saved = json.loads(data.decode("utf-8"))
            if not isinstance(saved, dict):
                raise ValueError("expected an object")
            counted = saved.get("counted")
            return Statistics(
                Counts.from_json(saved.get("games")),
                Counts.from_json(saved.get("practice")),
                counted if is_int(counted) else None,
            )
        except (OSError, ValueError, RecursionError, SaveError) as exc:
            self._set_aside(self.statistics_path, exc)
            return Statistics()

    def games(self) -> list[PastGame]:
        """The past games, newest first (none if there is no file; an unreadable one is moved
        aside)."""
        try:
            data = self._read(self.games_path)
            return [] if data is None else parse_games(data)
        except (OSError, ValueError, SaveError) as exc:
            self._set_aside(self.games_path, exc)
            return []

    def _write(self, path: Path, text: str) -> None:
        from py2048.files import atomic_write

        with atomic_write(path) as file:
            file.write(text.encode("utf-8"))

    def save_games(self, games: list[PastGame]) -> None:
        self._write(self.games_path, games_text(games[:KEEP_GAMES]))

    def save_statistics(self, statistics: Statistics) -> None:
        saved = {
            "games": statistics.games.to_json(),
            "practice": statistics.practice.to_json(),
            "counted": statistics.counted,
        }
        self._write(self.statistics_path, json.dumps(saved))

    def record(self, game: Game, ended: str, now: datetime | None = None) -> bool:
        """Keep a game that ended ("over") or that a new game replaced ("abandoned"): it joins
        the past games and the statistics of its size count it, once. The same game kept again
        (Undo after game over, then another end) replaces its entry and is not counted twice.
        False when the game has no move (nothing to keep). OSError when a file cannot be
        written; ValueError for a game of another size than these records'."""
        if game.size != self.size:
            raise ValueError(f"a {game.size} game cannot be counted with the {self.size} games")
        if game.moves == 0:
            return False
        entry = PastGame.of(game, ended, now)
        statistics = self.statistics()
        again = statistics.counted == game.seed
        kept = [
            g for g in self.games() if not (again and g.seed == game.seed and g.size == game.size)
        ]
        self.save_games([entry, *kept])
        if not again:
            won = entry.tile >= WIN_TILE or game.won
            if entry.practice:
                statistics = replace(
                    statistics, practice=statistics.practice.counted(entry.score, entry.tile, won)
                )
            else:
                statistics = replace(
                    statistics, games=statistics.games.counted(entry.score, entry.tile, won)
                )
            self.save_statistics(replace(statistics, counted=game.seed))
        return True

    def remove(self, code: str) -> None:
        self.save_games([g for g in self.games() if g.code != code])

    def reset_statistics(self) -> None:
        """Every count back to zero; the past games stay."""
        self.save_statistics(replace(Statistics(), counted=self.statistics().counted))
