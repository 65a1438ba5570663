"""The n-tuple network as an evaluation, and the shipped network: ``evaluator="ntuple"``, and
``"ntuple-snake"``, the default: the same network pulled toward the endgame tables' formation
(:mod:`py2048.evaluation.snake`).

The network estimates the score still to come after an afterstate, so the search adds each
move's gain to it (``gain_weight`` 1.0), and greedy play with it (depth 0) is how the network
was trained to play (with its weights rounded to int16 steps, as the shipped file stores them).
The search reads the entries as int16: half the memory of float32 (134 MB for the default
tuples) and quicker searches, since more of the tables' busy entries stay in the processor's
caches.

The weights come from the file shipped inside the package, or from the file named by the
environment variable ``PY2048_NTUPLE_WEIGHTS`` (to measure a network of your own with
``2048 bench --evaluator ntuple``). ``py2048.learn`` trains networks and turns one being
trained into an evaluation (:func:`py2048.learn.network.network_evaluator`).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from py2048.engine.board import max_exponent
from py2048.evaluation.contract import KERNEL_SIGNATURE, Evaluator
from py2048.evaluation.snake import MIN_EXPONENT, PULL, snake_sum
from py2048.evaluation.storage import Int16Weights, WeightsError, load_int16_weights
from py2048.evaluation.tuples import (
    Plan,
    layout_plan,
    network_board,
    symmetric_boards,
    table_index,
    tuple_layout,
)

SHIPPED_WEIGHTS = "ntuple-4x6.npz"
WEIGHTS_VARIABLE = "PY2048_NTUPLE_WEIGHTS"


def int16_evaluator(
    layout: np.ndarray, scale: float, entries: np.ndarray, name: str, pull: float = 0.0
) -> Evaluator:
    """The evaluation of a network whose entries are int16 steps of ``scale``, plus ``pull``
    times the board's :func:`~py2048.evaluation.snake.snake_sum` (none by default).

    The Evaluator's ``weights`` are those entries, two to a float32 word, as the evaluation
    interface passes every table as float32. With a pull, its ``baseline`` is the pull of the
    board searched, which hints subtract so that their values stay in points.
    """
    if entries.size % 2:
        entries = np.append(entries, np.int16(0))
    return Evaluator(
        name,
        value_kernel(layout, scale, pull),
        entries.view(np.float32).reshape(1, -1),
        layout,
        gain_weight=1.0,
        baseline=_pull_of(float(pull)) if pull else None,
    )


def value_kernel(layout: np.ndarray, scale: float, pull: float = 0.0) -> Dispatcher:
    """The solver kernel for a network of this layout and int16 scale: its value, never below 0
    (0 is the value of a lost game), plus ``pull`` times the board's snake sum.

    The layout (which table, which masks and shifts read each tuple;
    :func:`~py2048.evaluation.tuples.layout_plan`), the scale and the pull are compiled into the
    kernel as constants, as in the training kernels: numba then folds the index arithmetic
    away, which made d2 searches twice as fast (``docs/solver-reference.md``, "How it works"). numba
    caches one compiled kernel per layout, scale and pull on disk, so only a new network compiles
    (about a second).
    """
    return _compiled_kernel(layout_plan(layout), float(scale), float(pull))


@lru_cache(maxsize=16)
def _compiled_kernel(planned: Plan, scale: float, pull: float) -> Dispatcher:
    plan, runs, staged = planned

    @njit(KERNEL_SIGNATURE, cache=True, nogil=True)
    def ntuple_value(lo, hi, weights, layout):
        table = weights[0].view(np.int16)
        top = max_exponent(lo, hi) if staged else 0
        total = 0
        for board in symmetric_boards(network_board(lo, hi)):
            for row in plan:
                if row[1] <= top < row[2]:
                    total += table[table_index(board, row, runs)]
        value = max(total * scale, 0.0)
        if pull != 0.0:
            value += pull * snake_sum(lo, hi, MIN_EXPONENT)
        return value

    return ntuple_value


def _pull_of(pull: float) -> Callable[[int, int], float]:
    def baseline(lo: int, hi: int) -> float:
        return pull * int(snake_sum(np.uint64(lo), np.uint64(hi), MIN_EXPONENT))

    return baseline


def shipped_weights_path() -> Path:
    """The weights file of the network py2048 ships."""
    return Path(str(files("py2048.evaluation") / "weights" / SHIPPED_WEIGHTS))


def weights_path() -> Path:
    """The weights file the ``"ntuple"`` evaluator loads: the one ``PY2048_NTUPLE_WEIGHTS``
    names, else the shipped one."""
    chosen = os.environ.get(WEIGHTS_VARIABLE)
    if chosen:
        return Path(chosen)
    return shipped_weights_path()


@lru_cache(maxsize=1)
def _shipped_weights() -> Int16Weights:
    """The network to play with. A network named by ``PY2048_NTUPLE_WEIGHTS`` that cannot be
    used (missing, damaged, cut short, not a weights file) is refused with a warning naming it
    and what is wrong, and the shipped network plays instead."""
    global _loaded_from
    path = weights_path()
    if path != shipped_weights_path():
        try:
            weights = load_int16_weights(path)
            _loaded_from = path
            return weights
        except WeightsError as exc:
            warnings.warn(
                f"{WEIGHTS_VARIABLE}: {exc}; playing with the network py2048 ships instead",
                stacklevel=2,
            )
    weights = load_int16_weights(shipped_weights_path())
    _loaded_from = shipped_weights_path()
    return weights


_loaded_from: Path | None = None


def network_in_use() -> dict[str, object]:
    """Which network the ``"ntuple"`` evaluations play with (loading it if need be): its file,
    whether it is the shipped one, and the first 16 hex digits of the file's SHA-256, so that
    a result can say which network played it."""
    _shipped_weights()
    assert _loaded_from is not None
    return {
        "file": str(_loaded_from),
        "shipped": _loaded_from == shipped_weights_path(),
        "sha256": _digest(_loaded_from),
    }


@lru_cache(maxsize=1)
def _digest(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256 (read once: the file is 33 MB)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def shipped_evaluator() -> Evaluator:
    """The ``"ntuple"`` evaluation, read from the file's int16 entries with no float32 copy."""
    return _shipped("ntuple")


def snake_evaluator() -> Evaluator:
    """The ``"ntuple-snake"`` evaluation (the default): the shipped network, sharing its
    entries with ``"ntuple"``, pulled toward the snake formation by :data:`PULL`."""
    return _shipped("ntuple-snake", PULL)


def _shipped(name: str, pull: float = 0.0) -> Evaluator:
    weights = _shipped_weights()
    layout = tuple_layout(weights.tuples, weights.stage_tiles)
    return int16_evaluator(layout, weights.scale, weights.entries, name, pull)
