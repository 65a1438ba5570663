"""Networks with stages: one set of tables per range of the board's largest tile."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack
from py2048.evaluation.storage import FORMAT_VERSION, QUANTISED_LIMIT
from py2048.learn.checkpoint import load_checkpoint, save_checkpoint
from py2048.learn.command import train
from py2048.learn.network import NTupleNetwork, load_weights, network_evaluator, save_weights
from py2048.learn.training import Trainer, TrainingConfig
from tests.learn.test_command import arguments
from tests.networks import SMALL_TUPLES, whole_weights

tiles = st.sampled_from([0, 0, 0, 2, 4, 8, 16, 64, 256, 1024, 4096, 16384, 32768, 65536, 131072])


def can_exist(board: list[list[int]]) -> bool:
    try:
        pack(board)
    except ValueError:
        return False
    return True


boards = st.lists(st.lists(tiles, min_size=4, max_size=4), min_size=4, max_size=4).filter(can_exist)


def random_weights(network: NTupleNetwork, seed: int = 5) -> NTupleNetwork:
    network.weights[:] = np.random.default_rng(seed).normal(0, 100, network.weights.size)
    return network


def stage_of(board: list[list[int]], stage_tiles: tuple[int, ...]) -> int:
    return sum(max(max(row) for row in board) >= tile for tile in stage_tiles)


@settings(max_examples=150, deadline=None)
@given(board=boards)
def test_a_board_is_valued_by_the_tables_of_its_largest_tiles_stage(board: list[list[int]]) -> None:
    stage_tiles = (1024, 16384)
    staged = random_weights(NTupleNetwork.zeros(SMALL_TUPLES, stage_tiles))
    per_stage = staged.weights.reshape(3, -1)
    stage = stage_of(board, stage_tiles)
    alone = NTupleNetwork(SMALL_TUPLES, per_stage[stage].copy())
    assert staged.value(board) == alone.value(board)


@settings(max_examples=100, deadline=None)
@given(board=boards)
def test_splitting_a_stage_changes_no_value(board: list[list[int]]) -> None:
    network = random_weights(NTupleNetwork.zeros(SMALL_TUPLES, (2048,)))
    split = network.split_stages((256, 2048, 32768))
    assert split.stage_tiles == (256, 2048, 32768)
    assert split.value(board) == network.value(board)


def test_stages_can_be_added_but_never_removed() -> None:
    network = NTupleNetwork.zeros(SMALL_TUPLES, (2048, 16384))
    with pytest.raises(ValueError, match="only be added; 16384 would be lost"):
        network.split_stages((2048,))


@pytest.mark.parametrize("tile", [3, 2, 100, 262144])
def test_a_stage_tile_must_be_a_tile(tile: int) -> None:
    with pytest.raises(ValueError, match="powers of two from 4 to 131072"):
        NTupleNetwork.zeros(SMALL_TUPLES, (tile,))


def test_the_solver_evaluation_reads_the_right_stage() -> None:
    network = whole_weights(NTupleNetwork.zeros(SMALL_TUPLES, (16384,)))
    evaluator = network_evaluator(network)
    for board in ([[16384, 2, 0, 0]] + [[0] * 4] * 3, [[8192, 2, 0, 0]] + [[0] * 4] * 3):
        assert evaluator(*pack(board)) == max(network.value(board), 0.0)


def test_staged_weights_round_trip_through_a_file(tmp_path: Path) -> None:
    network = random_weights(NTupleNetwork.zeros(SMALL_TUPLES, (8192, 32768)))
    save_weights(network, tmp_path / "w.npz", quantize=False)
    loaded = load_weights(tmp_path / "w.npz")
    assert loaded.stage_tiles == (8192, 32768)
    assert np.array_equal(loaded.weights, network.weights)


def test_quantised_stages_stay_within_half_a_step(tmp_path: Path) -> None:
    network = random_weights(NTupleNetwork.zeros(SMALL_TUPLES, (2048,))).split_stages((2048, 8192))
    network.weights.reshape(3, -1)[2, :100] += 1000.0
    save_weights(network, tmp_path / "w.npz")
    loaded = load_weights(tmp_path / "w.npz")
    step = np.abs(network.weights).max() / QUANTISED_LIMIT
    assert np.all(np.abs(loaded.weights - network.weights) <= step / 2 + 1e-3)
    _, second, third = loaded.weights.reshape(3, -1)
    assert np.array_equal(second[100:], third[100:])
    assert np.all(second[:100] != third[:100])


def test_a_split_network_costs_little_more_file_than_its_first_stage(tmp_path: Path) -> None:
    network = random_weights(NTupleNetwork.zeros(SMALL_TUPLES))
    save_weights(network, tmp_path / "one.npz", quantize=False)
    split = network.split_stages((4096, 16384))
    split.weights.reshape(3, -1)[2, :50] = 7.0
    save_weights(split, tmp_path / "three.npz", quantize=False)
    one, three = ((tmp_path / name).stat().st_size for name in ("one.npz", "three.npz"))
    assert three < one * 1.05
    assert np.array_equal(load_weights(tmp_path / "three.npz").weights, split.weights)


def test_a_file_written_before_stages_loads_as_one_stage(tmp_path: Path) -> None:
    network = random_weights(NTupleNetwork.zeros(SMALL_TUPLES))
    save_weights(network, tmp_path / "w.npz", quantize=False)
    with np.load(tmp_path / "w.npz") as archive:
        entries = {name: archive[name] for name in archive.files if name != "stage_tiles"}
    entries["version"] = np.array(1)
    entries["nonzero"] = entries.pop("stored")
    np.savez_compressed(tmp_path / "w.npz", **entries)
    loaded = load_weights(tmp_path / "w.npz")
    assert FORMAT_VERSION > 1
    assert loaded.stage_tiles == ()
    assert np.array_equal(loaded.weights, network.weights)


def test_training_never_touches_a_stage_no_game_reached() -> None:
    trainer = Trainer(TrainingConfig(tuples=SMALL_TUPLES, stage_tiles=(128, 65536), seed=3))
    while not trainer.done(30):
        trainer.run_round(30)
    early, middle, late = trainer.network.weights.reshape(3, -1)
    assert early.any() and middle.any()
    assert not late.any()


def test_a_resumed_run_may_add_a_stage_that_starts_as_a_copy(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=30))
    before = load_checkpoint(checkpoint)
    board = [[256, 128, 4, 2], [64, 8, 2, 0], [4, 2, 0, 0], [2, 0, 0, 0]]
    trainer = load_checkpoint(checkpoint)
    trainer.split_stages((128,))
    assert trainer.network.value(board) == before.network.value(board)
    assert np.array_equal(trainer.coherence_abs.reshape(2, -1)[1], before.coherence_abs)

    resumed = arguments(checkpoint, games=60, resume=True, tuples=None, stage_tiles="128")
    assert train(resumed) == 0
    saved = load_checkpoint(checkpoint)
    assert saved.config.stage_tiles == (128,)
    assert saved.games_finished == 60
    save_checkpoint(saved, checkpoint)
    assert load_checkpoint(checkpoint).network.stage_tiles == (128,)


def test_a_resumed_run_cannot_drop_a_stage(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=10, stage_tiles="256"))
    with pytest.raises(ValueError, match="256 would be lost"):
        train(arguments(checkpoint, games=20, resume=True, tuples=None, stage_tiles="512"))
    assert load_checkpoint(checkpoint).config.stage_tiles == (256,)


@pytest.mark.parametrize(
    ("stage_tiles", "message"), [("16384,x", "--stage-tiles"), ("100", "powers of two")]
)
def test_bad_stage_tiles_are_rejected(tmp_path: Path, stage_tiles: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        train(arguments(tmp_path / "run.npz", stage_tiles=stage_tiles))
    assert not (tmp_path / "run.npz").exists()
