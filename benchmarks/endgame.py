r"""The late game, measured cheaply: play fixed positions on and count how many double their tile.

Whole games decide the solver's figures, but a 32768 rate over 200 whole games takes hours.
The late game is where the solver's settings differ, so this plays only that: each position of
``benchmarks/data/late-game-16384.json`` (the first board holding a 16384 in each of 110 d2
games, c-rand seeds 2001-2120) is played on to the end with the settings given, its spawns
from c-rand seeded with the game's seed. It prints the share of positions that reach 32768
with its 95% Wilson interval, the mean final score (the position's score plus what was made
from it), and moves per second; ``--json`` keeps every position's result. ``--phases`` also
reports where the 16384 stood move by move (in a corner or not, and how many large tiles ran
down the snake from it), how often the tables chose there, and when the positions that failed
lost the corner: what the late game's formation looks like in the solver's own play.

A positions file can hold another stage: ``--make-positions --tile 8192`` takes each game's
first 8192 instead, and playing those on counts the 16384s (the stage where games that miss
16384 die, in the crunch before the second 8192).

    python benchmarks/endgame.py --depth 2
    python benchmarks/endgame.py --preset balanced --workers 2 --json endgame-balanced.json
    python benchmarks/endgame.py --depth 2 --workers 2 --phases
    python benchmarks/endgame.py --depth 2 --positions benchmarks/data/late-game-16384-b.json
    python benchmarks/endgame.py --make-positions --first-seed 2001 --games 120   # remake the set
    python benchmarks/endgame.py --make-positions --tile 8192 --first-seed 2001 --games 200 \
        --positions benchmarks/data/late-game-8192.json
    python benchmarks/endgame.py --preset balanced --workers 2 --stop-at-target \
        --positions benchmarks/data/late-game-8192.json

``late-game-16384-b.json`` is a second set (105 positions, seeds 3001-3120, played with the
pulled evaluation): a change that wins on the first set by a few positions should win here too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

# internal: this script measures the endgame's parts (packed boards, the search, its thresholds)
from py2048.engine.board import ROW_TABLES, max_exponent, move, pack, unpack, unpack_exponents
from py2048.engine.geometry import SNAKE, SYMMETRIES
from py2048.evaluation import Evaluator, get_evaluator
from py2048.solver import crand
from py2048.solver.autoplay import SEARCHED, autoplay
from py2048.solver.endgame import (
    GOOD_PROBABILITY,
    MIN_PROBABILITY,
    MIN_TAIL,
    NO_TABLES,
    VETO,
    TableSet,
)
from py2048.solver.hint import resolve_plan, search_packed
from py2048.solver.search import SearchPlan
from py2048.solver.stats import wilson_interval
from py2048.tables import available_tables, open_table
from py2048.tables.compact import shipped_compact_tables

POSITIONS = Path(__file__).parent / "data" / "late-game-16384.json"
STAGE_TILE = 16384
"""The tile the positions hold when their file does not say (the first sets held 16384); a
position succeeds when it makes twice that."""
LARGE = 8
"""``--phases`` counts tiles from 2**8 = 256 up as large (those the tables hold in place)."""
TRACE_ROWS = 400_000
"""Moves of one position that ``--phases`` looks at (a position rarely plays 40,000)."""


def play_position(position: dict, args: argparse.Namespace) -> dict:
    """Play one position on with the settings of ``args``; its figures."""
    plan = resolve_plan(args.depth, args.time_ms, args.preset)
    if args.stop_at_target:
        return play_to_target(position, args, plan)
    trace = np.zeros((TRACE_ROWS if args.phases else 0, 3), dtype=np.uint64)
    record = autoplay(
        position["seed"],
        plan,
        rng="c-rand",
        evaluator=args.evaluator,
        board=position["board"],
        tables=_tables(args),
        trace=trace,
    )
    result = {
        "seed": position["seed"],
        "final_score": position["score"] + record.score,
        "max_tile": record.max_tile,
        "moves": record.moves,
        "table_moves": record.table_moves,
        "seconds": record.seconds,
    }
    if args.phases:
        stage = args.stage_tile.bit_length() - 1
        result["phases"] = [
            (phase(int(lo), int(hi), stage), int(chooser != SEARCHED))
            for chooser, lo, hi in trace[: record.moves]
        ]
    return result


def play_to_target(position: dict, args: argparse.Namespace, plan: SearchPlan) -> dict:
    """Play one position on, as :func:`play_position` does, but only until it makes twice its
    stage's tile: a stage's rate without the cost of the rest of the game."""
    state = crand.new_state()
    crand.seed(np.uint64(position["seed"]), state)
    lo, hi = (np.uint64(half) for half in pack(position["board"]))
    started = time.perf_counter()
    lo, hi, score, moves, table_moves = play_until(
        lo,
        hi,
        state,
        plan,
        get_evaluator(args.evaluator),
        _tables(args) or NO_TABLES,
        args.stage_tile.bit_length(),
    )
    return {
        "seed": position["seed"],
        "final_score": position["score"] + score,
        "max_tile": 1 << max_exponent(lo, hi),
        "moves": moves,
        "table_moves": table_moves,
        "seconds": time.perf_counter() - started,
    }


def play_until(
    lo: np.uint64,
    hi: np.uint64,
    state: np.ndarray,
    plan: SearchPlan,
    evaluator: Evaluator,
    tables: TableSet,
    exponent: int,
) -> tuple[np.uint64, np.uint64, int, int, int]:
    """Play on, with c-rand spawns from ``state``, until the board holds ``2**exponent`` or no
    move is left: the board, the points made, the moves and how many the tables chose."""
    score = moves = table_moves = 0
    while max_exponent(lo, hi) < exponent:
        hint = search_packed(int(lo), int(hi), plan, evaluator, tables)
        if hint.direction is None:
            break
        table_moves += hint.source == "table"
        lo, hi, gain = move(lo, hi, int(hint.direction), ROW_TABLES)
        lo, _, _ = crand.spawn(lo, hi, state)
        score += int(gain)
        moves += 1
    return lo, hi, score, moves, table_moves


def phase(lo: int, hi: int, stage: int) -> int | None:
    """Where a board of the stage (its largest tile 2**stage) stands: -1 when that tile is not
    in a corner, else how many large tiles (256 and up) run down the snake from it (see
    ``--phases``); None for boards of other stages."""
    exponents = unpack_exponents(lo, hi)
    if max(exponents) != stage:
        return None
    longest = -1
    for symmetry in SYMMETRIES:
        canonical = [0] * 16
        for cell, exponent in enumerate(exponents):
            canonical[symmetry[cell]] = exponent
        if canonical[SNAKE[0]] != stage:
            continue
        length, previous = 0, stage + 1
        for cell in SNAKE:
            if not LARGE <= canonical[cell] < previous:
                break
            length, previous = length + 1, canonical[cell]
        longest = max(longest, length)
    return longest


def report_phases(results: list[dict], tile: int) -> None:
    """Print where the stage of ``tile`` is played and where the positions that fail lose
    their formation."""
    moves: Counter[int] = Counter()
    by_tables: Counter[int] = Counter()
    for result in results:
        for where, table in result["phases"]:
            if where is not None:
                moves[where] += 1
                by_tables[where] += table
    total = sum(moves.values())
    print(f"\nThe {total:,} moves played with a {tile} (and no {2 * tile}) on the board:")
    print(f"| the {tile} | share of the moves | chosen by tables |")
    print("|---|---|---|")
    for where in sorted(moves):
        label = "not in a corner" if where < 0 else f"in a corner, {where} large in the snake"
        print(f"| {label} | {moves[where] / total:.1%} | {by_tables[where] / moves[where]:.1%} |")
    failed = [r for r in results if r["max_tile"] < 2 * tile]
    off_at_end = 0
    lost: list[int] = []
    for result in failed:
        wheres = [where for where, _ in result["phases"] if where is not None]
        if wheres and wheres[-1] < 0:
            off_at_end += 1
            held = [i for i, where in enumerate(wheres) if where >= 0]
            lost.append(len(wheres) - 1 - held[-1] if held else len(wheres))
    print(
        f"Of the {len(failed)} positions that did not make {2 * tile}, {off_at_end} ended with "
        f"the {tile} out of its corner."
    )
    if len(lost) > 1:
        low, middle, high = statistics.quantiles(lost, n=4)
        print(
            "Moves from its leaving the corner for good to the end: quartiles "
            f"{low:,.0f}, {middle:,.0f}, {high:,.0f}"
        )


_opened: list[TableSet] = []


def _tables(args: argparse.Namespace) -> TableSet | bool:
    """The tables as the flags set them, opened once per worker."""
    if args.no_tables:
        return False
    if not _opened:
        found = [open_table(name) for name in available_tables()]
        _opened.append(
            TableSet.of(
                found,
                shipped_compact_tables(),
                min_probability=args.min_probability,
                good_probability=args.good_probability,
                min_tail=args.min_tail,
                grow=not args.no_grow,
                veto=args.veto,
            )
        )
    return _opened[0]


def first_board_with(seed: int, depth: int, tile: int) -> dict | None:
    """The game of this c-rand seed played at ``depth`` up to its first ``tile`` (None: never)."""
    state = crand.new_state()
    lo, hi = crand.start(np.uint64(seed), state)
    exponent = tile.bit_length() - 1
    lo, hi, score, moves, _ = play_until(
        lo, hi, state, resolve_plan(depth=depth), get_evaluator(), NO_TABLES, exponent
    )
    if max_exponent(lo, hi) < exponent:
        return None
    return {"seed": seed, "moves": moves, "score": score, "board": unpack(int(lo), int(hi))}


def make_positions(args: argparse.Namespace) -> int:
    seeds = range(args.first_seed, args.first_seed + args.games)
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        played = pool.map(first_board_with, seeds, [2] * len(seeds), [args.tile] * len(seeds))
        found = [p for p in played if p is not None]
    document = {
        "description": (
            f"The first board holding a {args.tile} in each c-rand game of seeds {seeds[0]}-"
            f"{seeds[-1]} played at d2 with the evaluation {get_evaluator().name!r} and no tables; "
            f"{len(seeds) - len(found)} of the {len(seeds)} games never made one."
        ),
        "command": " ".join(["python benchmarks/endgame.py", *sys.argv[1:]]),
        "tile": args.tile,
        "positions": found,
    }
    write_positions(document, args.positions)
    print(f"{len(found)} positions written to {args.positions}")
    return 0


def write_positions(document: dict, path: Path) -> None:
    """The positions file, one position a line (readable in a diff)."""
    lines = [f'  "{key}": {json.dumps(value)},' for key, value in document.items()]
    lines[-1] = '  "positions": ['
    body = ",\n".join(f"    {json.dumps(p)}" for p in document["positions"])
    path.write_text("{\n" + "\n".join(lines) + "\n" + body + "\n  ]\n}\n")


def measure(args: argparse.Namespace) -> int:
    document = json.loads(args.positions.read_text())
    positions = document["positions"][: args.limit]
    args.stage_tile = document.get("tile", STAGE_TILE)
    target = 2 * args.stage_tile
    started = time.perf_counter()
    results = []
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        for done in pool.map(play_position, positions, [args] * len(positions)):
            results.append(done)
            print(
                f"\r{len(results)}/{len(positions)} positions, "
                f"{sum(r['max_tile'] >= target for r in results)} reached {target}",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    wall = time.perf_counter() - started
    reached = sum(r["max_tile"] >= target for r in results)
    low, high = wilson_interval(reached, len(results))
    moves = sum(r["moves"] for r in results)
    busy = sum(r["seconds"] for r in results)
    summary = {
        "positions": len(results),
        "target": target,
        "reached": reached,
        "share": reached / len(results),
        "interval_95": [low, high],
        "mean_final_score": statistics.fmean(r["final_score"] for r in results),
        "moves_per_second_per_worker": moves / busy if busy else 0.0,
        "table_move_share": sum(r["table_moves"] for r in results) / moves if moves else 0.0,
        "wall_seconds": wall,
    }
    names = (
        "depth", "time_ms", "preset", "evaluator", "no_tables", "min_probability",
        "good_probability", "min_tail", "no_grow", "veto",
    )  # fmt: skip
    setting = {k: getattr(args, k) for k in names}
    print(f"settings: {setting}")
    print(
        f"{reached} of {len(results)} positions reached {target}: {reached / len(results):.1%} "
        f"(95% interval {low:.1%}-{high:.1%}); mean final score "
        f"{summary['mean_final_score']:,.0f}; {summary['moves_per_second_per_worker']:,.0f} "
        f"moves/s per worker; tables chose {summary['table_move_share']:.1%} of the moves; "
        f"{wall:,.0f} s"
    )
    if args.phases:
        report_phases(results, args.stage_tile)
        for result in results:
            del result["phases"]  # hundreds of thousands of rows: the report says what they show
    if args.json:
        args.json.write_text(
            json.dumps({"settings": setting, "summary": summary, "results": results}, indent=1)
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--depth", type=int, help="fixed depth: dN searches N+1 player moves")
    budget.add_argument("--time-ms", type=float, help="time budget per move in milliseconds")
    budget.add_argument("--preset", help="fast, balanced or strong")
    parser.add_argument("--evaluator", help="ntuple-snake (default), ntuple or heuristic")
    parser.add_argument("--no-tables", action="store_true", help="search only, no tables")
    parser.add_argument("--min-probability", type=float, default=MIN_PROBABILITY)
    parser.add_argument("--good-probability", type=float, default=GOOD_PROBABILITY)
    parser.add_argument("--min-tail", type=int, default=MIN_TAIL)
    parser.add_argument("--no-grow", action="store_true", help="tables only complete chains")
    parser.add_argument("--veto", type=float, default=VETO, help="the search checks table moves")
    parser.add_argument(
        "--phases", action="store_true", help="also report where the stage's tile stands"
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--limit", type=int, help="play only the first N positions")
    parser.add_argument(
        "--stop-at-target",
        action="store_true",
        help="play each position only until it doubles its tile (its final score is then the "
        "score there; no --phases)",
    )
    parser.add_argument("--json", type=Path, help="write every position's result here")
    parser.add_argument("--positions", type=Path, default=POSITIONS, help="the positions file")
    parser.add_argument("--make-positions", action="store_true", help="remake the positions")
    parser.add_argument("--first-seed", type=int, default=2001, help="with --make-positions")
    parser.add_argument("--games", type=int, default=120, help="with --make-positions")
    parser.add_argument(
        "--tile", type=int, default=STAGE_TILE, help="with --make-positions: the stage's tile"
    )
    args = parser.parse_args()
    if args.make_positions:
        return make_positions(args)
    if args.stop_at_target and args.phases:
        parser.error("--phases follows whole games; leave out --stop-at-target")
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
