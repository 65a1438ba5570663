"""``2048 play``: its flags, and starting the terminal game.

Textual is imported only when the command runs, so the command line can build its parser
without loading it.
"""

from __future__ import annotations

import argparse
import sys

from py2048.argtypes import non_negative_int
from py2048.engine.size import MAX_SIDE, MIN_SIDE, BoardSize, parse_size

HELP = "play in the terminal"


def board_size(text: str) -> BoardSize:
    """``--size``: rows x columns (``5x5``, ``4x6``) or one side for a square (``5``)."""
    try:
        return parse_size(text, "the board")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--size",
        type=board_size,
        metavar="RxC",
        help=f"the board: rows x columns, {MIN_SIDE} to {MAX_SIDE} each (5x5, 4x6; default: the "
        "size last played, 4x4 at first); each size keeps its own save, best score and statistics",
    )
    parser.add_argument("--seed", type=non_negative_int, help="start a reproducible game")
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a new game (the save is kept until the first move)",
    )


def run(args: argparse.Namespace) -> int:
    if not sys.stdout.isatty():
        print(
            "2048: error: play needs a terminal: its standard output is a file or a pipe, "
            "where the game would write only escape codes. Run 2048 play in a terminal.",
            file=sys.stderr,
        )
        return 2
    from py2048.tui.app import run as play

    return play(seed=args.seed, new=args.new, size=args.size)
