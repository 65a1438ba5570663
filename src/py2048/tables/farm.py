"""Building a table on a Ray cluster: each large layer split into ranges, one task a range.

A layer's positions depend only on the two layers above it (:mod:`.builder`), so its ranks can
be split anywhere and solved apart. ``2048 tables build --ray ADDRESS`` keeps everything but
the solving on the machine that runs the command: the table's file, the record of finished
layers and so the resuming (a stopped build resumes with or without the cluster). For each
layer it puts the two layers above it in Ray's object store once, sends one task per range of
ranks, and writes the layer when every range is back. Every task computes each position exactly
as a local build does, so the file is byte-identical to one built on a single machine.

Layers below :data:`RAY_MIN_POSITIONS` positions are solved here: sending them would cost more
than solving them. Every machine of the cluster needs py2048 (the same version) installed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from py2048.cluster import ray_connection
from py2048.tables.builder import TASK_POSITIONS, LayerSolver, solve_range, threads_used
from py2048.tables.formations import Formation

RAY_MIN_POSITIONS = 1 << 20
"""Layers smaller than this are solved on the machine running the build."""
RANGES_PER_CPU = 4
"""Ranges a layer is split into per CPU of the cluster, so that slow machines do not hold the
layer up."""


def range_length(count: int, cpus: int) -> int:
    """How many ranks one task solves: the layer split into ``RANGES_PER_CPU`` ranges per CPU,
    each a whole number of the builder's fixed runs of positions."""
    runs = math.ceil(count / TASK_POSITIONS)
    per_range = max(1, math.ceil(runs / max(1, cpus * RANGES_PER_CPU)))
    return per_range * TASK_POSITIONS


def _solve_task(
    formation: Formation, layer: int, first: int, count: int, window: np.ndarray, base: int
) -> np.ndarray:
    """One range of one layer, solved on a cluster's machine with one thread (Ray gave the
    task one CPU)."""
    with threads_used(1):
        return solve_range(formation, layer, first, count, window, base)


@contextmanager
def ray_layers(address: str, formation: Formation) -> Iterator[LayerSolver]:
    """A layer solver that farms each large layer to the Ray cluster at ``address`` (connected
    for the block; ValueError when it cannot be reached or Ray is not installed)."""
    with ray_connection(address) as ray:
        task = ray.remote(num_cpus=1)(_solve_task)

        def solve(layer: int, count: int, window: np.ndarray, base: int) -> np.ndarray:
            if count == 0 or count < RAY_MIN_POSITIONS:
                return solve_range(formation, layer, 0, count, window, base)
            cpus = int(ray.cluster_resources().get("CPU", 1))
            length = range_length(count, cpus)
            shared = ray.put(window)
            pieces = [
                task.remote(formation, layer, first, min(length, count - first), shared, base)
                for first in range(0, count, length)
            ]
            return np.concatenate(ray.get(pieces))

        yield solve
