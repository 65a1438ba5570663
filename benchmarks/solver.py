r"""The solver's speed against macroxue/2048-ai at equal depth, and the presets' hint latency.

``peer`` (the default) plays the same c-rand seeds with py2048 (``2048 bench --rng c-rand
--depth N --workers 1``, in this process) and with macroxue/2048-ai's ``2048`` (``./2048 -dN
-iGAMES SEED``: the same srand(seed + i) spawns, the same depth counting), one after the other
in interleaved rounds (py2048 d2, macroxue d2, py2048 d3, macroxue d3, then again), so that a
background job slows both alike. Per round and over all rounds it prints each program's moves
per second (all moves over the time the games took, loading excluded), positions per move
(positions searched over all moves, the table moves included) and the ratios py2048 /
macroxue, with the cost of one position (time per position) and each program's mean score.

macroxue is not shipped with py2048; build it outside the repository, with one counter added
so that it reports the positions it searches (one per call of ``TryAllTiles``, which evaluates
every afterstate it visits, as py2048 counts its chance nodes and leaves), and its per-game
seconds printed to 0.1 ms instead of 0.1 s:

    git clone https://github.com/macroxue/2048-ai /work/peers/macroxue   # any folder outside
    cd /work/peers/macroxue
    sed -i 's/^class Node : public Board {/static long long positions_searched = 0;\n\n&/' node.h
    sed -i '/int TryAllTiles(int depth, float prob) {/a\    ++positions_searched;' node.h
    sed -i 's|seconds %.1f moves/s %.1f\\n", options.seed + i,|seconds %.4f moves/s %.1f '\
    'positions %lld\\n", options.seed + i,|; s|num_moves, seconds, num_moves / seconds);|'\
    'num_moves, seconds, num_moves / seconds, positions_searched);\n    positions_searched = 0;|' \
        2048.cc
    make 2048
    ./2048 -d2 -i1 2001   # the first run computes its lookup tables (minutes, ~5 GB of memory)

then point ``PY2048_MACROXUE`` at the binary (its tables are read from its own folder):

    PY2048_MACROXUE=/work/peers/macroxue/2048 PY2048_TABLES_DIR=/work/tables \
        nice python benchmarks/solver.py peer --depths 2 3 --games 5 --rounds 3

Without ``PY2048_MACROXUE`` (or with a binary that does not print its positions) the peer
comparison is skipped with a message saying why. macroxue fills and saves its lookup tables as
it plays, so a run right after the first is quicker than the first: warm them as above.

``latency`` times ``best_move`` with each preset, and at each fixed depth of ``--depths``, on
positions from games the solver plays itself (one thread, as a web or terminal hint runs):
median, mean, 99th percentile and maximum answer time against the preset's cap, positions
searched per move, the moves a table answered and the depths the searches reached; ``--json``
keeps the figures (``docs/results/latency-*.json``). Strength is measured by ``2048 bench``
instead (see docs/solver.md).

    PY2048_TABLES_DIR=/work/tables nice -n 10 python benchmarks/solver.py latency --games 2 \
        --every 20 --depths 1 2 3 4 5 --json docs/results/latency-DATE.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PEER_VARIABLE = "PY2048_MACROXUE"
"""The environment variable that points to macroxue/2048-ai's ``2048`` binary (built as the
module docstring says)."""

_GAME_LINE = re.compile(
    r"game# (?P<seed>\d+) moves (?P<moves>\d+) seconds (?P<seconds>[\d.]+) "
    r"moves/s [\d.]+ positions (?P<positions>\d+)"
)
_SCORE_LINE = re.compile(r"score (?P<score>\d+) max (?P<max>\d+)")


@dataclass(frozen=True)
class Played:
    """One program's games of one round at one depth."""

    program: str
    depth: int
    games: int
    moves: int
    seconds: float
    positions: int
    mean_score: float

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def positions_per_move(self) -> float:
        return self.positions / self.moves

    @property
    def microseconds_per_position(self) -> float:
        return 1e6 * self.seconds / self.positions if self.positions else float("nan")


def play_py2048(depth: int, games: int, seed: int) -> Played:
    """``2048 bench --rng c-rand --depth DEPTH --workers 1`` in this process."""
    # internal: `2048 bench` in this process, to read its records rather than its printout
    from py2048.solver.bench import BenchSettings, run_bench

    settings = BenchSettings(games=games, seed=seed, depth=depth, rng="c-rand", workers=1)
    records = run_bench(settings)
    return Played(
        "py2048",
        depth,
        len(records),
        sum(r.moves for r in records),
        sum(r.seconds for r in records),
        sum(r.nodes for r in records),
        statistics.fmean(r.score for r in records),
    )


def play_macroxue(binary: Path, depth: int, games: int, seed: int) -> Played:
    """``./2048 -dDEPTH -iGAMES SEED`` in the binary's folder, where its tables are."""
    done = subprocess.run(
        [str(binary), f"-d{depth}", f"-i{games}", str(seed)],
        cwd=binary.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{binary} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return parse_macroxue(done.stdout, depth)


def parse_macroxue(output: str, depth: int) -> Played:
    """The figures of macroxue's output: one "game# ... positions N" line per game, each after
    the final board's "score S max M" line. ValueError when a game line lacks the positions
    (an unpatched build)."""
    games = [m.groupdict() for m in _GAME_LINE.finditer(output)]
    scores = [int(m["score"]) for m in _SCORE_LINE.finditer(output)]
    if not games:
        raise ValueError(
            "macroxue printed no 'game# ... positions N' line: build it with the positions "
            "counter (benchmarks/solver.py's docstring gives the steps)"
        )
    final_scores = scores[-len(games) :] if len(scores) >= len(games) else scores
    return Played(
        "macroxue",
        depth,
        len(games),
        sum(int(g["moves"]) for g in games),
        sum(float(g["seconds"]) for g in games),
        sum(int(g["positions"]) for g in games),
        statistics.fmean(final_scores) if final_scores else float("nan"),
    )


def pooled(rounds: list[Played]) -> Played:
    """Several rounds of one program at one depth as one."""
    return Played(
        rounds[0].program,
        rounds[0].depth,
        sum(r.games for r in rounds),
        sum(r.moves for r in rounds),
        sum(r.seconds for r in rounds),
        sum(r.positions for r in rounds),
        statistics.fmean(r.mean_score for r in rounds),
    )


def compare_line(label: str, ours: Played, theirs: Played) -> str:
    return (
        f"{label:<10} d{ours.depth}  moves/s {ours.moves_per_second:>9,.0f} "
        f"{theirs.moves_per_second:>9,.0f}"
        f"  x{ours.moves_per_second / theirs.moves_per_second:>5.2f}"
        f"  positions/move {ours.positions_per_move:>7,.0f} {theirs.positions_per_move:>7,.0f}"
        f"  x{ours.positions_per_move / theirs.positions_per_move:>5.2f}"
        f"  us/position x{ours.microseconds_per_position / theirs.microseconds_per_position:>4.2f}"
        f"  mean score {ours.mean_score:>9,.0f} {theirs.mean_score:>9,.0f}"
    )


def peer(args: argparse.Namespace) -> int:
    configured = os.environ.get(PEER_VARIABLE)
    if not configured:
        print(
            f"skipped: set {PEER_VARIABLE} to macroxue/2048-ai's 2048 binary, built as "
            "benchmarks/solver.py's docstring says"
        )
        return 0
    binary = Path(configured).resolve()
    if not binary.is_file() or not os.access(binary, os.X_OK):
        print(f"skipped: {PEER_VARIABLE}={configured} is not an executable file")
        return 0
    tables = _pin_tables(args.tables)
    from py2048.evaluation import get_evaluator

    # internal: which network plays, as `2048 bench` records it in its JSON
    from py2048.evaluation.ntuple import network_in_use

    # internal: the header line `2048 bench` prints about the tables
    from py2048.solver.bench import BenchSettings, tables_line

    print(f"py2048 against {binary}, c-rand seeds {args.seed}..{args.seed + args.games - 1}")
    print(tables_line(BenchSettings(depth=0)) + f" (PY2048_TABLES_DIR={tables})")
    get_evaluator(None)
    network = network_in_use()
    print(f"network: {network['file']} (sha256 {network['sha256']}, {network['chosen_by']})")
    for depth in args.depths:  # compile and warm both programs before any round is timed
        play_py2048(depth, 1, args.seed)
    print("columns: py2048, macroxue, ratio py2048 / macroxue")
    results: dict[tuple[str, int], list[Played]] = {}
    for round_number in range(1, args.rounds + 1):
        for depth in args.depths:
            try:
                theirs = play_macroxue(binary, depth, args.games, args.seed)
            except ValueError as exc:
                print(f"skipped: {exc}")
                return 0
            ours = play_py2048(depth, args.games, args.seed)
            results.setdefault(("py2048", depth), []).append(ours)
            results.setdefault(("macroxue", depth), []).append(theirs)
            print(compare_line(f"round {round_number}", ours, theirs), flush=True)
    for depth in args.depths:
        ours = pooled(results["py2048", depth])
        theirs = pooled(results["macroxue", depth])
        print(compare_line("all rounds", ours, theirs))
    if args.json_path:
        report = {
            "command": "python benchmarks/solver.py " + " ".join(sys.argv[1:]),
            "peer": str(binary),
            "tables_dir": str(tables),
            "tables": list(_table_names()),
            "network": network,
            "rounds": {
                f"{program} d{depth}": [asdict(r) for r in played]
                for (program, depth), played in results.items()
            },
        }
        Path(args.json_path).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"every round's figures: {args.json_path}")
    return 0


def _table_names() -> tuple[str, ...]:
    # internal: the tables the solver would play with, as `2048 bench` reports them
    from py2048.solver.endgame import endgame_tables

    return endgame_tables().labels


def _pin_tables(folder: str | None) -> Path:
    """Set PY2048_TABLES_DIR for this run (the folder given, else the one already set, else
    the user cache's) before any table is opened, and return it."""
    from py2048.tables import tables_dir

    resolved = tables_dir(folder).resolve()
    os.environ["PY2048_TABLES_DIR"] = str(resolved)
    return resolved


def positions(games: int, every: int, seed: int) -> list[list[list[int]]]:
    """Every ``every``-th board of ``games`` games played by the solver at depth 1."""
    from py2048 import Game
    from py2048.solver import best_move

    boards = []
    for g in range(games):
        game = Game(seed + g)
        while not game.over:
            if game.moves % every == 0:
                boards.append(game.board)
            direction = best_move(game.board, depth=1).direction
            assert direction is not None  # the game is not over
            game.move(direction)
    return boards


def latency_figures(label: str, cap_ms: float | None, hints: list[Any]) -> dict[str, Any]:
    times = sorted(h.elapsed_ms for h in hints)
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return {
        "setting": label,
        "cap_ms": cap_ms,
        "median_ms": statistics.median(times),
        "mean_ms": statistics.fmean(times),
        "p99_ms": p99,
        "max_ms": times[-1],
        "positions_per_move": statistics.fmean(h.nodes for h in hints),
        "table_answers": sum(h.source != "search" for h in hints),
        "depths": {
            str(d): n
            for d, n in sorted(Counter(h.depth for h in hints if h.source == "search").items())
        },
    }


def latency(args: argparse.Namespace) -> int:
    from py2048.solver import PRESETS, best_move

    folder = _pin_tables(args.tables)
    print(f"tables folder (PY2048_TABLES_DIR): {folder}")
    boards = positions(args.games, args.every, args.seed)
    print(f"{len(boards)} positions from {args.games} games (seeds {args.seed}+)")
    print(
        f"{'setting':<9} {'cap ms':>7} {'median':>8} {'mean':>8} {'p99':>8} {'max':>8}  "
        f"{'positions':>9}  {'tables':>6}  depths of the searches"
    )
    settings: list[tuple[str, float | None, dict[str, Any]]] = [
        (name, preset.time_ms, {"preset": name}) for name, preset in PRESETS.items()
    ]
    settings += [(f"d{depth}", None, {"depth": depth}) for depth in args.depths]
    rows = []
    for label, cap, limits in settings:
        best_move(boards[0], **limits)  # load the tables and size this thread's workspace
        row = latency_figures(label, cap, [best_move(board, **limits) for board in boards])
        rows.append(row)
        print(
            f"{label:<9} {'-' if cap is None else f'{cap:.0f}':>7} {row['median_ms']:>8.2f} "
            f"{row['mean_ms']:>8.2f} {row['p99_ms']:>8.2f} {row['max_ms']:>8.2f}  "
            f"{row['positions_per_move']:>9,.0f}  {row['table_answers']:>6}  {row['depths']}"
        )
    if args.json_path:
        report = {
            "command": "python benchmarks/solver.py " + " ".join(sys.argv[1:]),
            "date": time.strftime("%Y-%m-%d"),
            "positions": len(boards),
            "tables": list(_table_names()),
            "rows": rows,
        }
        Path(args.json_path).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"figures: {args.json_path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command")
    against = commands.add_parser("peer", help="py2048 against macroxue/2048-ai, interleaved")
    against.add_argument("--depths", type=int, nargs="+", default=[2, 3])
    against.add_argument("--games", type=int, default=5, help="games per program and round")
    against.add_argument("--rounds", type=int, default=3)
    against.add_argument("--seed", type=int, default=2001)
    against.add_argument("--json", dest="json_path", metavar="PATH", help="write every round")
    timed = commands.add_parser("latency", help="each preset's answer times on real positions")
    timed.add_argument("--games", type=int, default=4)
    timed.add_argument("--every", type=int, default=10)
    timed.add_argument("--seed", type=int, default=2001)
    timed.add_argument(
        "--depths", type=int, nargs="*", default=[1, 2, 3, 4], help="fixed depths timed too"
    )
    timed.add_argument("--json", dest="json_path", metavar="PATH", help="write the figures")
    for command in (against, timed):
        command.add_argument(
            "--tables", metavar="DIR", help="tables folder (default: $PY2048_TABLES_DIR)"
        )
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["peer", *argv]
    args = parser.parse_args(argv)
    return peer(args) if args.command == "peer" else latency(args)


if __name__ == "__main__":
    sys.exit(main())
