"""The compiled trainer against a plain-Python TD(0) learner written from the definitions."""

from __future__ import annotations

import numpy as np
import pytest

from py2048.engine.board import pack, place, start, unpack
from py2048.engine.rng import draw, seed_key
from py2048.learn.training import Trainer, TrainingConfig
from tests.engine.reference import reference_slide, symmetries

TINY_TUPLES = ((0, 1, 2), (4, 5, 6), (0, 1, 4))
DIRECTIONS = ("up", "right", "down", "left")  # the engine's numbering, 0 to 3


def entries(tuples: tuple[tuple[int, ...], ...], board: list[list[int]]) -> list[int]:
    """Every weight a board reads: each tuple at its cells on all eight images of the board,
    tiles as exponents capped at 15, the first cell the lowest hexadecimal digit."""
    exponents = [[min(v.bit_length() - 1, 15) if v else 0 for v in row] for row in board]
    found = []
    for image in symmetries(exponents):
        flat = [e for row in image for e in row]
        start_of_table = 0
        for cells in tuples:
            found.append(start_of_table + sum(flat[c] << (4 * i) for i, c in enumerate(cells)))
            start_of_table += 16 ** len(cells)
    return found


class PlainLearner:
    """TD(0) on afterstates with greedy play, online, as Szubert & Jaskowski describe it:
    after each move the previous afterstate's value moves toward the move's gain plus the new
    afterstate's value (toward 0 after the last move), every weight it reads by
    ``alpha / reads * error``, scaled by ``|E| / A`` with temporal coherence."""

    def __init__(self, tuples: tuple[tuple[int, ...], ...], alpha: float, coherence: bool):
        size = sum(16 ** len(cells) for cells in tuples)
        self.tuples = tuples
        self.weights = np.zeros(size, dtype=np.float32)
        self.error_sum = np.zeros(size, dtype=np.float32)
        self.error_abs = np.zeros(size, dtype=np.float32)
        self.step = alpha / (len(tuples) * 8)
        self.coherence = coherence

    def value(self, board: list[list[int]]) -> float:
        return sum(float(self.weights[j]) for j in entries(self.tuples, board))

    def learn(self, board: list[list[int]], target: float) -> None:
        error = target - self.value(board)
        for j in entries(self.tuples, board):
            rate = 1.0
            if self.coherence and self.error_abs[j] > 0:
                rate = abs(float(self.error_sum[j])) / float(self.error_abs[j])
            self.weights[j] = self.weights[j] + self.step * rate * error
            self.error_sum[j] = self.error_sum[j] + error
            self.error_abs[j] = self.error_abs[j] + abs(error)

    def play(self, key: np.uint64) -> tuple[int, int]:
        """One game from the key's opening, learning as it goes: (score, moves)."""
        lo, hi = start(key)
        board = unpack(int(lo), int(hi))
        previous = None
        score = moves = 0
        spawns = 2
        while True:
            best = None
            for direction in DIRECTIONS:
                after, gain = reference_slide(board, direction)
                if after == board:
                    continue
                total = gain + self.value(after)
                if best is None or total > best[0]:
                    best = (total, after, gain)
            if previous is not None:
                self.learn(previous, 0.0 if best is None else best[0])
            if best is None:
                return score, moves
            _, previous, gain = best
            score += gain
            moves += 1
            after_lo, after_hi = pack(previous)
            spawned, _, _ = place(
                np.uint64(after_lo), np.uint64(after_hi), draw(key, np.uint64(spawns))
            )
            spawns += 1
            board = unpack(int(spawned), after_hi)


@pytest.mark.parametrize("coherence", [True, False])
def test_the_compiled_trainer_learns_exactly_as_the_plain_definition(coherence: bool) -> None:
    games, seed, alpha = 6, 21, (1.0 if coherence else 0.05)
    config = TrainingConfig(
        tuples=TINY_TUPLES, seed=seed, alpha=alpha, temporal_coherence=coherence, workers=1
    )
    trainer = Trainer(config)
    while not trainer.done(games):
        trainer.run_round(games)
    trainer.close()
    plain = PlainLearner(TINY_TUPLES, alpha, coherence)
    base_key = seed_key(np.uint64(seed))
    played = [plain.play(seed_key(draw(base_key, np.uint64(g)))) for g in range(games)]
    assert [(r.score, r.moves) for r in trainer.stats.recent] == played
    assert np.count_nonzero(plain.weights) > 100
    np.testing.assert_allclose(trainer.network.weights, plain.weights, rtol=1e-5, atol=1e-3)
    if coherence:
        np.testing.assert_allclose(trainer.coherence_abs, plain.error_abs, rtol=1e-5, atol=1e-3)
