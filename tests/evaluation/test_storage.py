from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from py2048.evaluation.storage import (
    QUANTISED_LIMIT,
    WeightsError,
    load_int16_weights,
    quantise,
)
from py2048.learn.checkpoint import save_checkpoint
from py2048.learn.network import NTupleNetwork, load_weights, save_weights
from py2048.learn.training import Trainer, TrainingConfig
from tests.networks import SMALL_TUPLES, random_network


def sparse_network() -> NTupleNetwork:
    """Weights as training leaves them: mostly zero, the rest of any size and sign."""
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    rng = np.random.default_rng(3)
    chosen = rng.choice(network.weights.size, 5000, replace=False)
    network.weights[chosen] = rng.normal(0, 2000, chosen.size)
    return network


def test_unquantised_weights_round_trip_exactly(tmp_path: Path) -> None:
    network = sparse_network()
    save_weights(network, tmp_path / "w.npz", quantize=False)
    loaded = load_weights(tmp_path / "w.npz")
    assert loaded.tuples == network.tuples
    assert np.array_equal(loaded.weights, network.weights)


@pytest.mark.parametrize("quantize", [True, False])
def test_the_solver_reads_a_file_as_the_int16_steps_of_its_network(
    tmp_path: Path, quantize: bool
) -> None:
    network = sparse_network().split_stages((256,))
    network.weights.reshape(2, -1)[1, :50] += 500.0
    save_weights(network, tmp_path / "w.npz", quantize=quantize)
    read = load_int16_weights(tmp_path / "w.npz")
    scale, entries = quantise(load_weights(tmp_path / "w.npz").weights)
    assert (read.tuples, read.stage_tiles) == (network.tuples, (256,))
    assert np.array_equal(read.entries, entries)
    assert read.scale == pytest.approx(scale, rel=1e-6)


def test_quantised_weights_stay_within_half_a_step(tmp_path: Path) -> None:
    network = sparse_network()
    save_weights(network, tmp_path / "w.npz")
    loaded = load_weights(tmp_path / "w.npz")
    step = np.abs(network.weights).max() / QUANTISED_LIMIT
    rounding = np.spacing(np.abs(network.weights))
    assert np.all(np.abs(loaded.weights - network.weights) <= step / 2 + rounding)
    assert np.array_equal(loaded.weights == 0, network.weights == 0)


def test_quantised_files_store_15_bit_values(tmp_path: Path) -> None:
    network = sparse_network()
    network.weights[7] = -3 * np.abs(network.weights).max()  # the largest magnitude, negative
    save_weights(network, tmp_path / "w.npz")
    entries = load_int16_weights(tmp_path / "w.npz").entries
    assert entries.min() == -QUANTISED_LIMIT == -16383
    assert np.abs(entries).max() == QUANTISED_LIMIT


def test_an_untrained_network_round_trips(tmp_path: Path) -> None:
    save_weights(NTupleNetwork.zeros(SMALL_TUPLES), tmp_path / "w.npz")
    assert not load_weights(tmp_path / "w.npz").weights.any()


def expect_error(path: Path, problem: str) -> None:
    with pytest.raises(WeightsError, match=problem) as caught:
        load_weights(path)
    assert isinstance(caught.value, ValueError)
    assert str(path) in str(caught.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    expect_error(tmp_path / "absent.npz", "no such file")


def test_a_truncated_file_is_reported(tmp_path: Path) -> None:
    save_weights(sparse_network(), tmp_path / "w.npz")
    data = (tmp_path / "w.npz").read_bytes()
    (tmp_path / "w.npz").write_bytes(data[: len(data) // 2])
    expect_error(tmp_path / "w.npz", "truncated or damaged")


def test_a_file_that_is_not_an_archive_is_reported(tmp_path: Path) -> None:
    (tmp_path / "w.npz").write_text("hello")
    expect_error(tmp_path / "w.npz", "not an .npz archive")


def test_an_empty_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "w.npz").write_bytes(b"")
    expect_error(tmp_path / "w.npz", "is empty")


def test_a_foreign_archive_is_reported(tmp_path: Path) -> None:
    np.savez(tmp_path / "w.npz", weights=np.zeros(3))
    expect_error(tmp_path / "w.npz", "not a py2048-ntuple-weights file")


def test_a_checkpoint_is_not_a_weights_file(tmp_path: Path) -> None:
    trainer = Trainer(TrainingConfig(tuples=SMALL_TUPLES))
    save_checkpoint(trainer, tmp_path / "c.npz")
    expect_error(tmp_path / "c.npz", "'py2048-ntuple-checkpoint' file, not a")


def test_a_file_from_a_newer_format_is_reported(tmp_path: Path) -> None:
    np.savez(tmp_path / "w.npz", format=np.array("py2048-ntuple-weights"), version=np.array(99))
    expect_error(tmp_path / "w.npz", "version 99")


def test_entries_that_do_not_fit_the_tuples_are_reported(tmp_path: Path) -> None:
    save_weights(sparse_network(), tmp_path / "w.npz")
    with np.load(tmp_path / "w.npz") as archive:
        entries = dict(archive)
    entries["tuples"] = np.array("0,1,2")
    np.savez(tmp_path / "w.npz", **entries)
    expect_error(tmp_path / "w.npz", "but its tuples and stages need")


def optimistic_network() -> NTupleNetwork:
    """Weights as an optimistic run leaves them: most entries still at the starting value."""
    network = NTupleNetwork.optimistic(320000.0, SMALL_TUPLES, ())
    rng = np.random.default_rng(5)
    chosen = rng.choice(network.weights.size, 5000, replace=False)
    network.weights[chosen] = rng.normal(3000, 2000, chosen.size)
    network.weights[chosen[:100]] = 0.0  # trained down to exactly 0: stored, not a fill
    return network


@pytest.mark.parametrize("quantize", [True, False])
def test_an_optimistic_network_stores_only_what_left_its_starting_value(
    tmp_path: Path, quantize: bool
) -> None:
    network = optimistic_network()
    save_weights(network, tmp_path / "w.npz", quantize=quantize)
    loaded = load_weights(tmp_path / "w.npz")
    scale, entries = quantise(network.weights)
    if quantize:
        assert np.array_equal(loaded.weights, (entries * np.float64(scale)).astype(np.float32))
    else:
        assert np.array_equal(loaded.weights, network.weights)
    assert np.array_equal(load_int16_weights(tmp_path / "w.npz").entries, entries)
    with np.load(tmp_path / "w.npz") as archive:
        assert int(archive["version"]) == 3
        assert archive["value_planes"].shape[1] == 5000  # the starting value is the fill


@pytest.mark.parametrize("network", [sparse_network(), random_network()], ids=["sparse", "dense"])
def test_a_network_without_a_common_value_keeps_the_older_format(
    tmp_path: Path, network: NTupleNetwork
) -> None:
    save_weights(network, tmp_path / "w.npz")
    with np.load(tmp_path / "w.npz") as archive:
        assert int(archive["version"]) == 2
        assert "fill" not in archive.files


def test_a_damaged_fill_is_reported(tmp_path: Path) -> None:
    save_weights(optimistic_network(), tmp_path / "w.npz")
    with np.load(tmp_path / "w.npz") as archive:
        entries = dict(archive)
    entries["fill"] = np.array([1, 2], dtype=np.int16)
    np.savez(tmp_path / "w.npz", **entries)
    expect_error(tmp_path / "w.npz", "its fill is not one value")
