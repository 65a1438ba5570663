"""benchmarks/solver.py: macroxue's output read right, and a clear skip without the peer."""

from __future__ import annotations

import pytest
from benchmarks.solver import PEER_VARIABLE, latency_figures, main, parse_macroxue, pooled

from py2048.engine.direction import Direction
from py2048.solver import Hint

OUTPUT = """\
Loading array from tuple_moves.10a ... done
---------------------------------
|  8192 |  1024 |   512 |     4 |
---------------------------------
score 323024 max 16384 sum 26668
game# 2001 moves 12130 seconds 1.2500 moves/s 9704.0 positions 7722759
1-game average 323024 max 16384*1(100.0%)
score 100000 max 8192 sum 9000
game# 2002 moves 5000 seconds 0.5000 moves/s 10000.0 positions 1000000
2-game average 211512 max 8192*1(50.0%) 16384*1(50.0%)
"""


def test_macroxue_output_gives_moves_seconds_positions_and_scores() -> None:
    played = parse_macroxue(OUTPUT, 2)
    assert (played.games, played.moves, played.positions) == (2, 17130, 8722759)
    assert played.seconds == pytest.approx(1.75)
    assert played.mean_score == pytest.approx(211512)
    assert played.moves_per_second == pytest.approx(17130 / 1.75)
    assert played.positions_per_move == pytest.approx(8722759 / 17130)
    both = pooled([played, played])
    assert (both.games, both.moves) == (4, 2 * 17130)
    assert both.moves_per_second == pytest.approx(played.moves_per_second)


def test_an_unpatched_macroxue_is_named_as_such() -> None:
    with pytest.raises(ValueError, match="positions counter"):
        parse_macroxue("game# 2001 moves 12130 seconds 1283.8 moves/s 9.4\n", 2)


def test_without_the_peer_the_comparison_is_skipped_with_a_reason(monkeypatch, capsys) -> None:
    monkeypatch.delenv(PEER_VARIABLE, raising=False)
    assert main(["peer", "--games", "1"]) == 0
    assert f"skipped: set {PEER_VARIABLE}" in capsys.readouterr().out
    monkeypatch.setenv(PEER_VARIABLE, "/nonexistent/2048")
    assert main([]) == 0
    assert "is not an executable file" in capsys.readouterr().out


FAKE_PEER = """#!/bin/sh
# prints one game of macroxue's output for each of -iGAMES
games=$(echo "$2" | cut -c3-)
i=0
while [ "$i" -lt "$games" ]; do
  echo "score 1000 max 128 sum 200"
  echo "game# $(($3 + i)) moves 100 seconds 0.0100 moves/s 10000.0 positions 5000"
  i=$((i + 1))
done
"""


def test_the_figures_file_names_the_network_that_played(tmp_path, capsys, monkeypatch) -> None:
    import json

    from py2048.evaluation.ntuple import network_in_use

    peer = tmp_path / "2048"
    peer.write_text(FAKE_PEER)
    peer.chmod(0o755)
    figures = tmp_path / "peer.json"
    monkeypatch.setenv(PEER_VARIABLE, str(peer))
    monkeypatch.setenv("PY2048_TABLES_DIR", str(tmp_path / "no-tables"))  # restored after
    code = main(["peer", "--depths", "0", "--games", "1", "--rounds", "1",
                 "--tables", str(tmp_path / "no-tables"), "--json", str(figures)])  # fmt: skip
    assert code == 0
    report = json.loads(figures.read_text())
    assert report["network"]["sha256"] == network_in_use()["sha256"]
    assert report["tables_dir"] == str((tmp_path / "no-tables").resolve())
    assert report["rounds"]["macroxue d0"][0]["positions"] == 5000
    assert f"sha256 {network_in_use()['sha256']}" in capsys.readouterr().out


def test_latency_figures_count_table_answers_apart_from_the_depths_searched() -> None:
    def hint(depth: int, ms: float, nodes: int, source: str = "search") -> Hint:
        return Hint(Direction.UP, {Direction.UP: 1.0}, depth, ms, nodes, "ntuple", source)

    hints = [hint(2, ms, 100) for ms in (1.0, 2.0, 3.0)] + [hint(0, 0.5, 0, "table")]
    hints.append(hint(3, 10.0, 900))
    row = latency_figures("balanced", 50.0, hints)
    assert (row["median_ms"], row["max_ms"], row["p99_ms"]) == (2.0, 10.0, 10.0)
    assert row["mean_ms"] == pytest.approx(16.5 / 5)
    assert row["positions_per_move"] == pytest.approx(1200 / 5)
    assert (row["table_answers"], row["depths"]) == (1, {"2": 3, "3": 1})
