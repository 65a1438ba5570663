"""``2048 review [FILE]``: the solver grades every move of a saved game and prints the summary.

FILE is a py2048 save (the terminal game's ``game.json``, or a file exported from the browser);
without it, the terminal game's current save. ``--json`` prints the review as JSON instead
(:meth:`py2048.solver.GameReview.to_dict`, with ``practice``: whether Undo was used).
The review shows its progress on the terminal while it runs; Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from py2048.solver.grades import DEFAULT_SETTING, REVIEW_SETTINGS

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
        help="a py2048 save (default: the terminal game's current save)",
    )
    parser.add_argument(
        "--setting",
        choices=list(REVIEW_SETTINGS),
        default=DEFAULT_SETTING,
        help="how deep the solver searches each position: "
        + "; ".join(f"{s.name}: {s.summary}" for s in REVIEW_SETTINGS.values()),
    )
    parser.add_argument("--json", action="store_true", help="print every move's record as JSON")


def read_game(path: Path) -> object:
    """The game saved at ``path``; ValueError says why it cannot be reviewed."""
    from py2048.engine import Game, SaveError
    from py2048.tui.review import replay_problem
    from py2048.tui.storage import Storage

    try:
        game = Game.from_json(Storage._read(path))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from None
    except SaveError as exc:
        raise ValueError(f"{path} is not a py2048 game: {exc}") from None
    problem = replay_problem(game)
    if problem:
        raise ValueError(f"{path}: {problem}")
    return game


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from py2048.engine import Game
    from py2048.solver import review
    from py2048.tui.palette import colour_system
    from py2048.tui.review import summary
    from py2048.tui.storage import GAME_FILE, default_data_dir

    path = args.file if args.file is not None else default_data_dir() / GAME_FILE
    game = read_game(path)
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

        graded = review(game.seed, game.history, setting=args.setting, progress=report)
    if args.json:
        sys.stdout.write(json.dumps({"practice": game.practice} | graded.to_dict()) + "\n")
        return 0
    console = Console()
    system = colour_system(console.color_system)
    console.print(summary(graded, practice=game.practice, system=system))
    return 0
