"""benchmarks/results.py: the results record shows every kept run, as its file says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.results import BEGIN, END, RUNS, render, replace_section

ROOT = Path(__file__).resolve().parents[2]


def test_the_results_record_holds_the_tables_of_every_kept_run() -> None:
    record = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    start = record.index(BEGIN)
    shown = record[start : record.index(END, start) + len(END) + 1]
    assert shown == render(), "run: python benchmarks/results.py --write docs/results.md"
    for path in RUNS.glob("*.json"):
        assert f"`{path.name}`" in shown


def test_a_bench_run_row_shows_the_figures_of_its_file(tmp_path: Path) -> None:
    run = json.loads((RUNS / "strong-2041.json").read_text(encoding="utf-8"))
    (tmp_path / "strong-2041.json").write_text(json.dumps(run), encoding="utf-8")
    (row,) = [line for line in render(tmp_path).splitlines() if "strong-2041" in line]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1:6] == [
        "strong, ntuple-snake", "not recorded", "9 built", "c-rand 2041-2050", "10"
    ]  # fmt: skip
    assert cells[6] == f"{run['summary']['mean_score']:,.0f}"
    assert cells[8].startswith("40.0% (")  # 4 of 10 made 32768
    assert cells[9] == f"{run['summary']['moves_per_second_per_worker']:,.0f}"


def test_a_file_that_is_no_kept_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text('{"about": "not a run"}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"notes\.json: neither"):
        render(tmp_path)


def test_writing_replaces_only_the_generated_section() -> None:
    document = f"# Results\n\nbefore\n\n{BEGIN}\nold table\n{END}\n\nafter\n"
    written = replace_section(document, f"{BEGIN}\nnew table\n{END}\n")
    assert written == f"# Results\n\nbefore\n\n{BEGIN}\nnew table\n{END}\n\nafter\n"


def test_a_run_names_the_network_that_played_it(tmp_path: Path) -> None:
    run = json.loads((RUNS / "strong-2041.json").read_text(encoding="utf-8"))
    networks = {
        "shipped.json": {
            "file": "/x/ntuple-4x6.npz",
            "shipped": True,
            "sha256": "0123456789abcdef",
        },
        "mine.json": {"file": "/y/mine.npz", "shipped": False, "sha256": "fedcba9876543210"},
        "heuristic.json": None,
    }
    for name, network in networks.items():
        run["settings"]["network"] = network
        (tmp_path / name).write_text(json.dumps(run), encoding="utf-8")
    lines = render(tmp_path).splitlines()
    rows = {line.split("|")[1].strip(): line for line in lines if line.startswith("| `")}
    assert "| shipped (01234567) |" in rows["`shipped.json`"]
    assert "| mine.npz (fedcba98) |" in rows["`mine.json`"]
    assert "| none |" in rows["`heuristic.json`"]


def test_a_preset_run_shows_the_depths_it_searched_where_its_file_records_them(
    tmp_path: Path,
) -> None:
    run = json.loads((RUNS / "strong-2041.json").read_text(encoding="utf-8"))
    (tmp_path / "older.json").write_text(json.dumps(run), encoding="utf-8")
    run["settings"]["plan"] = {"min_depth": 2, "max_depth": 3, "seconds": 0.0, "nodes": 32000}
    run["settings"]["budget"] = "nodes"
    (tmp_path / "newer.json").write_text(json.dumps(run), encoding="utf-8")
    lines = render(tmp_path).splitlines()
    rows = {line.split("|")[1].strip(): line for line in lines if line.startswith("| `")}
    assert "| strong, ntuple-snake |" in rows["`older.json`"]
    assert "| strong d2-d3, budget in nodes, ntuple-snake |" in rows["`newer.json`"]
