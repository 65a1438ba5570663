from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from py2048.learn.checkpoint import load_checkpoint, save_checkpoint
from py2048.learn.network import NTupleNetwork
from py2048.learn.play import play_greedy
from py2048.learn.training import Trainer, TrainingConfig
from tests.learn.conftest import SMALL_TUPLES


def mean_score(network: NTupleNetwork) -> float:
    return float(np.mean([game.score for game in play_greedy(network, 100, seed=99)]))


def train(config: TrainingConfig, games: int, network: NTupleNetwork | None = None) -> Trainer:
    trainer = Trainer(config, network)
    while not trainer.done(games):
        trainer.run_round(games)
    trainer.close()
    return trainer


@pytest.mark.parametrize("workers", [1, 2])
def test_a_few_hundred_games_beat_the_random_initialisation(
    random_network: NTupleNetwork, workers: int
) -> None:
    before = mean_score(random_network)
    config = TrainingConfig(tuples=SMALL_TUPLES, seed=5, workers=workers, segment_moves=500)
    trained = train(config, 300, random_network).network
    assert mean_score(trained) > 2 * before


@pytest.mark.parametrize("workers", [1, 3])
def test_training_is_deterministic_for_a_seed_and_worker_count(workers: int) -> None:
    config = TrainingConfig(tuples=SMALL_TUPLES, seed=11, workers=workers, segment_moves=300)
    first, second = train(config, 60, None), train(config, 60, None)
    assert np.array_equal(first.network.weights, second.network.weights)
    assert [r.score for r in first.stats.recent] == [r.score for r in second.stats.recent]
    other = train(TrainingConfig(tuples=SMALL_TUPLES, seed=12, workers=workers), 60, None)
    assert not np.array_equal(first.network.weights, other.network.weights)


def test_every_game_is_played_once_in_order_of_its_number() -> None:
    trainer = train(TrainingConfig(tuples=SMALL_TUPLES, workers=3, segment_moves=200), 40)
    assert sorted(r.game for r in trainer.stats.recent) == list(range(40))
    assert trainer.games_finished == 40
    assert trainer.moves_played == sum(r.moves for r in trainer.stats.recent)


@pytest.mark.parametrize(("workers", "step_size"), [(1, True), (2, True), (2, False)])
def test_a_resumed_run_ends_exactly_like_an_uninterrupted_one(
    tmp_path: Path, workers: int, step_size: bool
) -> None:
    config = TrainingConfig(
        tuples=SMALL_TUPLES, seed=3, workers=workers, segment_moves=250,
        temporal_coherence=step_size,
    )  # fmt: skip
    straight = train(config, 80)
    halfway = Trainer(config)
    while halfway.games_finished < 40:
        halfway.run_round(80)
    save_checkpoint(halfway, tmp_path / "run.npz")
    halfway.close()
    resumed = load_checkpoint(tmp_path / "run.npz")
    while not resumed.done(80):
        resumed.run_round(80)
    resumed.close()
    assert resumed.config == config
    assert np.array_equal(resumed.network.weights, straight.network.weights)
    assert np.array_equal(resumed.coherence_sum, straight.coherence_sum)
    assert list(resumed.stats.recent) == list(straight.stats.recent)
    assert resumed.moves_played == straight.moves_played


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("alpha", 0.0, "alpha"),
        ("alpha", 1.5, "alpha"),
        ("workers", 0, "workers"),
        ("seed", -1, "seed"),
        ("segment_moves", 0, "segment_moves"),
    ],
)
def test_bad_settings_are_rejected(field: str, value: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainingConfig(tuples=SMALL_TUPLES, **{field: value})


def test_a_network_must_match_the_configured_tuples() -> None:
    with pytest.raises(ValueError, match="tuples"):
        Trainer(TrainingConfig(tuples=SMALL_TUPLES), NTupleNetwork.zeros(((0, 1, 2),)))
