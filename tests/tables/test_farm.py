"""Tables built with their layers farmed out (``2048 tables build --ray``) are the same files.

The farming logic runs against a stand-in for Ray that runs each task in this process (fast,
always run); one test builds on a real local Ray instance (slow: Ray starts its processes).
"""

from __future__ import annotations

import itertools
import socket
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from py2048.tables import farm
from py2048.tables.builder import build_table, solve_range
from py2048.tables.storage import table_path
from tests.tables.conftest import CAPPED, SMALL, SNAKE11, fixed_clock, no_memory


class _InlineRay:
    """What farm.ray_layers uses of Ray, running every task at once, here; records the ranges."""

    def __init__(self, cpus: int) -> None:
        self.cpus = cpus
        self.ranges: list[tuple[int, int, int]] = []

    def remote(self, **_: object) -> Callable[[Callable[..., Any]], Any]:
        def wrap(function: Callable[..., Any]) -> Any:
            ranges = self.ranges

            class Task:
                @staticmethod
                def remote(*args: Any) -> Any:
                    ranges.append((args[1], args[2], args[3]))  # layer, first, count
                    return function(*args)

            return Task

        return wrap

    def put(self, value: np.ndarray) -> np.ndarray:
        return value

    def get(self, values: list[np.ndarray]) -> list[np.ndarray]:
        return values

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus)}


@pytest.fixture
def inline_ray(monkeypatch: pytest.MonkeyPatch) -> _InlineRay:
    ray = _InlineRay(cpus=3)

    @contextmanager
    def connection(address: str) -> Iterator[types.ModuleType]:
        assert address == "10.0.0.5:6379"
        yield ray  # type: ignore[misc]  # the stand-in has what farm uses

    monkeypatch.setattr(farm, "ray_connection", connection)
    monkeypatch.setattr(farm, "RAY_MIN_POSITIONS", 0)  # farm out even these small layers
    monkeypatch.setattr(farm, "TASK_POSITIONS", 2)  # and split them into many ranges
    return ray


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_a_farmed_build_writes_the_same_file(
    formation: Any, built: Path, tmp_path: Path, inline_ray: _InlineRay
) -> None:
    path = build_table(
        formation, tmp_path, clock=fixed_clock, memory=no_memory, ray_address="10.0.0.5:6379"
    )
    assert path.read_bytes() == table_path(formation.name, built).read_bytes()
    several = [layer for layer, first, _ in inline_ray.ranges if first > 0]
    assert several, "some layer was split into more than one range"


def test_the_ranges_of_a_layer_tile_it_exactly(tmp_path: Path, inline_ray: _InlineRay) -> None:
    build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=no_memory, ray_address="10.0.0.5:6379")
    by_layer: dict[int, list[tuple[int, int]]] = {}
    for layer, first, count in inline_ray.ranges:
        by_layer.setdefault(layer, []).append((first, count))
    for pieces in by_layer.values():
        position = 0
        for first, count in pieces:
            assert first == position and count > 0
            position += count


def test_any_split_of_a_layer_gives_its_values(built: Path) -> None:
    from py2048.tables.ranking import layer_sizes, layer_starts
    from py2048.tables.storage import PAYLOAD_OFFSET

    data = table_path(CAPPED.name, built).read_bytes()[PAYLOAD_OFFSET:]
    values = np.frombuffer(data, dtype=np.uint16)
    sizes, starts = layer_sizes(CAPPED), layer_starts(CAPPED)
    layer = int(np.argmax(sizes))
    window = values[starts[layer + 1] : starts[min(layer + 3, sizes.size)]].copy()
    whole = solve_range(CAPPED, layer, 0, int(sizes[layer]), window, int(starts[layer + 1]))
    assert np.array_equal(whole, values[starts[layer] : starts[layer + 1]])
    cuts = [0, 1, 7, int(sizes[layer]) // 2, int(sizes[layer])]
    pieces = [
        solve_range(CAPPED, layer, a, b - a, window, int(starts[layer + 1]))
        for a, b in itertools.pairwise(cuts)
    ]
    assert np.array_equal(np.concatenate(pieces), whole)


def test_range_length_is_whole_runs_and_spreads_over_the_cpus() -> None:
    assert farm.range_length(10, 4) == farm.TASK_POSITIONS
    length = farm.range_length(100 * farm.TASK_POSITIONS, 5)
    assert length % farm.TASK_POSITIONS == 0
    assert 100 * farm.TASK_POSITIONS / length >= 5 * farm.RANGES_PER_CPU - 1


def test_an_unreachable_cluster_is_one_clear_line_before_anything_is_built(
    tmp_path: Path,
) -> None:
    pytest.importorskip("ray")
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    argv = [sys.executable, "-m", "py2048", "tables", "build", "--dir", str(tmp_path)]
    done = subprocess.run(
        [*argv, "--ray", f"127.0.0.1:{port}", CAPPED.name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert [line for line in done.stderr.splitlines() if line.strip()] == [
        f"2048: error: cannot reach the Ray cluster at 127.0.0.1:{port}: connection refused "
        "(is it running? `ray start --head` prints its address)"
    ]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_build_on_a_local_ray_instance_writes_the_same_file(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = pytest.importorskip("ray")
    monkeypatch.setattr(farm, "RAY_MIN_POSITIONS", 0)
    monkeypatch.setattr(farm, "TASK_POSITIONS", 64)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        path = build_table(
            CAPPED, tmp_path, clock=fixed_clock, memory=no_memory, ray_address="auto"
        )
    finally:
        ray.shutdown()
    assert path.read_bytes() == table_path(CAPPED.name, built).read_bytes()
