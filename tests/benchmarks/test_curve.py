from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from benchmarks.curve import chart, read_curve


def point(games: int, mean: float, rate: float) -> dict[str, float]:
    return {
        "games": games, "moves": games * 100, "seconds": games / 10, "recent_games": 1000,
        "mean_score": mean, "2048": 0.99, "8192": 0.8, "16384": rate, "32768": 0.0,
    }  # fmt: skip


def test_the_chart_draws_each_run_as_score_and_rate_lines(tmp_path: Path) -> None:
    path = tmp_path / "run.npz.curve.jsonl"
    path.write_text("".join(json.dumps(point(g, 1000.0 * g, g / 100)) + "\n" for g in (1, 50, 99)))
    points = read_curve(path)
    assert [p["games"] for p in points] == [1, 50, 99]
    svg = ET.fromstring(chart({"run": points}, "title"))
    lines = svg.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 2
    score_line = [tuple(map(float, xy.split(","))) for xy in lines[0].get("points", "").split()]
    assert len(score_line) == 3
    assert score_line[0][0] < score_line[1][0] < score_line[2][0]  # games to the right
    assert score_line[0][1] > score_line[1][1] > score_line[2][1]  # higher scores drawn higher


def test_a_resumed_run_replaces_the_points_written_after_its_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "run.npz.curve.jsonl"
    first = [point(g, 1000.0, 0.5) for g in (10, 20, 30, 40)]  # checkpointed at 25, stopped at 40
    resumed = [point(g, 2000.0, 0.6) for g in (27, 37, 47)]
    path.write_text("".join(json.dumps(p) + "\n" for p in first + resumed))
    points = read_curve(path)
    assert [p["games"] for p in points] == [10, 20, 27, 37, 47]
    assert [p["mean_score"] for p in points] == [1000.0, 1000.0, 2000.0, 2000.0, 2000.0]
