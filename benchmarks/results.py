"""The kept runs of docs/results/runs/ as Markdown tables, for docs/results.md.

Run:  python benchmarks/results.py                  # print the tables
      python benchmarks/results.py --write docs/results.md   # replace its generated section

Every file of ``docs/results/runs/`` is a run kept as data: ``2048 bench --json`` (a ``settings``,
a ``summary`` and every game) or ``benchmarks/web.py --json`` (the command, the machine and each
phase's latencies). The tables hold one row a file, taken from the file alone, so the results
record shows every kept run and nobody copies a figure by hand; ``tests/benchmarks`` checks that
docs/results.md holds what this prints. Bench runs on other board sizes (``--size``; and the 4x4
runs kept beside them for reference, ``sizes-*.json``) have a table of their own.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "docs" / "results" / "runs"
BEGIN = "<!-- written by python benchmarks/results.py --write docs/results.md -->"
END = "<!-- end of the tables written by benchmarks/results.py -->"
LATENCY_PHASES = (
    ("moves_with_hints", "with hints"),
    ("moves_under_nested_lists_attack", "nested-lists attack"),
    ("moves_under_header_attack", "64 MB headers"),
)


def _setting(settings: dict[str, Any]) -> str:
    if settings.get("preset"):
        what = str(settings["preset"])
        plan = settings.get("plan")  # recorded since 2026-12-06: the depths the preset searched
        if plan:
            what += f" d{plan['min_depth']}-d{plan['max_depth']}"
    elif settings.get("depth") is not None:
        what = f"d{settings['depth']}"
    else:
        what = f"{settings.get('time_ms')} ms a move"
    if settings.get("budget", "time") != "time":
        what += f", budget in {settings['budget']}"
    return f"{what}, {settings.get('evaluator')}"


def _tables(settings: dict[str, Any]) -> str:
    names = settings.get("tables") or []
    if not names:
        return "none"
    compact = sum(name.endswith("(compact)") for name in names)
    if compact == len(names):
        return f"compact table only ({compact} formations)"
    one_byte = sum(name.endswith("(1 byte)") for name in names)
    built = f"{len(names) - compact} built" + (f" ({one_byte} at 1 byte)" if one_byte else "")
    return built + (f", {compact} compact" if compact else "")


def _network(settings: dict[str, Any]) -> str:
    """Which network played: recorded by ``2048 bench`` since 2026-12-04 (older runs: not
    recorded, and all of them used the network then shipped)."""
    if "network" not in settings:
        return "not recorded"
    network = settings["network"]
    if network is None:
        return "none"
    name = "shipped" if network["shipped"] else Path(network["file"]).name
    downgrade = network.get("downgrade_from")  # recorded since 2026-12-05
    read = f", downgraded from {downgrade}" if downgrade else ""
    return f"{name} ({network['sha256'][:8]}{read})"


def _rate(summary: dict[str, Any], tile: int) -> str:
    for rate in summary["rates"]:
        if rate["tile"] == tile:
            return f"{100 * rate['share']:.1f}% ({100 * rate['low']:.1f}-{100 * rate['high']:.1f})"
    return ""


def bench_row(name: str, run: dict[str, Any]) -> str:
    settings, summary = run["settings"], run["summary"]
    seeds = sorted(game["seed"] for game in run["games"])
    cells = [
        f"`{name}`",
        _setting(settings),
        _network(settings),
        _tables(settings),
        f"{settings.get('rng')} {seeds[0]}-{seeds[-1]}",
        str(summary["games"]),
        f"{summary['mean_score']:,.0f}",
        _rate(summary, 16384),
        _rate(summary, 32768),
        f"{summary['moves_per_second_per_worker']:,.0f}",
    ]
    return "| " + " | ".join(cells) + " |"


def is_size_run(name: str, run: dict[str, Any]) -> bool:
    """A run of the board sizes' table: played off 4x4, or kept beside those (``sizes-*``)."""
    return name.startswith("sizes-") or run["settings"].get("size", "4x4") != "4x4"


def _largest(summary: dict[str, Any], count: int = 3) -> str:
    """The ``count`` largest tiles some game reached, with the share of games that did."""
    reached = [rate for rate in summary["rates"] if rate["games"]]
    if not reached and summary["rates"]:
        return f"none made {summary['rates'][0]['tile']}"
    return ", ".join(f"{rate['tile']} {100 * rate['share']:.0f}%" for rate in reached[-count:])


def size_row(name: str, run: dict[str, Any]) -> str:
    settings, summary = run["settings"], run["summary"]
    seeds = sorted(game["seed"] for game in run["games"])
    cap = settings.get("max_moves")
    capped = summary.get("capped", 0)
    cells = [
        f"`{name}`",
        str(settings.get("size", "4x4")),
        "perfect play (the table)"
        if _page_setting(settings) == "perfect play"
        else _setting(settings),
        f"{seeds[0]}-{seeds[-1]}",
        str(summary["games"]),
        f"{summary['mean_score']:,.0f}",
        f"{summary['median_score']:,.0f}",
        _largest(summary),
        f"{capped} at {cap:,} moves" if cap else "none",
        f"{summary['mean_moves']:,.0f}",
        f"{summary['moves_per_second_per_worker']:,.0f}",
    ]
    return "| " + " | ".join(cells) + " |"


def _page_setting(settings: dict[str, Any]) -> str:
    """ "perfect play" for a run the perfect-play table played, else the search's depth."""
    if any(str(name).startswith("perfect-") for name in settings.get("tables") or []):
        return "perfect play"
    if settings.get("depth") is not None:
        return f"d{settings['depth']}"
    return _setting(settings)


def page_table(folder: Path = RUNS) -> str:
    """The board sizes' runs as the solver's reference (docs/solver-reference.md) shows them:
    one row a run of ``sizes-*.json``, by depth then by cells (``--page-table`` prints it; a
    test holds the page to it)."""
    found = []
    for path in sorted(folder.glob("sizes-*.json")):
        run = json.loads(path.read_text(encoding="utf-8"))
        settings, summary = run["settings"], run["summary"]
        rows, cols = (int(side) for side in str(settings.get("size", "4x4")).split("x"))
        cap = settings.get("max_moves")
        capped = summary.get("capped", 0)
        stopped = f", {capped} stopped at {cap:,} moves" if cap and capped else ""
        cells = [
            str(settings.get("size", "4x4")),
            _page_setting(settings),
            f"{summary['games']}{stopped}",
            f"{summary['mean_score']:,.0f}",
            _largest(summary),
        ]
        perfect = _page_setting(settings) == "perfect play"
        key = (99 if perfect else settings.get("depth") or 0, rows * cols, rows)
        found.append((key, "| " + " | ".join(cells) + " |"))
    lines = [
        "| board | search | games | mean score | largest tiles (share of games) |",
        "|---|---|---|---|---|",
        *(row for _, row in sorted(found, key=lambda item: (-item[0][0], item[0][1:]))),
    ]
    return "\n".join(lines) + "\n"


def web_row(name: str, run: dict[str, Any]) -> str:
    cells = [f"`{name}`", str(run["date"])]
    for key, _ in LATENCY_PHASES:
        phase = run[key]
        met = "met" if phase["target_met"] else "missed"
        cells.append(f"{phase['p99_ms']:.1f} ms (target {phase['p99_target_ms']:g}, {met})")
    machine = run.get("machine", {})
    cells.append(f"{machine.get('cores')} cores; {run.get('note') or ''}".strip())
    return "| " + " | ".join(cells) + " |"


def render(folder: Path = RUNS) -> str:
    """The generated section: a table of the bench runs and one of the server's, by file name."""
    bench, sizes, web = [], [], []
    for path in sorted(folder.glob("*.json")):
        run = json.loads(path.read_text(encoding="utf-8"))
        if {"settings", "summary", "games"} <= run.keys() and is_size_run(path.name, run):
            sizes.append(size_row(path.name, run))
        elif {"settings", "summary", "games"} <= run.keys():
            bench.append(bench_row(path.name, run))
        elif all(key in run for key, _ in LATENCY_PHASES):
            web.append(web_row(path.name, run))
        else:
            raise ValueError(f"{path}: neither a 2048 bench run nor a benchmarks/web.py run")
    lines = [
        BEGIN,
        "",
        "Whole games (`2048 bench --json`; 16384 and 32768: the share of games, with its 95%",
        "Wilson interval; moves/s: per worker):",
        "",
        "| file | setting | network | tables | seeds | games | mean score | 16384 | 32768 "
        "| moves/s |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *bench,
        "",
        "Other board sizes (`2048 bench --size`, py2048's spawns, no endgame tables; largest",
        "tiles: the three largest that some game made, with the share of games that made them;",
        "capped: games stopped by `--max-moves` before their end). The `sizes-*` runs were made",
        "on the shared 2-core machine under load (their moves/s are not comparable) by",
        "`2048 bench --games 50 --seed 2001 --workers 1 --size SIZE --depth N --json FILE`, with",
        "`--max-moves 500000` on 7x7 and 8x8 and `--evaluator heuristic --no-tables` on 4x4;",
        "`sizes-perfect-3x3` with the 3x3 perfect-play table built (`2048 tables build 3x3`),",
        "which chose every move (its `--depth 1` went unused):",
        "",
        "| file | size | setting | seeds | games | mean score | median score | largest tiles "
        "| capped | moves a game | moves/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *sizes,
        "",
        "The server under load (`benchmarks/web.py --json`; `/api/move` p99 latency in each",
        "phase):",
        "",
        "| file | date | " + " | ".join(label for _, label in LATENCY_PHASES) + " | machine |",
        "|---|---|" + "---|" * len(LATENCY_PHASES) + "---|",
        *web,
        "",
        END,
    ]
    return "\n".join(lines) + "\n"


def replace_section(document: str, section: str) -> str:
    """``document`` with its generated section (from BEGIN to END) replaced by ``section``."""
    start = document.index(BEGIN)
    end = document.index(END, start) + len(END) + 1
    return document[:start] + section + document[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, metavar="MARKDOWN", help="replace its section")
    parser.add_argument(
        "--page-table",
        action="store_true",
        help="print the board sizes' table of docs/solver-reference.md",
    )
    args = parser.parse_args(argv)
    if args.page_table:
        sys.stdout.write(page_table())
        return 0
    section = render()
    if args.write is None:
        sys.stdout.write(section)
        return 0
    text = args.write.read_text(encoding="utf-8")
    args.write.write_text(replace_section(text, section), encoding="utf-8")
    print(f"wrote the tables of {len(list(RUNS.glob('*.json')))} runs into {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
