"""The n-tuple network: tuples plus one flat table of float32 weights, and how to query it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from py2048.engine.board import ROW_TABLES, pack
from py2048.learn.kernels import board_value, greedy_move
from py2048.learn.tuples import DEFAULT_TUPLES, table_sizes, tuple_layout, validate_tuples


@dataclass(eq=False)
class NTupleNetwork:
    """A value function over 2048 boards: the sum of table entries over all tuple placements.

    ``weights`` is one flat float32 array holding each tuple's table in turn (tuple ``t`` owns
    ``16**len(tuples[t])`` entries). Values are in score points: the value of an afterstate
    estimates the score still to come.
    """

    tuples: tuple[tuple[int, ...], ...]
    weights: np.ndarray
    layout: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.tuples = validate_tuples(self.tuples)
        expected = int(table_sizes(self.tuples).sum())
        if self.weights.dtype != np.float32 or self.weights.shape != (expected,):
            raise ValueError(
                f"weights must be a float32 array of {expected} entries for these tuples, "
                f"got {self.weights.dtype} {self.weights.shape}"
            )
        self.layout = tuple_layout(self.tuples)

    @classmethod
    def zeros(cls, tuples: Sequence[Sequence[int]] = DEFAULT_TUPLES) -> NTupleNetwork:
        """An untrained network (every board is worth 0), the usual starting point of TD."""
        tuples = validate_tuples(tuples)
        return cls(tuples, np.zeros(int(table_sizes(tuples).sum()), dtype=np.float32))

    def value_packed(self, lo: int, hi: int) -> float:
        """Value of a packed board."""
        return float(board_value(np.uint64(lo), np.uint64(hi), self.weights, self.layout))

    def value(self, board: Sequence[Sequence[int]]) -> float:
        """Value of a 4x4 board of tile values (0 for empty), read as an afterstate."""
        return self.value_packed(*pack(board))

    def greedy_direction(self, lo: int, hi: int) -> int | None:
        """The move with the best ``gain + value(afterstate)``, or None when no move exists."""
        direction = greedy_move(
            np.uint64(lo),
            np.uint64(hi),
            self.weights,
            self.layout,
            ROW_TABLES,
        )[0]
        return None if direction < 0 else int(direction)
