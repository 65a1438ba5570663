"""The n-tuple network being trained: tuples plus one flat table of float32 weights.

Its layout, its weights file and its solver evaluation live in :mod:`py2048.evaluation`; this
module adds what training needs: float32 weights to update, and the training kernels.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from py2048.engine.board import ROW_TABLES, pack
from py2048.evaluation.contract import Evaluator
from py2048.evaluation.ntuple import int16_evaluator
from py2048.evaluation.storage import load_float32_weights, quantise, write_weights
from py2048.evaluation.tuples import (
    DEFAULT_TUPLES,
    entry_count,
    stage_sources,
    tuple_layout,
    validate_stage_tiles,
    validate_tuples,
)
from py2048.learn.kernels import NetworkKernels, network_kernels


@dataclass(eq=False)
class NTupleNetwork:
    """A value function over 2048 boards: the sum of table entries over all tuple placements.

    ``weights`` is one flat float32 array holding, for each stage in turn, each tuple's table in
    turn (tuple ``t`` owns ``16**len(tuples[t])`` entries per stage). ``stage_tiles`` split the
    game into stages by the board's largest tile (see :mod:`py2048.evaluation.tuples`); none means
    one stage. Values are in score points: the value of an afterstate estimates the score
    still to come.
    """

    tuples: tuple[tuple[int, ...], ...]
    weights: np.ndarray
    stage_tiles: tuple[int, ...] = ()
    layout: np.ndarray = field(init=False, repr=False)
    kernels: NetworkKernels = field(init=False, repr=False, compare=False)
    """The compiled kernels of this network's layout (compiled on first use)."""

    def __post_init__(self) -> None:
        self.tuples = validate_tuples(self.tuples)
        self.stage_tiles = validate_stage_tiles(self.stage_tiles)
        expected = entry_count(self.tuples, self.stage_tiles)
        if self.weights.dtype != np.float32 or self.weights.shape != (expected,):
            raise ValueError(
                f"weights must be a float32 array of {expected} entries for these tuples and "
                f"stages, got {self.weights.dtype} {self.weights.shape}"
            )
        self.layout = tuple_layout(self.tuples, self.stage_tiles)
        self.kernels = network_kernels(self.layout)

    @classmethod
    def zeros(
        cls, tuples: Sequence[Sequence[int]] = DEFAULT_TUPLES, stage_tiles: Sequence[int] = ()
    ) -> NTupleNetwork:
        """An untrained network (every board is worth 0), the usual starting point of TD."""
        tuples = validate_tuples(tuples)
        stage_tiles = validate_stage_tiles(stage_tiles)
        weights = np.zeros(entry_count(tuples, stage_tiles), dtype=np.float32)
        return cls(tuples, weights, stage_tiles)

    @classmethod
    def optimistic(
        cls,
        value: float,
        tuples: Sequence[Sequence[int]] = DEFAULT_TUPLES,
        stage_tiles: Sequence[int] = (),
    ) -> NTupleNetwork:
        """A network that values every board at ``value``: optimistic initialisation.

        Each of the ``8 * len(tuples)`` entries a board reads starts at its share of ``value``,
        so boards the training has not met yet look better than the ones it has, and play
        goes to see them (Guei, Chen and Wu's optimistic TD starts every board at 320,000).
        """
        tuples = validate_tuples(tuples)
        stage_tiles = validate_stage_tiles(stage_tiles)
        if not (np.isfinite(value) and value >= 0):
            raise ValueError(f"the optimistic value must be 0 or more, got {value}")
        share = np.float32(value / (8 * len(tuples)))
        weights = np.full(entry_count(tuples, stage_tiles), share, dtype=np.float32)
        return cls(tuples, weights, stage_tiles)

    def split_stages(self, stage_tiles: Sequence[int]) -> NTupleNetwork:
        """This network with more stage tiles; each new stage starts as a copy of its old one.

        The split network values every board exactly as this one does, so training can go on
        from it and let each stage drift toward its own part of the game.
        """
        stage_tiles = validate_stage_tiles(stage_tiles)
        return NTupleNetwork(
            self.tuples,
            split_stage_array(self.weights, self.stage_tiles, stage_tiles),
            stage_tiles,
        )

    def value_packed(self, lo: int, hi: int) -> float:
        """Value of a packed board."""
        return float(self.kernels.board_value(np.uint64(lo), np.uint64(hi), self.weights))

    def value(self, board: Sequence[Sequence[int]]) -> float:
        """Value of a 4x4 board of tile values (0 for empty), read as an afterstate."""
        return self.value_packed(*pack(board))

    def greedy_direction(self, lo: int, hi: int) -> int | None:
        """The move with the best ``gain + value(afterstate)``, or None when no move exists."""
        direction = self.kernels.greedy_move(
            np.uint64(lo), np.uint64(hi), self.weights.reshape(-1, 1), ROW_TABLES
        )[0]
        return None if direction < 0 else int(direction)


def split_stage_array(
    array: np.ndarray, old_tiles: Sequence[int], new_tiles: Sequence[int]
) -> np.ndarray:
    """A per-entry array (weights, or a learning statistic) laid out for more stages."""
    stages = array.reshape(len(old_tiles) + 1, -1)
    return np.ascontiguousarray(stages[stage_sources(old_tiles, new_tiles)]).ravel()


def network_evaluator(network: NTupleNetwork, name: str = "ntuple") -> Evaluator:
    """The network as a solver evaluation, its weights quantised to int16 as a shipped file's."""
    scale, entries = quantise(network.weights)
    return int16_evaluator(network.layout, scale, entries, name)


def save_weights(
    network: NTupleNetwork, path: str | os.PathLike[str], *, quantize: bool = True
) -> None:
    """Write the network as a weights file (see :mod:`py2048.evaluation.storage`)."""
    write_weights(path, network.tuples, network.stage_tiles, network.weights, quantize=quantize)


def load_weights(path: str | os.PathLike[str]) -> NTupleNetwork:
    """Read a weights file as a network to train on or to measure."""
    stored = load_float32_weights(path)
    return NTupleNetwork(stored.tuples, stored.weights, stored.stage_tiles)
