"""Chart a training run's learning curve: mean score and 16384 rate of the last games against
games played.

Run:  python benchmarks/curve.py RUN.npz.curve.jsonl [MORE.curve.jsonl ...] --svg docs/x.svg

Each curve file is what ``2048 train`` appends beside its checkpoint (one JSON object a line,
see ``py2048.learn.command``). Several files are drawn one after the other as one run when
their game counts follow on (a run resumed under another checkpoint name), else side by side.
The chart is a plain SVG (no plotting library needed); the figures are also printed.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

WIDTH, HEIGHT, MARGIN = 720, 360, 60
COLOURS = ("#8f7a66", "#f65e3b", "#3c3a32", "#edc22e")


def read_curve(path: Path) -> list[dict[str, float]]:
    """A curve file's points in the order of games. A run resumed from its checkpoint appends
    points from the checkpoint's game count on; the points its first process wrote after that
    checkpoint were not kept by the run, so they are left out."""
    points: list[dict[str, float]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line:
            point = json.loads(line)
            while points and points[-1]["games"] >= point["games"]:
                points.pop()
            points.append(point)
    return points


def polyline(points: list[tuple[float, float]], colour: str, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    coordinates = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return (
        f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{coordinates}"/>'
    )


def chart(curves: dict[str, list[dict[str, float]]], title: str) -> str:
    games = [p["games"] for c in curves.values() for p in c]
    scores = [p["mean_score"] for c in curves.values() for p in c]
    g0, g1 = min(games), max(games)
    s0, s1 = 0.0, 50_000.0 * math.ceil(max(scores) * 1.05 / 50_000)  # round axis marks
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN

    def x(g: float) -> float:
        return MARGIN + inner_w * (g - g0) / max(g1 - g0, 1)

    def y_score(s: float) -> float:
        return HEIGHT - MARGIN - inner_h * (s - s0) / (s1 - s0)

    def y_rate(r: float) -> float:
        return HEIGHT - MARGIN - inner_h * r

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#faf8ef"/>',
        f'<text x="{MARGIN}" y="24" font-size="14">{title}</text>',
        f'<line x1="{MARGIN}" y1="{HEIGHT - MARGIN}" x2="{WIDTH - MARGIN}" '
        f'y2="{HEIGHT - MARGIN}" stroke="#776e65"/>',
    ]
    for k in range(5):
        s = s0 + (s1 - s0) * k / 4
        parts.append(
            f'<text x="{MARGIN - 6}" y="{y_score(s) + 4:.1f}" text-anchor="end">{s:,.0f}</text>'
        )
        parts.append(f'<text x="{WIDTH - MARGIN + 6}" y="{y_rate(k / 4) + 4:.1f}">{k * 25}%</text>')
    for k in range(5):
        g = g0 + (g1 - g0) * k / 4
        parts.append(
            f'<text x="{x(g):.1f}" y="{HEIGHT - MARGIN + 18}" text-anchor="middle">{g:,.0f}</text>'
        )
    parts.append(
        f'<text x="{WIDTH / 2}" y="{HEIGHT - 14}" text-anchor="middle">games played</text>'
    )
    for i, (name, points) in enumerate(curves.items()):
        colour = COLOURS[i % len(COLOURS)]
        parts.append(polyline([(x(p["games"]), y_score(p["mean_score"])) for p in points], colour))
        parts.append(
            polyline([(x(p["games"]), y_rate(p["16384"])) for p in points], colour, dashed=True)
        )
        parts.append(
            f'<text x="{MARGIN + 8}" y="{MARGIN + 16 * i}" fill="{colour}">{name}: mean score '
            "(solid, left axis), 16384 rate (dashed, right axis)</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curves", nargs="+", type=Path)
    parser.add_argument("--svg", type=Path, required=True, help="where to write the chart")
    parser.add_argument("--title", default="Learning curve (last 1,000 games from the opening)")
    args = parser.parse_args()
    curves = {path.name.removesuffix(".curve.jsonl"): read_curve(path) for path in args.curves}
    for name, points in curves.items():
        for p in points[:: max(1, len(points) // 12)] + points[-1:]:
            print(
                f"{name}: {p['games']:>9,.0f} games, {p['seconds']:>7,.0f} s: mean "
                f"{p['mean_score']:>9,.0f}, 8192 {p['8192']:.1%}, 16384 {p['16384']:.1%}, "
                f"32768 {p['32768']:.1%}"
            )
    args.svg.write_text(chart(curves, args.title), encoding="utf-8")
    print(f"chart: {args.svg}")


if __name__ == "__main__":
    main()
