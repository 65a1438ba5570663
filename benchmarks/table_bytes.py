"""What 1-byte tables lose: sampled positions whose best move changes when a table's values are
packed to 1 byte (``py2048.tables.codebook``), and what that costs in success probability.

For each table built in both folders (a 2-byte one and its 1-byte packing, ``2048 tables pack
--to``), it draws positions uniformly (``--samples`` a table, seeded), values each move from
each file exactly as the solver's look-up does, and counts the positions with a decision (two
moves or more, a best above 0) where the best move differs, where it differs and the 1-byte move
is worse by the 2-byte values (ties aside), and the mean and largest loss (the 2-byte value of
the 2-byte best move less that of the 1-byte best move). ``--min-probability`` counts only
positions whose best is at least that (0.3: where the solver takes a table's move).

``--books logit:LOW:HIGH ...`` also tries other code books (codes 1-254 uniform in logit over
``[LOW, HIGH]``; ``linear`` for 255 codes of ``k / 255``) on the 2-byte files alone, each
value replaced by its code's probability rounded to 2 bytes (1/131070 off at most).

The positions are drawn uniformly, not where play goes: this is a check of the packing, not a
prediction of strength. A book symmetric over ±8 changed the best move here no more often
than the shipped one, yet lost nine points of 32768 in whole games, because play runs through
the positions near 1 that uniform draws rarely meet (``docs/tables.md``, "1-byte tables").

    python benchmarks/table_bytes.py --two /tmp/tables-build --one /tmp/tables-u8
    python benchmarks/table_bytes.py --two /tmp/tables-build --one /tmp/tables-u8 \
        --books logit:-8:8 logit:-8:11.09 logit:-4:11.09 linear --json table-bytes.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

# internal: this script values each move of a table's positions with the solver's own compiled
# look-up (tables.kernels) on both files, and re-packs values through other code books
from py2048.engine.board import ROW_TABLES
from py2048.tables import available_tables, open_table
from py2048.tables.builder import wall_board
from py2048.tables.codebook import CODES, encode, make_code_book
from py2048.tables.kernels import direction_value, wall_position


@njit(cache=True)
def _compare(indices, empty_lo, wall_hi, exact, other, ranks, layout, rank_limit, tables, floor):
    """(decisions, changed, worse, loss sum, loss max) over the sampled positions."""
    decisions = changed = worse = 0
    total = 0.0
    largest = 0.0
    a = np.empty(4)
    b = np.empty(4)
    for i in range(indices.size):
        lo = wall_position(indices[i], empty_lo, layout)
        allowed = 0
        for d in range(4):
            a[d] = direction_value(lo, wall_hi, d, exact, 0, ranks, layout, rank_limit, tables)
            b[d] = direction_value(lo, wall_hi, d, other, 0, ranks, layout, rank_limit, tables)
            if a[d] >= 0.0:
                allowed += 1
        best_a = np.argmax(a)
        best_b = np.argmax(b)
        if allowed < 2 or a[best_a] <= 0.0 or a[best_a] < floor:
            continue
        decisions += 1
        if best_a != best_b:
            changed += 1
            loss = a[best_a] - a[best_b]
            if loss > 0.0:
                worse += 1
                total += loss
                largest = max(largest, loss)
    return decisions, changed, worse, total, largest


def measure(table, other, samples: int, seed: int, floor: float) -> dict[str, float]:
    formation = table.formation
    rng = np.random.default_rng(seed)
    indices = rng.integers(0, formation.entries, size=samples, dtype=np.int64)
    empty_lo, wall_hi = (np.uint64(word) for word in wall_board(formation))
    layout = np.ascontiguousarray(table.layouts[0])
    decisions, changed, worse, total, largest = _compare(
        indices, empty_lo, wall_hi, table.values, other, table.ranks, layout,
        table.rank_limit, ROW_TABLES, floor,
    )  # fmt: skip
    return {
        "samples": samples,
        "decisions": int(decisions),
        "changed": int(changed),
        "worse": int(worse),
        "changed_share": changed / max(decisions, 1),
        "worse_share": worse / max(decisions, 1),
        "mean_loss": total / max(decisions, 1),
        "max_loss": float(largest),
    }


def code_book(spec: str) -> np.ndarray:
    """The code book ``logit:LOW:HIGH`` or ``linear`` names."""
    if spec == "linear":
        return np.linspace(0.0, 1.0, CODES)
    kind, low, high = spec.split(":")
    if kind != "logit":
        raise SystemExit(f"unknown code book {spec!r}: logit:LOW:HIGH or linear")
    return make_code_book(float(low), float(high))


def simulated(values: np.ndarray, book: np.ndarray) -> np.ndarray:
    """uint16: ``values`` through another code book, rounded back to 2 bytes."""
    through = np.round(book[encode(np.arange(65536) / 65535.0, book)] * 65535).astype(np.uint16)
    result: np.ndarray = through[values]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--two", type=Path, required=True, help="folder of 2-byte tables")
    parser.add_argument("--one", type=Path, help="folder of the same tables at 1 byte")
    parser.add_argument("--samples", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-probability", type=float, default=0.0)
    parser.add_argument("--books", nargs="*", default=[], help="logit:LOW:HIGH, or linear")
    parser.add_argument("--tables", nargs="*", help="only these tables")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    names = args.tables or available_tables(args.two)
    rows = []
    for name in names:
        table = open_table(name, args.two)
        row: dict[str, object] = {"table": name, "entries": table.formation.entries}
        started = time.monotonic()
        if args.one is not None:
            packed = open_table(name, args.one)
            if packed.width != 1:
                sys.exit(f"{packed.path} is not a 1-byte table")
            row["one_byte"] = measure(
                table, packed.values, args.samples, args.seed, args.min_probability
            )
            row["sizes"] = [table.path.stat().st_size, packed.path.stat().st_size]
        if args.books:
            exact = np.asarray(table.values)
            for spec in args.books:
                other = simulated(exact, code_book(spec))
                row[f"book_{spec}"] = measure(
                    table, other, args.samples, args.seed, args.min_probability
                )
                del other
        row["seconds"] = round(time.monotonic() - started, 1)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.json is not None:
        args.json.write_text(
            json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=1) + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
