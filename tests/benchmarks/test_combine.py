"""benchmarks/combine.py: chunks of a bench add up only when they were played alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.combine import ChunkError, load_chunks, main, missing_seeds

from py2048.solver.autoplay import GameRecord
from py2048.solver.bench import BenchSettings, bench_report
from py2048.solver.stats import summarize


def game(seed: int, max_tile: int = 16384, score: int = 380_000) -> GameRecord:
    return GameRecord(
        seed=seed, score=score, max_tile=max_tile, moves=14_000, seconds=300.0, nodes=10**8
    )


def chunk(folder: Path, first: int, records: list[GameRecord], **settings) -> Path:
    """A file as ``2048 bench --json`` writes it, for these games."""
    played = BenchSettings(
        **{
            "games": len(records),
            "seed": first,
            "preset": "strong",
            "rng": "c-rand",
            "workers": 2,
            "tables": False,
            **settings,
        }
    )
    path = folder / f"chunk-{first}.json"
    document = bench_report(played, records, summarize(records, 1000.0))
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def printed(capsys: pytest.CaptureFixture[str]) -> str:
    """What was printed, with the terminal's line wrapping undone."""
    return " ".join(capsys.readouterr().out.split())


def test_chunks_add_up_in_seed_order(tmp_path: Path) -> None:
    late = chunk(tmp_path, 2011, [game(2011, 32768, 600_000), game(2012)], workers=1)
    early = chunk(tmp_path, 2001, [game(2001), game(2002, 32768, 620_000)])
    settings, records, wall = load_chunks([late, early])
    assert [r.seed for r in records] == [2001, 2002, 2011, 2012]
    assert wall == pytest.approx(2000.0)
    assert settings["preset"] == "strong"
    assert missing_seeds(records) == list(range(2003, 2011))


def test_chunks_played_otherwise_are_refused(tmp_path: Path) -> None:
    strong = chunk(tmp_path, 2001, [game(2001)])
    balanced = chunk(tmp_path, 2002, [game(2002)], preset="balanced")
    # the preset, and the plan it resolved to (its depths and cap)
    with pytest.raises(ChunkError, match="other settings \\(plan, preset\\)"):
        load_chunks([strong, balanced])


def with_network(path: Path, **network: object) -> Path:
    """The chunk as if played with another network file (its figures unchanged)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    document["settings"]["network"].update(network)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_the_same_network_from_another_folder_adds_up_and_another_network_does_not(
    tmp_path: Path,
) -> None:
    first = chunk(tmp_path, 2001, [game(2001)])
    moved = with_network(chunk(tmp_path, 2002, [game(2002)]), file="/elsewhere/net.npz")
    settings, records, _ = load_chunks([first, moved])
    assert [r.seed for r in records] == [2001, 2002]
    assert (
        settings["network"]["file"] == json.loads(first.read_text())["settings"]["network"]["file"]
    )
    other = with_network(chunk(tmp_path, 2003, [game(2003)]), sha256="0123456789abcdef")
    with pytest.raises(ChunkError, match="other settings \\(network\\)"):
        load_chunks([first, other])


def test_a_seed_played_twice_is_refused(tmp_path: Path) -> None:
    first = chunk(tmp_path, 2001, [game(2001), game(2002)])
    again = chunk(tmp_path, 2002, [game(2002)])
    with pytest.raises(ChunkError, match="seed 2002 is in both"):
        load_chunks([first, again])


def test_a_file_that_is_not_a_bench_result_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"games": []}', encoding="utf-8")
    with pytest.raises(ChunkError, match="not a 2048 bench --json file"):
        load_chunks([other])


def test_main_prints_the_total_and_exits_2_on_a_bad_chunk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = chunk(tmp_path, 2001, [game(2001), game(2002, 32768, 620_000)])
    combined = tmp_path / "combined.json"
    assert main([str(good), "--json", str(combined)]) == 0
    assert "2 games from 1 runs, seeds 2001-2002" in printed(capsys)
    assert [g["seed"] for g in json.loads(combined.read_text())["games"]] == [2001, 2002]
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main([str(good), str(broken)]) == 2
    assert "broken.json: not a 2048 bench --json file" in printed(capsys)
