"""What the built endgame tables say of the last stages before a 16384 or a 32768.

The solver's tables hold a snake of large tiles in place (``py2048.tables.formations``). On
the way to a tile ``2 * top``, the snake of ``n`` tiles runs ``top, top / 2, ..., top / 2**(n -
1)``; a table whose target equals that last tile *completes* the chain (a second tile like it
merges all the way up), one whose target is half of it *grows* the chain to ``n + 1`` tiles.
This prints, for each stage, the success probability the tables give at its start (the snake,
and a 2 on each of the next two cells along it: a board where a formation-keeping move exists),
and the best the tables can do from there through either path. Since the large tiles never
move in a table's play, that is a lower bound on perfect play but, for a solver that keeps the
formation, what it can count on from that stage on.

With ``--games`` (``2048 bench --json`` files of whole games), it also says at which stage the
games whose largest tile was ``top`` ended. A game's moves tell its board's tile sum (each
move adds a 2 at 90% or a 4: 2.2 on average, within about 0.5% over ten thousand moves), and
the sum tells how far along the chain the game had come: a game that ended with a sum of at least
``top + top / 2 + ... + top / 2**(n - 1)`` but less than the next such sum ended building the
chain's tile ``n + 1``. The estimate's error (about 150 at two standard deviations) is below the
512 that separates the stages up to a chain of six, not below the 256 after it, so the chain
of six and the longer ones are counted together.

    python benchmarks/table_stages.py
    python benchmarks/table_stages.py --top 8192
    python benchmarks/table_stages.py --games docs/results/runs/strong-*.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

# internal: the snake and the spawn odds, to lay out and weigh the stages' boards
from py2048.engine.geometry import SNAKE
from py2048.engine.rng import SPAWN_ODDS
from py2048.tables import Table, available_tables, open_table


def entry_board(length: int, top: int) -> list[list[int]]:
    """The snake ``top .. top / 2**(length - 1)`` and a 2 on each of its next two cells."""
    cells = [0] * 16
    for place in range(length):
        cells[SNAKE[place]] = top >> place
    cells[SNAKE[length]] = cells[SNAKE[length + 1]] = 2
    return [cells[row * 4 : row * 4 + 4] for row in range(4)]


def stage_probability(table: Table, length: int, top: int) -> float | None:
    """The table's success probability at the start of this stage; None if it does not apply
    (another length of snake, or a target that neither completes nor grows the chain)."""
    fixed = len(table.formation.fixed)
    tail = top >> (length - 1)
    if fixed != length or table.formation.target not in (tail, tail // 2):
        return None
    advice = table.lookup(entry_board(length, top))
    return None if advice is None else advice.probability


MEAN_SPAWN = sum(p * (1 << exponent) for exponent, p in SPAWN_ODDS)
LONGEST_TOLD_APART = 6
"""The longest chain the tile sum tells apart from the next one (see the module docstring)."""


def ended_stages(paths: list[Path], top: int) -> dict[int, int]:
    """For the games of these bench files whose largest tile was ``top``: how many ended with
    the chain's first ``n`` tiles in place (by their tile sum, see the module docstring)."""
    chain_sums = [sum(top >> i for i in range(n)) for n in range(2, LONGEST_TOLD_APART + 1)]
    stages: dict[int, int] = {}
    for path in paths:
        for game in json.loads(path.read_text())["games"]:
            if game["max_tile"] != top:
                continue
            tile_sum = MEAN_SPAWN * (game["moves"] + 2)
            length = 1 + sum(tile_sum >= chain for chain in chain_sums)
            stages[length] = stages.get(length, 0) + 1
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--top", type=int, default=16384, help="the largest tile of the snake (default 16384)"
    )
    parser.add_argument(
        "--games", type=Path, nargs="+", default=[], help="2048 bench --json files to place"
    )
    args = parser.parse_args()
    tables = [open_table(name) for name in available_tables()]
    if not tables:
        raise SystemExit("no endgame tables are built: run `2048 tables build` first")
    lengths = sorted({len(t.formation.fixed) for t in tables}, reverse=True)
    best: dict[int, float] = {}
    rows = []
    for length in lengths:
        tail = args.top >> (length - 1)
        complete = grow = 0.0
        names = []
        for table in tables:
            p = stage_probability(table, length, args.top)
            if p is None:
                continue
            names.append(f"{table.name} {p:.1%}")
            if table.formation.target == tail:
                complete = max(complete, p)
            else:
                grow = max(grow, p)
        best[length] = max(complete, grow * best.get(length + 1, 0.0))
        rows.append((length, tail, ", ".join(names) or "-", best[length]))
    out = RichTable(title=f"Tables on the way to {2 * args.top} (snake from {args.top})")
    for column in ("large tiles", "smallest", "tables at the stage's start", "best path"):
        out.add_column(column, justify="left" if column.startswith("tables") else "right")
    for length, tail, names, probability in rows:
        out.add_row(str(length), str(tail), names, f"{probability:.1%}")
    console = Console()
    console.print(out)
    if args.games:
        stages = ended_stages(args.games, args.top)
        ended = RichTable(title=f"Where the games that ended on {args.top} stopped")
        for column in ("large tiles in place", "building", "games"):
            ended.add_column(column, justify="right")
        for length in sorted(stages):
            lumped = length == LONGEST_TOLD_APART
            held, building = str(length), str(args.top >> length)
            if lumped:
                held, building = f"{held} or more", f"{building} or less"
            ended.add_row(held, building, str(stages[length]))
        console.print(ended)


if __name__ == "__main__":
    main()
