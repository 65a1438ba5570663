"""The ``2048`` command: wires each subcommand to the part of py2048 that owns it.

Each command declares its own flags and reads them (``add_arguments(parser)`` and
``run(args)``, beside the command's code); this module only puts them together. The command
modules import their part only when they run, so ``2048 play`` never loads the web server and
``2048 serve`` never loads Textual.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from py2048 import __version__
from py2048.learn import command as train
from py2048.solver import bench, distill
from py2048.tables import command as tables
from py2048.tui import command as play
from py2048.tui import review_command as review
from py2048.web import command as serve


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="2048",
        description="2048 by the official rules. With no command, starts the browser game.",
    )
    parser.add_argument("--version", action="version", version=f"py2048 {__version__}")
    serve.add_arguments(parser)
    parser.set_defaults(handler=serve.run)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, command in (
        ("serve", serve),
        ("play", play),
        ("review", review),
        ("bench", bench),
        ("train", train),
        ("tables", tables),
        ("distill", distill),
    ):
        subparser = commands.add_parser(name, help=command.HELP)
        command.add_arguments(subparser)
        subparser.set_defaults(handler=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
        return status
    except KeyboardInterrupt:
        return 130
    except ValueError as exc:
        print(f"2048: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
