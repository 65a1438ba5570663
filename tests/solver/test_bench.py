"""2048 bench: games that match the engine, c-rand spawns, JSON figures, input checks."""

from __future__ import annotations

import ctypes
import json
import os
import statistics
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import Game
from py2048.cli import main
from py2048.solver import PRESETS, best_move, crand
from py2048.solver.autoplay import autoplay
from py2048.solver.bench import BenchSettings, run_bench
from py2048.solver.crand import opening_board
from py2048.solver.hint import resolve_plan
from py2048.solver.stats import wilson_interval

SEED_2001_OPENING = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 2, 0, 0]]
"""Documented in docs/solver-reference.md ("`--rng c-rand`"): the first c-rand board of seed 2001
(glibc)."""


def ctypes_opening(seed: int) -> list[list[int]]:
    """The c-rand opening as the issue states it, through ctypes: the plain reading."""
    libc = ctypes.CDLL(None)
    libc.srand(ctypes.c_uint(seed))
    cells = [0] * 16
    for _ in range(2):
        empty = [i for i in range(16) if cells[i] == 0]
        cell = empty[libc.rand() % len(empty)]
        cells[cell] = 4 if libc.rand() % 10 == 0 else 2
    return [cells[r * 4 : r * 4 + 4] for r in range(4)]


def test_c_rand_first_board_for_seed_2001_is_the_documented_one():
    assert opening_board(2001) == SEED_2001_OPENING
    assert opening_board(2001) == opening_board(2001)


@pytest.mark.parametrize("seed", [0, 1, 2001, 2002, 12345, 2**32 - 1])
def test_c_rand_openings_follow_libc_rand_through_ctypes(seed):
    assert opening_board(seed) == ctypes_opening(seed)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, crand.SEED_LIMIT - 1))
def test_c_rand_numbers_are_those_of_the_c_library(seed):
    libc = ctypes.CDLL(None)
    libc.srand(ctypes.c_uint(seed))
    expected = [libc.rand() for _ in range(500)]
    state = crand.new_state()
    crand.seed(np.uint64(seed), state)
    assert [crand.rand(state) for _ in range(500)] == expected


def test_a_c_rand_game_is_not_disturbed_by_other_threads_drawing_from_libc_rand():
    """A Ray worker's own threads share the process: the game must not share their rand()."""
    plan = resolve_plan(depth=0)
    alone = autoplay(2003, plan, rng="c-rand")
    stop = threading.Event()

    def draw() -> None:
        libc = ctypes.CDLL(None)
        while not stop.is_set():
            libc.rand()

    drawer = threading.Thread(target=draw)
    drawer.start()
    try:
        disturbed = autoplay(2003, plan, rng="c-rand")
    finally:
        stop.set()
        drawer.join()
    assert (disturbed.score, disturbed.moves) == (alone.score, alone.moves)


def test_c_rand_games_are_stable():
    plan = resolve_plan(depth=0)
    first = [autoplay(seed, plan, rng="c-rand") for seed in (2001, 2002)]
    again = [autoplay(seed, plan, rng="c-rand") for seed in (2001, 2002)]
    assert [(r.score, r.moves, r.max_tile) for r in first] == [
        (r.score, r.moves, r.max_tile) for r in again
    ]


@pytest.mark.parametrize("depth", [0, 1])
def test_compiled_game_is_the_game_that_best_move_plays(depth):
    """autoplay with the py2048 generator == Game(seed) driven by best_move at that depth."""
    for seed in (7, 2001):
        record = autoplay(seed, resolve_plan(depth=depth))
        game = Game(seed)
        while not game.over:
            assert game.move(best_move(game.board, depth=depth).direction)
        assert (record.score, record.moves, record.max_tile) == (
            game.score,
            game.moves,
            game.max_tile,
        )


def test_bench_json_matches_the_games_it_played(tmp_path, capsys):
    path = tmp_path / "bench.json"
    args = ["bench", "--games", "3", "--seed", "40", "--depth", "0", "--workers", "1"]
    code = main([*args, "--json", str(path)])
    assert code == 0
    report = json.loads(path.read_text())
    games = report["games"]
    assert [g["seed"] for g in games] == [40, 41, 42]
    for g in games:
        replayed = autoplay(g["seed"], resolve_plan(depth=0))
        assert (g["score"], g["max_tile"], g["moves"]) == (
            replayed.score,
            replayed.max_tile,
            replayed.moves,
        )
        assert g["seconds"] >= 0
    summary = report["summary"]
    scores = [g["score"] for g in games]
    assert summary["games"] == 3
    assert summary["mean_score"] == pytest.approx(statistics.fmean(scores))
    assert summary["median_score"] == statistics.median(scores)
    assert summary["max_score"] == max(scores)
    assert summary["total_moves"] == sum(g["moves"] for g in games)
    assert summary["mean_moves"] == pytest.approx(statistics.fmean(g["moves"] for g in games))
    busy = sum(g["seconds"] for g in games)
    assert summary["moves_per_second_per_worker"] == pytest.approx(summary["total_moves"] / busy)
    for rate in summary["rates"]:
        assert rate["games"] == sum(g["max_tile"] >= rate["tile"] for g in games)
    assert report["settings"]["depth"] == 0
    table = capsys.readouterr().out
    assert "mean score" in table
    lines = [line for line in table.splitlines() if line.startswith("game ")]
    assert len(lines) == 3  # not a terminal: one whole line per game
    for done, (g, line) in enumerate(zip(games, lines, strict=True), start=1):
        assert line.startswith(f"game {done}/3: seed {g['seed']}, score {g['score']:,}, max ")
        assert line.endswith(" elapsed")
    assert table_row(table, "moves per game (mean)") == f"{summary['mean_moves']:,.0f}"
    assert table_row(table, "moves, all games") == f"{summary['total_moves']:,}"
    assert table_row(table, "moves/s per worker")


def table_row(table: str, label: str) -> str:
    """The value printed beside ``label`` in the bench's table."""
    (line,) = [line for line in table.splitlines() if f" {label} " in line]
    return line.split(label, 1)[1].strip(" │┃|").split()[0]


def test_worker_processes_give_the_same_games_as_one_process():
    settings = BenchSettings(games=4, seed=100, depth=0, rng="c-rand")
    alone = run_bench(BenchSettings(**{**settings.__dict__, "workers": 1}))
    pooled = run_bench(BenchSettings(**{**settings.__dict__, "workers": 2}))
    assert [(r.seed, r.score, r.moves) for r in alone] == [
        (r.seed, r.score, r.moves) for r in pooled
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, "games"),
        ({"games": -3}, "games"),
        ({"seed": -1}, "seed"),
        ({"workers": 0}, "workers"),
        ({"rng": "mt19937"}, "rng"),
        ({"depth": 2, "preset": "fast"}, "at most one"),
        ({"time_ms": -1.0}, "positive"),
        ({"seed": 2**32 - 1, "games": 2, "rng": "c-rand"}, "4294967296, past 4294967295, the la"),
        ({"evaluator": "nope"}, "evaluator"),
        ({"json_path": "/nonexistent-folder/x.json"}, "does not exist"),
        ({"depth": 2, "budget": "nodes"}, "for presets"),
        ({"preset": "strong", "budget": "moves"}, "unknown budget"),
    ],
)
def test_bad_bench_settings_are_rejected(changes, message):
    with pytest.raises(ValueError, match=message):
        BenchSettings(**changes).checked()


def test_cli_rejects_games_zero_and_reports_bad_values_without_traceback(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--games", "0"])
    assert "must be 1 or more" in capsys.readouterr().err
    assert main(["bench", "--games", "1", "--json", "/nonexistent-folder/x.json"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_wilson_interval_known_values():
    low, high = wilson_interval(0, 200)
    assert low == 0.0 and high == pytest.approx(0.0188, abs=1e-4)
    low, high = wilson_interval(198, 200)
    assert (low, high) == (pytest.approx(0.9643, abs=1e-4), pytest.approx(0.9973, abs=1e-4))
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


RAY_HEAD = """
import sys, ray
ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
print(ray.get_runtime_context().gcs_address, flush=True)
sys.stdin.read()  # the cluster lives until the test closes this pipe
"""


@pytest.fixture
def ray_address(monkeypatch):
    """A local Ray cluster in a helper process, shut down when the test ends.

    It is private to the test, so it runs without Ray's token authentication.
    """
    pytest.importorskip("ray")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    head = subprocess.Popen(
        [sys.executable, "-c", RAY_HEAD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        address = head.stdout.readline().strip()
        assert address, "the local Ray cluster did not start"
        yield address
    finally:
        head.stdin.close()
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_games_run_as_ray_tasks_give_the_same_games(ray_address, tmp_path):
    path = tmp_path / "ray.json"
    args = ["bench", "--games", "3", "--seed", "2001", "--depth", "0", "--rng", "c-rand"]
    assert main([*args, "--ray", ray_address, "--json", str(path)]) == 0
    report = json.loads(path.read_text())
    assert report["settings"]["ray"] is True
    local = run_bench(BenchSettings(games=3, seed=2001, depth=0, rng="c-rand", workers=1))
    assert [(g["seed"], g["score"], g["moves"]) for g in report["games"]] == [
        (r.seed, r.score, r.moves) for r in local
    ]


CROWDED = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 0, 8, 16]]
"""A start for games of a few seconds."""


def test_a_budget_in_positions_plays_the_same_game_twice():
    # strong's depths under a budget small enough to stop many of its searches; the network
    # plays on from CROWDED for tens of thousands of moves, so the first 2,000 are compared
    plan = resolve_plan(preset="strong", budget="nodes")._replace(nodes=5_000)
    first = autoplay(7, plan, rng="c-rand", board=CROWDED, max_moves=2_000)
    again = autoplay(7, plan, rng="c-rand", board=CROWDED, max_moves=2_000)
    assert (first.score, first.moves, first.nodes) == (again.score, again.moves, again.nodes)
    assert first.moves > 0


def test_loading_the_tables_is_outside_the_game_clock(monkeypatch):
    import py2048.solver.autoplay as autoplay_module
    from py2048.solver.endgame import NO_TABLES

    def slow_tables(tables):
        time.sleep(1.0)
        return NO_TABLES

    monkeypatch.setattr(autoplay_module, "_table_set", slow_tables)
    record = autoplay(7, resolve_plan(depth=0), rng="c-rand", board=CROWDED)
    assert record.moves > 0
    assert record.seconds < 1.0


def test_the_header_names_the_tables_of_the_json(tmp_path, capsys):
    path = tmp_path / "bench.json"
    args = ["bench", "--games", "1", "--seed", "40", "--depth", "0", "--workers", "1"]
    assert main([*args, "--json", str(path)]) == 0
    out = capsys.readouterr().out
    report = json.loads(path.read_text())
    from py2048.tables import tables_dir

    (line,) = [line for line in out.splitlines() if line.startswith("tables: ")]
    assert str(tables_dir()) in line
    compact = [n for n in report["settings"]["tables"] if n.endswith(" (compact)")]
    assert f"the compact table for {len(compact)} formation(s)" in line
    built = [n for n in report["settings"]["tables"] if not n.endswith(" (compact)")]
    assert sorted(report["settings"]["table_checksums"]) == sorted(built)
    assert "outside every clock" in out
    assert report["settings"]["budget"] == "time"
    from py2048.solver.endgame import MIN_PROBABILITY, MIN_TAIL

    policy = report["settings"]["table_policy"]
    assert (policy["min_tail"], policy["min_probability"]) == (MIN_TAIL, MIN_PROBABILITY)
    assert main([*args, "--no-tables", "--json", str(path)]) == 0
    assert "tables: none (--no-tables)" in capsys.readouterr().out
    assert json.loads(path.read_text())["settings"]["table_policy"] is None


@pytest.mark.parametrize("size", ["4x4", "5x5"])
def test_the_json_records_the_depths_a_preset_searched_on_its_size(tmp_path, size):
    from py2048.solver.presets import PRESETS

    path = tmp_path / "bench.json"
    args = ["bench", "--games", "1", "--seed", "40", "--preset", "fast", "--budget", "nodes"]
    args += ["--size", size, "--max-moves", "5", "--workers", "1", "--no-tables"]
    assert main([*args, "--json", str(path)]) == 0
    plan = json.loads(path.read_text())["settings"]["plan"]
    fast = PRESETS["fast"]
    assert (plan["min_depth"], plan["max_depth"]) == fast.depths(classic=size == "4x4")
    assert (plan["nodes"], plan["seconds"], plan["adaptive"]) == (fast.nodes, 0.0, True)


def test_the_json_tells_two_builds_of_one_table_apart(tmp_path, monkeypatch):
    """Each built table's checksum is recorded beside its name: a table built again with other
    caps keeps its name, so the name alone does not say which games a run played."""
    import py2048.tables.formations as formations_module
    from py2048.solver.endgame import forget_tables
    from py2048.tables import Formation, open_table
    from py2048.tables.builder import build_table

    def checksums(formation: Formation, folder) -> dict[str, str]:
        build_table(formation, folder, clock=lambda: 0.0, memory=lambda: 0)
        monkeypatch.setattr(formations_module, "FORMATIONS", [formation])
        monkeypatch.setenv("PY2048_TABLES_DIR", str(folder))
        forget_tables()
        path = folder / "bench.json"
        args = ["bench", "--games", "1", "--seed", "40", "--depth", "0", "--workers", "1"]
        try:
            assert main([*args, "--json", str(path)]) == 0
        finally:
            forget_tables()
        found = json.loads(path.read_text())["settings"]["table_checksums"]
        assert found == {formation.name: open_table(formation, folder).header.checksum}
        return found

    wide = Formation("row3-32", fixed=tuple(range(12)), target=32, target_cells=(12,))
    capped = Formation("row3-32", fixed=tuple(range(12)), target=32, target_cells=(12,),
                       caps=(16, 16, 8, 8))  # fmt: skip
    assert checksums(wide, tmp_path / "a") != checksums(capped, tmp_path / "b")


def test_a_preset_benched_with_a_budget_in_positions_says_so(tmp_path, capsys):
    path = tmp_path / "bench.json"
    settings = BenchSettings(games=1, preset="fast", budget="nodes", json_path=str(path))
    assert settings.label() == f"preset fast, {PRESETS['fast'].nodes:,} positions/move"
    assert settings.plan().nodes == PRESETS["fast"].nodes
    assert main(["bench", "--depth", "1", "--budget", "nodes"]) == 2
    assert "for presets" in capsys.readouterr().err


def test_every_line_stays_whole_in_a_file_however_long(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)  # a file: rich's 80 columns
    folder = tmp_path / ("a-folder-with-a-name-long-enough-to-pass-eighty-columns-" * 2)
    folder.mkdir()
    path = folder / "bench.json"
    seed = "9007199254740000"  # the header: seeds 9007199254740000..9007199254740000
    args = ["bench", "--games", "1", "--seed", seed, "--depth", "0", "--workers", "1"]
    assert main([*args, "--json", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"py2048 bench: 4x4, 1 games, seeds {seed}..{seed}, d0, rng py2048, 1 worker process(es)"
    )
    assert lines[1].startswith("tables: ") and lines[2].startswith("network: ")
    assert lines[3].startswith("loaded in ")
    assert lines[4].startswith("game 1/1: seed ") and lines[4].endswith(" elapsed")
    assert lines[-1] == f"every game's figures: {path}"


def test_help_says_what_the_bench_does(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "Let the solver play many games" in help_text
    assert "Game i uses seed+i" in help_text


def test_ray_missing_is_the_only_thing_printed(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    argv = ["bench", "--games", "1", "--depth", "0", "--ray", "127.0.0.1:1"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "2048: error: --ray needs Ray: pip install 'py2048[ray]'\n"


def test_the_header_and_the_json_say_which_network_played(tmp_path, capsys):
    path = tmp_path / "bench.json"
    args = ["bench", "--games", "1", "--seed", "40", "--depth", "0", "--workers", "1"]
    assert main([*args, "--json", str(path)]) == 0
    out = capsys.readouterr().out
    network = json.loads(path.read_text())["settings"]["network"]
    from py2048.evaluation.ntuple import shipped_weights_path

    assert network["shipped"] is True
    assert network["file"] == str(shipped_weights_path())
    assert len(network["sha256"]) == 16
    assert f"network: the shipped one (sha256 {network['sha256']})" in out
    assert main([*args, "--evaluator", "heuristic", "--json", str(path)]) == 0
    assert "network:" not in capsys.readouterr().out
    assert json.loads(path.read_text())["settings"]["network"] is None
