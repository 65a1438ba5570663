"""``2048 review [FILE]``: the solver grades every move of a saved game and prints the summary.

FILE is a py2048 save (the terminal game's ``game.json``, or a file exported from the browser),
of any board size; without it, the terminal game's current save of the size last played, or of
``--size``. ``--games`` lists the past games instead (the
terminal game's, or those of FILE when it is a list of games, as the browser's "Export all"
writes), and ``--game N`` reviews the Nth of them (1 the newest). ``--json`` prints the review
as JSON instead (:meth:`py2048.solver.GameReview.to_dict`, with ``practice``: whether Undo was
used). The review shows its progress on the terminal while it runs; Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from py2048.argtypes import positive_int
from py2048.solver.grades import DEFAULT_SETTING, REVIEW_SETTINGS
from py2048.tui.command import board_size

if TYPE_CHECKING:
    from py2048.tui.records import PastGame

HELP = "review a game: the solver grades every move"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "The solver grades every move of a saved game: accuracy, the moves of each grade and "
        "the costliest moves with the better ones."
    )
    parser.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="FILE",
        help="a py2048 save (default: the terminal game's current save), or with --games and "
        "--game a list of past games (the browser's Export all; default: the terminal game's)",
    )
    parser.add_argument(
        "--size",
        type=board_size,
        metavar="RxC",
        help="without FILE: review the terminal game's save of this board size (default: the "
        "size last played)",
    )
    parser.add_argument(
        "--games", action="store_true", help="list the past games, newest first, numbered"
    )
    parser.add_argument(
        "--game",
        type=positive_int,
        metavar="N",
        help="review past game N of --games (1: the newest)",
    )
    parser.add_argument(
        "--setting",
        choices=list(REVIEW_SETTINGS),
        default=DEFAULT_SETTING,
        help="how deep the solver searches each position: "
        + "; ".join(f"{s.name}: {s.summary}" for s in REVIEW_SETTINGS.values()),
    )
    parser.add_argument("--json", action="store_true", help="print every move's record as JSON")


def read_game(path: Path, current_save: bool = False) -> object:
    """The game saved at ``path``; ValueError says why it cannot be reviewed. ``current_save``:
    ``path`` is the terminal game's own save, whose absence means no game was played yet."""
    from py2048.engine import Game, SaveError
    from py2048.engine.save import LONG_MAX_SAVE_BYTES
    from py2048.tui.review import replay_problem
    from py2048.tui.storage import Storage

    try:
        game = Game.from_json(Storage._read(path, LONG_MAX_SAVE_BYTES))
    except FileNotFoundError:
        if current_save:
            raise ValueError(
                f"no game to review: {path} does not exist yet. Play a game first "
                "(2048 play), or name a saved game"
            ) from None
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from None
    except SaveError as exc:
        raise ValueError(f"{path} is not a py2048 game: {exc}") from None
    problem = replay_problem(game)
    if problem:
        raise ValueError(f"{path}: {problem}")
    if game.moves == 0:
        raise ValueError(f"nothing to review in {path}: the game has no moves yet")
    return game


def read_past_games(path: Path | None) -> list[PastGame]:
    """The past games of ``path`` (a list of games), or the terminal game's; ValueError says
    why they cannot be read."""
    from py2048.engine import SaveError
    from py2048.tui.records import Records, RecordsError, parse_games
    from py2048.tui.storage import Storage, default_data_dir

    if path is None:
        records = Records(default_data_dir())
        games = records.games()
        if records.problems:
            raise ValueError(records.problems[0].message)
        return games
    try:
        return parse_games(Storage._read(path))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from None
    except (SaveError, RecordsError) as exc:
        raise ValueError(f"{path} is not a list of py2048 games: {exc}") from None


def list_games(games: list[PastGame]) -> str:
    if not games:
        return "No past games yet: every game that ends in 2048 play is kept."
    from py2048.tui.screens.records import when

    lines = [f"{'#':>4}  {'date':<16}  {'size':<4}  {'score':>9}  {'tile':>6}  {'moves':>6}"]
    for number, game in enumerate(games, start=1):
        notes = [n for n, on in (("practice", game.practice),) if on]
        if game.ended == "abandoned":
            notes.append("left unfinished")
        lines.append(
            f"{number:>4}  {when(game):<16}  {game.size!s:<4}  {game.score:>9,}  {game.tile:>6}  "
            f"{game.moves:>6,}" + (f"  {', '.join(notes)}" if notes else "")
        )
    lines.append("Review one with: 2048 review --game N")
    return "\n".join(lines)


def past_game(games: list[PastGame], number: int) -> object:
    """Past game ``number`` (1 the newest) replayed; ValueError says why it cannot be."""
    from py2048.tui.records import RecordsError

    if number > len(games):
        raise ValueError(
            f"there is no past game {number}: {len(games)} are kept (2048 review --games)"
        )
    try:
        return games[number - 1].game()
    except RecordsError as exc:
        raise ValueError(f"past game {number} cannot be reviewed: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from py2048.engine import Game
    from py2048.engine.size import parse_size
    from py2048.tui.palette import colour_system
    from py2048.tui.review import review_game, summary
    from py2048.tui.settings import Settings
    from py2048.tui.storage import Storage, default_data_dir

    if args.games or args.game is not None:
        games = read_past_games(args.file)
        if args.game is None:
            sys.stdout.write(list_games(games) + "\n")
            return 0
        game = past_game(games, args.game)
    else:
        path = args.file
        if path is None:
            directory = default_data_dir()
            size = args.size or Settings.load(directory).size
            path = Storage(directory, parse_size(size)).game_path
        game = read_game(path, current_save=args.file is None)
    assert isinstance(game, Game)
    errors = Console(stderr=True)
    with Progress(
        TextColumn("Reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("moves"),
        console=errors,
        transient=True,
    ) as progress:
        task = progress.add_task("review", total=max(game.moves, 1))

        def report(graded: int, total: int) -> None:
            progress.update(task, completed=graded, total=max(total, 1))

        graded = review_game(game, setting=args.setting, progress=report)
    if args.json:
        sys.stdout.write(json.dumps({"practice": game.practice} | graded.to_dict()) + "\n")
        return 0
    console = Console()
    system = colour_system(console.color_system)
    console.print(summary(graded, practice=game.practice, system=system))
    return 0
