"""A network chosen with PY2048_NTUPLE_WEIGHTS: used when it is sound, refused by name when not
(play then goes on with the shipped network; a bench stops)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from py2048.evaluation.ntuple import shipped_weights_path

PROBE = """
import warnings
warnings.simplefilter("default")
from py2048.solver import best_move
board = [[2, 4, 8, 16], [0, 2, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0]]
hint = best_move(board, depth=0, evaluator="ntuple")
print([round(v) for v in hint.values.values()])
"""


def values_with(weights: Path | None) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    environment.pop("PY2048_NTUPLE_WEIGHTS", None)
    if weights is not None:
        environment["PY2048_NTUPLE_WEIGHTS"] = str(weights)
    return subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=environment,
        timeout=300, check=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def shipped_values() -> str:
    return values_with(None).stdout


@pytest.mark.parametrize("damage", ["cut short", "not a weights file", "missing"])
def test_a_network_that_cannot_be_used_is_named_and_the_shipped_one_plays(
    tmp_path: Path, shipped_values: str, damage: str
) -> None:
    chosen = tmp_path / "mine.npz"
    if damage == "cut short":
        chosen.write_bytes(shipped_weights_path().read_bytes()[:100_000])
    elif damage == "not a weights file":
        chosen.write_text("these are not weights")
    result = values_with(chosen)
    assert result.stdout == shipped_values
    assert str(chosen) in result.stderr
    assert "playing with the network py2048 ships instead" in result.stderr


def test_a_sound_network_is_used(tmp_path: Path, shipped_values: str) -> None:
    import numpy as np

    from py2048.evaluation.tuples import DEFAULT_TUPLES
    from py2048.learn.network import NTupleNetwork, save_weights

    network = NTupleNetwork.zeros(DEFAULT_TUPLES[:2])
    network.weights[:] = np.random.default_rng(3).integers(-500, 500, network.weights.size)
    save_weights(network, tmp_path / "mine.npz")
    result = values_with(tmp_path / "mine.npz")
    assert result.stderr == ""
    assert result.stdout != shipped_values


@pytest.mark.parametrize("evaluator", ["ntuple", "ntuple-snake"])
def test_a_bench_stops_on_a_network_it_cannot_use_instead_of_measuring_another(
    tmp_path: Path, evaluator: str
) -> None:
    missing = tmp_path / "typo.npz"
    environment = {**os.environ, "PY2048_NTUPLE_WEIGHTS": str(missing)}
    command = [sys.executable, "-m", "py2048", "bench", "--games", "1", "--depth", "0"]
    command += ["--workers", "1", "--evaluator", evaluator, "--json", str(tmp_path / "r.json")]
    result = subprocess.run(
        command, capture_output=True, text=True, env=environment, timeout=300, check=False
    )
    assert result.returncode == 2
    assert str(missing) in result.stderr
    assert "PY2048_NTUPLE_WEIGHTS" in result.stderr
    assert "playing with the network py2048 ships" not in result.stderr
    assert not (tmp_path / "r.json").exists()


def test_a_bench_with_the_heuristic_ignores_the_network_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from py2048.solver.bench import BenchSettings

    monkeypatch.setenv("PY2048_NTUPLE_WEIGHTS", str(tmp_path / "typo.npz"))
    settings = BenchSettings(games=1, depth=0, evaluator="heuristic").checked()
    assert settings.evaluator == "heuristic"
