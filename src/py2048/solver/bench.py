"""``2048 bench``: many headless games with the solver, on every core or on a Ray cluster.

Game ``i`` uses seed ``seed + i``, so a bench is reproducible and comparable game for game.
This module is the command: its flags (:func:`add_arguments`), its run and what it prints.
What a bench plays is :mod:`.bench_settings`, where its games run (worker processes or Ray)
:mod:`.bench_games`, and what it reports :mod:`.report` (the table) and :mod:`.bench_report`
(the tables line and the JSON document); their names are importable from here too. The
compiled game and the search load only when a bench runs, so the command line builds its
parser without them.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

from py2048.argtypes import non_negative_int, positive_int
from py2048.cluster import RAY_CONNECT_TIMEOUT_S, connect_to_ray, ray_connection
from py2048.engine.size import BoardSize, parse_size
from py2048.solver.bench_games import play_one, run_bench
from py2048.solver.bench_report import bench_report, network_line, tables_line
from py2048.solver.bench_settings import BenchSettings
from py2048.solver.presets import BUDGETS, DEFAULT_PRESET, PRESETS
from py2048.solver.spawns import RNGS
from py2048.solver.stats import summarize

if TYPE_CHECKING:
    from py2048.solver.autoplay import GameRecord

__all__ = [
    "HELP",
    "RAY_CONNECT_TIMEOUT_S",
    "BenchSettings",
    "add_arguments",
    "bench_in_terminal",
    "bench_report",
    "connect_to_ray",
    "play_one",
    "ray_connection",
    "run",
    "run_bench",
    "tables_line",
]

HELP = "measure the solver over many games"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``2048 bench``; :func:`run` reads them."""
    parser.description = (
        "Let the solver play many games, on every core or on a Ray cluster, and print its "
        "strength: the mean, median and best score, how often each tile from 2048 up was "
        "reached (with 95% intervals), moves per second and the share of moves the endgame "
        "tables chose. Game i uses seed+i, so a run is reproducible and two runs are "
        "comparable game for game; --json keeps every game's figures."
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=BenchSettings.games,
        help="games to play (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=BenchSettings.seed,
        help="seed of game 0; game i uses seed+i (default: %(default)s)",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--depth", type=non_negative_int, help="fixed depth: dN searches N+1 player moves"
    )
    budget.add_argument("--time-ms", type=float, help="time budget per move in milliseconds")
    budget.add_argument(
        "--preset", choices=list(PRESETS), help=f"a named preset (default: {DEFAULT_PRESET})"
    )
    parser.add_argument(
        "--budget",
        choices=BUDGETS,
        default=BenchSettings.budget,
        help="how a preset caps each move: time (its milliseconds, as in play) or nodes (its "
        "budget in positions: the same games on any machine under any load; default: "
        "%(default)s)",
    )
    parser.add_argument(
        "--workers", type=positive_int, help="worker processes (default: every core)"
    )
    parser.add_argument(
        "--json", dest="json_path", metavar="PATH", help="write every game's figures here"
    )
    parser.add_argument(
        "--rng",
        choices=RNGS,
        default=BenchSettings.rng,
        help="spawn generator: py2048's own, or libc rand() as the public C++ AIs use",
    )
    parser.add_argument(
        "--ray", dest="ray_address", metavar="ADDRESS", help="run the games on this Ray cluster"
    )
    parser.add_argument(
        "--evaluator",
        metavar="NAME",
        help="board evaluation: ntuple-snake (default: the shipped network pulled toward the "
        "endgame formation), ntuple (the network alone) or heuristic",
    )
    parser.add_argument(
        "--size",
        type=_board_size,
        default=BenchSettings.size,
        help="board size, rows x columns from 3 to 8 (default: %(default)s); off 4x4 the games "
        "play with the heuristic and py2048's spawns",
    )
    parser.add_argument(
        "--max-moves",
        type=positive_int,
        metavar="N",
        help="stop each game after N moves and count it as capped (good play on the largest "
        "boards goes on for millions of moves); default: play every game to its end",
    )
    parser.add_argument(
        "--no-tables",
        dest="tables",
        action="store_false",
        help="search every move, even where a built endgame table fits",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``2048 bench`` with the flags of :func:`add_arguments`."""
    settings = BenchSettings(
        games=args.games,
        seed=args.seed,
        depth=args.depth,
        time_ms=args.time_ms,
        preset=args.preset,
        workers=args.workers,
        rng=args.rng,
        evaluator=args.evaluator,
        ray_address=args.ray_address,
        json_path=args.json_path,
        tables=args.tables,
        budget=args.budget,
        size=args.size,
        max_moves=args.max_moves,
    )
    return bench_in_terminal(settings.checked())


def _board_size(text: str) -> BoardSize:
    try:
        return parse_size(text, "size")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def bench_in_terminal(settings: BenchSettings) -> int:
    """Play the bench with a progress bar, then print the table (and write the JSON).

    With ``--ray`` the cluster is reached first, so a missing Ray or a cluster that does not
    answer is the only thing printed.
    """
    if settings.ray_address is None:
        return _bench_in_terminal(settings)
    with ray_connection(settings.ray_address):
        return _bench_in_terminal(settings)


def _bench_in_terminal(settings: BenchSettings) -> int:
    from rich.console import Console

    from py2048.solver.report import games_progress, summary_table

    console = Console()
    capped = f", at most {settings.max_moves:,} moves a game" if settings.max_moves else ""
    where = (
        f"Ray at {settings.ray_address}"
        if settings.ray_address
        else (f"{settings.worker_count()} worker process(es)")
    )
    console.print(
        f"py2048 bench: {settings.board_size}, {settings.games} games, seeds {settings.seed}.."
        f"{settings.seed + settings.games - 1}, {settings.label()}, rng {settings.rng}"
        f"{capped}, {where}",
        soft_wrap=True,
    )
    loading = time.perf_counter()
    console.print(tables_line(settings), soft_wrap=True)
    network = network_line(settings)
    if network is not None:
        console.print(network, soft_wrap=True)
    if settings.ray_address is None and settings.worker_count() == 1:
        settings.evaluator_name()  # this process plays: load the network here too
    console.print(
        f"loaded in {time.perf_counter() - loading:.2f} s (outside every clock)", soft_wrap=True
    )
    started = time.perf_counter()
    with games_progress(console) as progress:
        task = progress.add_task("games", total=settings.games)
        best = [0]
        finished = [0]

        def advance(record: GameRecord) -> None:
            best[0] = max(best[0], record.max_tile)
            finished[0] += 1
            progress.update(task, advance=1, description=f"games (best tile {best[0]})")
            if not console.is_terminal:  # a log file gets one line a game instead of the bar
                console.print(
                    f"game {finished[0]}/{settings.games}: seed {record.seed}, score "
                    f"{record.score:,}, max tile {record.max_tile}, {record.moves:,} moves"
                    f"{' (capped)' if record.capped else ''}, "
                    f"{_elapsed(time.perf_counter() - started)}",
                    soft_wrap=True,
                )

        records = run_bench(settings, advance)
    summary = summarize(records, time.perf_counter() - started, settings.board_size)
    console.print(summary_table(summary, f"{settings.board_size}, {settings.label()}"))
    if settings.json_path is not None:
        text = json.dumps(bench_report(settings, records, summary), indent=1)
        try:
            Path(settings.json_path).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            console.print(f"[red]could not write {settings.json_path}: {exc}[/red]", soft_wrap=True)
            return 1
        console.print(f"every game's figures: {settings.json_path}", soft_wrap=True)
    return 0


def _elapsed(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes}:{seconds:02d} elapsed"
