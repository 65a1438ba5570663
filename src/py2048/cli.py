"""The ``2048`` command: parses arguments and hands each subcommand to its part of py2048.

Every part is imported only when its subcommand runs, so ``2048 play`` never loads the web
server and ``2048 serve`` never loads Textual.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from py2048 import __version__
from py2048.solver.presets import PRESETS


def _serve(args: argparse.Namespace) -> int:
    from py2048.web.server import serve

    serve(host=args.host, port=args.port, open_browser=not args.no_browser)
    return 0


def _play(args: argparse.Namespace) -> int:
    from py2048.tui.app import run

    return run(seed=args.seed, new=args.new)


def _bench(args: argparse.Namespace) -> int:
    from py2048.solver.bench import bench_command

    return bench_command(args)


def _train(args: argparse.Namespace) -> int:
    from py2048.learn.command import train_command

    return train_command(args)


def _add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    parser.add_argument("--port", type=int, default=2048, help="port (default: %(default)s)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="2048",
        description="2048 by the official rules. With no command, starts the browser game.",
    )
    parser.add_argument("--version", action="version", version=f"py2048 {__version__}")
    _add_serve_arguments(parser)
    parser.set_defaults(handler=_serve)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    serve = commands.add_parser("serve", help="play in the browser (the default)")
    _add_serve_arguments(serve)
    serve.set_defaults(handler=_serve)

    play = commands.add_parser("play", help="play in the terminal")
    play.add_argument("--seed", type=_non_negative_int, help="start a reproducible game")
    play.add_argument(
        "--new",
        action="store_true",
        help="start a new game (the save is kept until the first move)",
    )
    play.set_defaults(handler=_play)

    bench = commands.add_parser("bench", help="measure the solver over many games")
    bench.add_argument(
        "--games", type=_positive_int, default=100, help="games to play (default: %(default)s)"
    )
    bench.add_argument(
        "--seed",
        type=_non_negative_int,
        default=2001,
        help="seed of game 0; game i uses seed+i (default: %(default)s)",
    )
    budget = bench.add_mutually_exclusive_group()
    budget.add_argument(
        "--depth", type=_non_negative_int, help="fixed depth: dN searches N+1 player moves"
    )
    budget.add_argument("--time-ms", type=float, help="time budget per move in milliseconds")
    budget.add_argument("--preset", choices=list(PRESETS), help="a named preset")
    bench.add_argument(
        "--workers", type=_positive_int, help="worker processes (default: every core)"
    )
    bench.add_argument(
        "--json", dest="json_path", metavar="PATH", help="write every game's figures here"
    )
    bench.add_argument(
        "--rng",
        choices=["py2048", "c-rand"],
        default="py2048",
        help="spawn generator: py2048's own, or libc rand() as the public C++ AIs use",
    )
    bench.add_argument(
        "--ray", dest="ray_address", metavar="ADDRESS", help="run the games on this Ray cluster"
    )
    bench.add_argument(
        "--evaluator",
        metavar="NAME",
        help="board evaluation: ntuple (default, the shipped network) or heuristic",
    )
    bench.set_defaults(handler=_bench)

    train = commands.add_parser(
        "train", help="train an n-tuple network by TD learning (from scratch or resumed)"
    )
    train.add_argument(
        "--games",
        type=_positive_int,
        default=100_000,
        help="train until this many games in all (default: %(default)s)",
    )
    train.add_argument("--seed", type=_non_negative_int, help="seed of the run (default: 0)")
    train.add_argument("--workers", type=_positive_int, help="training threads (default: 1)")
    train.add_argument(
        "--checkpoint",
        metavar="PATH",
        help="checkpoint file, saved atomically (default: ntuple-checkpoint.npz)",
    )
    train.add_argument("--resume", action="store_true", help="continue the checkpoint")
    train.add_argument(
        "--tuples", help='cells of each tuple, e.g. "0,1,2,3,4,5/4,5,6,7,8,9" (cell = 4*row+col)'
    )
    train.add_argument("--alpha", type=float, help="learning rate (default: 1.0 with TC)")
    train.add_argument(
        "--step-size",
        choices=["tc", "fixed"],
        help="temporal coherence (default) or a fixed learning rate",
    )
    train.add_argument(
        "--stage-tiles",
        metavar="TILES",
        help='split the network into stages at these largest tiles, e.g. "16384"; on --resume, '
        "new stages start as copies (default: one stage)",
    )
    train.add_argument(
        "--restart-tiles",
        metavar="TILES",
        help='tiles whose first appearance adds the board to the restart pool, e.g. "8192,16384"',
    )
    train.add_argument(
        "--restart-share",
        type=float,
        help="share of games started from the restart pool (default: 0, every game fresh)",
    )
    train.add_argument("--export", metavar="PATH", help="also write the weights file here")
    train.add_argument(
        "--checkpoint-minutes",
        type=float,
        default=10.0,
        help="minutes between checkpoints (default: %(default)s)",
    )
    train.set_defaults(handler=_train)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except ValueError as exc:
        print(f"2048: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
