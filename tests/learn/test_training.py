from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from py2048.engine.board import unpack
from py2048.learn.checkpoint import load_checkpoint, save_checkpoint
from py2048.learn.network import NTupleNetwork
from py2048.learn.play import play_greedy
from py2048.learn.training import (
    DEFAULT_SEGMENT_MOVES,
    LOCK_FREE_SEGMENT,
    RESTART_POOL_SIZE,
    GameResult,
    Trainer,
    TrainingConfig,
    with_workers,
)
from tests.networks import SMALL_TUPLES


def mean_score(network: NTupleNetwork) -> float:
    return float(np.mean([game.score for game in play_greedy(network, 100, seed=99)]))


def train(config: TrainingConfig, games: int, network: NTupleNetwork | None = None) -> Trainer:
    trainer = Trainer(config, network)
    while not trainer.done(games):
        trainer.run_round(games)
    trainer.close()
    return trainer


def save_halfway(config: TrainingConfig, games: int, path: Path) -> None:
    """Train a run of ``games`` games until half are played, and checkpoint it there."""
    halfway = Trainer(config)
    while halfway.games_finished < games // 2:
        halfway.run_round(games)
    save_checkpoint(halfway, path)
    halfway.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_few_hundred_games_beat_the_random_initialisation(
    random_network: NTupleNetwork, workers: int
) -> None:
    before = mean_score(random_network)
    config = TrainingConfig(tuples=SMALL_TUPLES, seed=5, workers=workers, segment_moves=500)
    trained = train(config, 300, random_network).network
    assert mean_score(trained) > 2 * before


def test_lock_free_workers_play_every_game_once_and_learn(random_network: NTupleNetwork) -> None:
    before = mean_score(random_network)
    config = TrainingConfig(
        tuples=SMALL_TUPLES, seed=5, workers=2, segment_moves=500, lock_free=True
    )
    trainer = train(config, 300, random_network)
    assert sorted(r.game for r in trainer.stats.recent) == list(range(300))
    assert trainer.moves_played == sum(r.moves for r in trainer.stats.recent)
    assert mean_score(trainer.network) > 2 * before


@pytest.mark.parametrize(("workers", "restart_share"), [(1, 0.0), (3, 0.0), (1, 0.5), (3, 0.5)])
def test_training_is_deterministic_for_a_seed_and_worker_count(
    workers: int, restart_share: float
) -> None:
    config = TrainingConfig(
        tuples=SMALL_TUPLES, seed=11, workers=workers, segment_moves=300,
        restart_tiles=(64, 128) if restart_share else (), restart_share=restart_share,
    )  # fmt: skip
    first, second = train(config, 60, None), train(config, 60, None)
    assert np.array_equal(first.network.weights, second.network.weights)
    assert [r.score for r in first.stats.recent] == [r.score for r in second.stats.recent]
    other = train(dataclasses.replace(config, seed=12), 60, None)
    assert not np.array_equal(first.network.weights, other.network.weights)


def test_restarted_games_begin_from_boards_where_an_earlier_game_first_made_a_restart_tile(
    random_network: NTupleNetwork,
) -> None:
    config = TrainingConfig(
        tuples=SMALL_TUPLES, seed=4, segment_moves=500, restart_tiles=(128,), restart_share=0.5
    )
    trainer = Trainer(config, random_network)
    results: list[GameResult] = []
    while not trainer.done(300):
        finished = trainer.run_round(300)
        results += finished
        for board in trainer.restart_boards[: min(trainer.restarts_found, RESTART_POOL_SIZE)]:
            lo, hi = (int(word) for word in board)
            assert max(max(row) for row in unpack(lo, hi)) == 128  # the tile first made
    trainer.close()
    restarted = [r for r in results if r.restarted]
    fresh = [r for r in results if not r.restarted]
    assert 0.25 < len(restarted) / len(results) < 0.75
    assert all(r.max_exponent >= 7 for r in restarted)  # they begin with a 128 on the board
    assert min(r.max_exponent for r in fresh) < 7
    assert list(trainer.stats.recent) == fresh[-len(trainer.stats.recent) :]


def test_without_restarts_no_game_is_restarted_and_the_pool_stays_empty() -> None:
    trainer = train(TrainingConfig(tuples=SMALL_TUPLES, seed=4, segment_moves=500), 50)
    assert trainer.restarts_found == 0
    assert len(trainer.stats.recent) == 50


def test_every_game_is_played_once_in_order_of_its_number() -> None:
    trainer = train(TrainingConfig(tuples=SMALL_TUPLES, workers=3, segment_moves=200), 40)
    assert sorted(r.game for r in trainer.stats.recent) == list(range(40))
    assert trainer.games_finished == 40
    assert trainer.moves_played == sum(r.moves for r in trainer.stats.recent)


@pytest.mark.parametrize(
    ("workers", "step_size", "restart_share"),
    [(1, True, 0.0), (2, True, 0.0), (2, False, 0.0), (1, True, 0.5), (2, True, 0.5)],
)
def test_a_resumed_run_ends_exactly_like_an_uninterrupted_one(
    tmp_path: Path, workers: int, step_size: bool, restart_share: float
) -> None:
    config = TrainingConfig(
        tuples=SMALL_TUPLES, seed=3, workers=workers, segment_moves=250,
        temporal_coherence=step_size, restart_tiles=(64,) if restart_share else (),
        restart_share=restart_share,
    )  # fmt: skip
    straight = train(config, 80)
    save_halfway(config, 80, tmp_path / "run.npz")
    resumed = load_checkpoint(tmp_path / "run.npz")
    while not resumed.done(80):
        resumed.run_round(80)
    resumed.close()
    assert resumed.config == config
    assert np.array_equal(resumed.network.weights, straight.network.weights)
    assert np.array_equal(resumed.coherence_sum, straight.coherence_sum)
    assert list(resumed.stats.recent) == list(straight.stats.recent)
    assert resumed.moves_played == straight.moves_played
    assert resumed.restarts_found == straight.restarts_found
    assert np.array_equal(resumed.restart_boards, straight.restart_boards)


@pytest.mark.parametrize(("before", "after"), [((1, False), (2, True)), ((3, False), (2, False))])
def test_a_run_can_go_on_with_other_workers(
    tmp_path: Path, before: tuple[int, bool], after: tuple[int, bool]
) -> None:
    config = TrainingConfig(
        tuples=SMALL_TUPLES, seed=3, workers=before[0], lock_free=before[1],
        restart_tiles=(64,), restart_share=0.5,
    )  # fmt: skip
    save_halfway(config, 80, tmp_path / "run.npz")
    halfway = load_checkpoint(tmp_path / "run.npz")
    finished = halfway.games_finished
    reached = int(halfway.counters[:, 0].max())  # each worker's game in progress or next
    weights, sums = halfway.network.weights.copy(), halfway.coherence_sum.copy()
    moved = with_workers(halfway, *after)
    assert (moved.config.workers, moved.config.lock_free) == after
    fresh = TrainingConfig(tuples=SMALL_TUPLES, workers=after[0], lock_free=after[1])
    assert moved.config.segment_moves == fresh.segment_moves  # the new mode's round length
    assert np.array_equal(moved.network.weights, weights)
    assert np.array_equal(moved.coherence_sum, sums)
    assert moved.restarts_found == halfway.restarts_found > 0
    save_checkpoint(moved, tmp_path / "moved.npz")  # the offset survives a checkpoint
    moved.close()
    moved = load_checkpoint(tmp_path / "moved.npz")
    later: list[GameResult] = []
    while not moved.done(80):
        later += moved.run_round(80)
    moved.close()
    assert moved.games_finished == 80 == finished + len(later)
    numbers = [r.game for r in later]
    assert len(set(numbers)) == len(numbers)
    assert min(numbers) > reached  # no game's spawns are played twice
    assert not np.array_equal(moved.network.weights, weights)


def test_a_checkpoint_from_before_restarts_resumes_as_a_run_without_them(tmp_path: Path) -> None:
    config = TrainingConfig(tuples=SMALL_TUPLES, seed=3, segment_moves=250)
    straight = train(config, 60)
    save_halfway(config, 60, tmp_path / "new.npz")
    with np.load(tmp_path / "new.npz") as archive:
        old = {name: archive[name] for name in archive.files if "restart" not in name}
    old["counters"] = old["counters"][:, :6]  # no RESTARTED column yet
    old["recent"] = old["recent"][:, :4]
    np.savez(tmp_path / "old.npz", **old)
    resumed = load_checkpoint(tmp_path / "old.npz")
    while not resumed.done(60):
        resumed.run_round(60)
    resumed.close()
    assert resumed.config == config
    assert np.array_equal(resumed.network.weights, straight.network.weights)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("alpha", 0.0, "alpha"),
        ("alpha", 1.5, "alpha"),
        ("workers", 0, "workers"),
        ("seed", -1, "seed"),
        ("segment_moves", -1, "segment_moves"),
        ("restart_tiles", (4,), "powers of two"),
        ("restart_tiles", (3000,), "powers of two"),
        ("restart_tiles", (131072,), "powers of two"),
        ("restart_share", 1.0, "restart_share"),
        ("restart_share", -0.1, "restart_share"),
        ("restart_share", 0.5, "needs restart_tiles"),
    ],
)
def test_bad_settings_are_rejected(field: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainingConfig(tuples=SMALL_TUPLES, **{field: value})


@pytest.mark.parametrize(
    ("workers", "lock_free", "expected"),
    [
        (1, False, LOCK_FREE_SEGMENT),
        (2, True, LOCK_FREE_SEGMENT),
        (2, False, DEFAULT_SEGMENT_MOVES),
    ],
)
def test_rounds_are_long_where_every_worker_learns_at_once(
    workers: int, lock_free: bool, expected: int
) -> None:
    config = TrainingConfig(tuples=SMALL_TUPLES, workers=workers, lock_free=lock_free)
    assert config.segment_moves == expected
    assert TrainingConfig(tuples=SMALL_TUPLES, segment_moves=7).segment_moves == 7


def test_a_network_must_match_the_configured_tuples() -> None:
    with pytest.raises(ValueError, match="tuples"):
        Trainer(TrainingConfig(tuples=SMALL_TUPLES), NTupleNetwork.zeros(((0, 1, 2),)))
