"""Whole-game runs measured in chunks, added up into one result.

A time-capped preset over 100 games takes longer than one sitting here ("strong" plays five
to nine minutes a game per worker), so it is measured in chunks of seeds, each with
``2048 bench ... --json``, and the chunks are kept (``docs/results/runs/``). This reads such
files, checks that they were played with the same settings and that no seed was played twice,
and prints the figures of all their games together with 95% Wilson intervals, as ``2048 bench``
would have printed them for one run, plus the seeds still missing from a contiguous range.

    python benchmarks/combine.py docs/results/runs/strong-*.json
    python benchmarks/combine.py docs/results/runs/strong-*.json --json strong-combined.json
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from rich.console import Console
from rich.markup import escape

# internal: this script merges `2048 bench --json` runs with the bench's own records and report
from py2048.solver.autoplay import GameRecord
from py2048.solver.report import summary_table
from py2048.solver.stats import Summary, summarize

SETTINGS_THAT_MAY_DIFFER = ("games", "seed", "workers")
"""What one chunk's ``settings`` may say differently from another's."""
NETWORK_FIELDS_THAT_MAY_DIFFER = ("file",)
"""The network is the same network wherever its file lay: its SHA-256 says which it is."""


class ChunkError(ValueError):
    """Chunks that cannot be added up: unreadable, played otherwise, or overlapping."""


def load_chunks(paths: list[Path]) -> tuple[dict, list[GameRecord], float]:
    """The shared settings, every game (by seed) and the summed wall time of these runs."""
    if not paths:
        raise ChunkError("give at least one --json file of 2048 bench")
    shared: dict | None = None
    games: dict[int, tuple[GameRecord, Path]] = {}
    wall = 0.0
    for path in paths:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            settings = document["settings"]
            records = [GameRecord(**game) for game in document["games"]]
            wall += float(document["summary"]["wall_seconds"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ChunkError(f"{path}: not a 2048 bench --json file ({exc})") from exc
        if shared is None:
            shared = {k: v for k, v in settings.items() if k not in SETTINGS_THAT_MAY_DIFFER}
        mine, theirs = comparable(settings), comparable(shared)
        if mine != theirs:
            differ = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
            raise ChunkError(f"{path} was played with other settings ({', '.join(differ)})")
        for record in records:
            if record.seed in games:
                raise ChunkError(
                    f"seed {record.seed} is in both {games[record.seed][1]} and {path}"
                )
            games[record.seed] = (record, path)
    assert shared is not None
    return shared, [games[seed][0] for seed in sorted(games)], wall


def comparable(settings: dict) -> dict:
    """The settings that must be equal in every chunk: all but the seeds, the number of games
    and workers, and the folder the network's file lay in."""
    fixed = {k: v for k, v in settings.items() if k not in SETTINGS_THAT_MAY_DIFFER}
    network = fixed.get("network")
    if isinstance(network, dict):
        fixed["network"] = {
            k: v for k, v in network.items() if k not in NETWORK_FIELDS_THAT_MAY_DIFFER
        }
    return fixed


def missing_seeds(records: list[GameRecord]) -> list[int]:
    """Seeds between the first and the last game that no chunk played."""
    seeds = {r.seed for r in records}
    return [s for s in range(min(seeds), max(seeds) + 1) if s not in seeds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="2048 bench --json files")
    parser.add_argument("--json", type=Path, help="write the combined settings, summary and games")
    args = parser.parse_args(argv)
    console = Console()
    try:
        settings, records, wall = load_chunks(args.runs)
    except ChunkError as exc:
        # soft_wrap: a long path is left for the terminal to wrap, never broken by Rich
        console.print(f"[red]{escape(str(exc))}[/red]", soft_wrap=True)
        return 2
    summary: Summary = summarize(records, wall)
    label = ", ".join(
        f"{len(v)} tables" if k == "tables" else f"{k} {v}"
        for k, v in settings.items()
        if v not in (None, False, [])
    )
    console.print(summary_table(summary, label))
    gaps = missing_seeds(records)
    first, last = records[0].seed, records[-1].seed
    console.print(
        f"{len(records)} games from {len(args.runs)} runs, seeds {first}-{last}"
        + (f"; missing: {', '.join(map(str, gaps))}" if gaps else "")
    )
    if args.json is not None:
        document = {
            "settings": settings,
            "runs": [str(p) for p in args.runs],
            "summary": asdict(summary),
            "games": [asdict(r) for r in records],
        }
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
