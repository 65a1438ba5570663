"""``2048 play``: its flags, and starting the terminal game.

Textual is imported only when the command runs, so the command line can build its parser
without loading it.
"""

from __future__ import annotations

import argparse

from py2048.argtypes import non_negative_int

HELP = "play in the terminal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=non_negative_int, help="start a reproducible game")
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a new game (the save is kept until the first move)",
    )


def run(args: argparse.Namespace) -> int:
    from py2048.tui.app import run as play

    return play(seed=args.seed, new=args.new)
