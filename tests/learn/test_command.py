from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import numpy as np
import pytest

from py2048.learn import WeightsError, load_weights
from py2048.learn.checkpoint import load_checkpoint
from py2048.learn.command import TrainOptions, curve_path, train
from tests.networks import SMALL_SPEC


def arguments(checkpoint: Path, **changes: object) -> TrainOptions:
    """What ``2048 train --checkpoint PATH --tuples SMALL --games 40`` asks for, with changes."""
    values: dict[str, object] = {"games": 40, "checkpoint": str(checkpoint), "tuples": SMALL_SPEC}
    values.update(changes)
    return TrainOptions(**values)


def test_a_fresh_run_saves_a_checkpoint_and_exports_weights(tmp_path: Path) -> None:
    export = tmp_path / "weights.npz"
    assert train(arguments(tmp_path / "run.npz", export=str(export))) == 0
    trainer = load_checkpoint(tmp_path / "run.npz")
    assert trainer.games_finished == 40
    assert load_weights(export).tuples == trainer.network.tuples


def test_resuming_continues_to_the_new_total(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=20, workers=2))
    assert train(arguments(checkpoint, games=50, resume=True, tuples=None)) == 0
    trainer = load_checkpoint(checkpoint)
    assert trainer.games_finished == 50
    assert trainer.config.workers == 2


def test_a_resumed_run_may_change_its_restarts_and_keeps_them(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=20))
    resumed = arguments(
        checkpoint, games=40, resume=True, tuples=None, restart_tiles="64,128", restart_share=0.5
    )
    assert train(resumed) == 0
    assert train(arguments(checkpoint, games=60, resume=True, tuples=None)) == 0
    trainer = load_checkpoint(checkpoint)
    assert trainer.config.restart_tiles == (64, 128)
    assert trainer.config.restart_share == 0.5
    assert trainer.restarts_found > 0


def test_an_existing_checkpoint_is_never_overwritten_by_a_fresh_run(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    checkpoint.write_bytes(b"someone's work")
    with pytest.raises(ValueError, match="--resume"):
        train(arguments(checkpoint))
    assert checkpoint.read_bytes() == b"someone's work"


def test_a_resumed_run_keeps_its_settings(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=10, seed=4))
    with pytest.raises(ValueError, match="--seed 4"):
        train(arguments(checkpoint, games=20, resume=True, seed=5))


def test_resuming_a_missing_checkpoint_names_it(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match=r"absent\.npz: no such file"):
        train(arguments(tmp_path / "absent.npz", resume=True))


def test_ctrl_c_stops_between_rounds_and_saves_a_resumable_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        status = train(arguments(checkpoint, games=10**9))
    finally:
        timer.cancel()
    assert status == 130
    stopped = load_checkpoint(checkpoint)
    assert 0 < stopped.games_finished < 10**9
    goal = stopped.games_finished + 5
    assert train(arguments(checkpoint, games=goal, resume=True)) == 0
    resumed = load_checkpoint(checkpoint)
    assert resumed.games_finished == goal
    assert not np.array_equal(resumed.network.weights, stopped.network.weights)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, "--games"),
        ({"checkpoint_minutes": 0.0}, "--checkpoint-minutes"),
        ({"alpha": 2.0}, "alpha"),
        ({"tuples": "0,1,99"}, "cells are numbered"),
        ({"restart_tiles": "8192,big", "restart_share": 0.5}, "--restart-tiles"),
        ({"restart_tiles": "100", "restart_share": 0.5}, "powers of two"),
        ({"restart_share": 0.5}, "needs restart_tiles"),
        ({"restart_tiles": "64", "restart_share": 1.0}, "restart_share"),
    ],
)
def test_bad_options_are_rejected_before_training(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        train(arguments(tmp_path / "run.npz", **changes))
    assert not (tmp_path / "run.npz").exists()


def test_a_folder_is_not_a_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is a folder"):
        train(arguments(tmp_path))


def test_a_fresh_run_can_start_from_a_weights_file(tmp_path: Path) -> None:
    first = tmp_path / "first.npz"
    train(arguments(tmp_path / "a.npz", games=30, export=str(first)))
    start = load_weights(first)
    assert train(arguments(tmp_path / "b.npz", games=2, tuples=None, init=str(first))) == 0
    went_on = load_checkpoint(tmp_path / "b.npz")
    assert went_on.network.tuples == start.tuples
    assert went_on.games_finished == 2
    # two more games move few weights, and only a little: the run began from the file
    moved = np.abs(went_on.network.weights - start.weights)
    assert np.count_nonzero(start.weights) > 1000
    assert np.count_nonzero(moved > 1e-3) < np.count_nonzero(start.weights) / 4


def test_init_is_for_fresh_runs_and_brings_its_own_tuples(tmp_path: Path) -> None:
    export = tmp_path / "weights.npz"
    train(arguments(tmp_path / "run.npz", games=5, export=str(export)))
    with pytest.raises(ValueError, match="--tuples"):
        train(arguments(tmp_path / "other.npz", init=str(export)))
    with pytest.raises(ValueError, match="fresh run"):
        train(arguments(tmp_path / "run.npz", resume=True, tuples=None, init=str(export)))
    with pytest.raises(WeightsError, match=r"missing\.npz"):
        train(arguments(tmp_path / "third.npz", tuples=None, init=str(tmp_path / "missing.npz")))


def test_lock_free_is_kept_by_a_resumed_run(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    assert train(arguments(checkpoint, games=20, workers=2, lock_free=True)) == 0
    assert train(arguments(checkpoint, games=40, resume=True, tuples=None)) == 0
    trainer = load_checkpoint(checkpoint)
    assert trainer.config.lock_free
    assert trainer.games_finished == 40


def test_a_resumed_run_may_change_its_workers_and_keeps_the_change(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    assert train(arguments(checkpoint, games=20)) == 0
    assert train(arguments(checkpoint, games=40, resume=True, tuples=None, workers=2,
                           lock_free=True)) == 0  # fmt: skip
    assert train(arguments(checkpoint, games=50, resume=True, tuples=None)) == 0
    trainer = load_checkpoint(checkpoint)
    assert (trainer.config.workers, trainer.config.lock_free) == (2, True)
    assert trainer.games_finished == 50
    assert train(arguments(checkpoint, games=60, resume=True, tuples=None, lock_free=False)) == 0
    trainer = load_checkpoint(checkpoint)
    assert (trainer.config.workers, trainer.config.lock_free) == (2, False)
    assert trainer.games_finished == 60


def test_a_run_keeps_its_learning_curve_and_a_resumed_run_adds_to_it(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=10))
    train(arguments(checkpoint, games=25, resume=True, tuples=None))
    points = [json.loads(line) for line in curve_path(checkpoint).read_text().splitlines()]
    assert [p["games"] for p in points] == [10, 25]
    assert points[1]["moves"] > points[0]["moves"] > 0
    assert points[1]["recent_games"] == 25
    assert points[1]["mean_score"] > 0 and 0 <= points[1]["2048"] <= 1


def test_an_optimistic_network_values_every_board_alike() -> None:
    from py2048.learn import NTupleNetwork

    network = NTupleNetwork.optimistic(320_000.0)
    for board in (
        [[2, 4, 0, 0]] + [[0] * 4] * 3,
        [[2**k for k in range(r * 4 + 1, r * 4 + 5)] for r in range(4)],
    ):
        assert network.value(board) == pytest.approx(320_000.0, rel=1e-6)
    with pytest.raises(ValueError, match="0 or more"):
        NTupleNetwork.optimistic(-1.0)


def test_an_optimistic_run_starts_high_and_learns_down(tmp_path: Path) -> None:
    export = tmp_path / "weights.npz"
    options = arguments(tmp_path / "run.npz", optimistic=1000.0, step_size="fixed", alpha=0.1)
    assert train(dataclasses_replace(options, export=str(export))) == 0
    weights = load_weights(export).weights
    share = 1000.0 / (8 * len(load_weights(export).tuples))
    untouched = np.isclose(weights, share, rtol=1e-3)
    assert untouched.mean() > 0.5  # entries no game reached keep their start (int16: rtol)
    assert weights.min() < share / 2  # the ones play met learned that games end


def test_optimistic_is_for_fresh_runs_and_not_with_init(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=10))
    with pytest.raises(ValueError, match="--optimistic starts a fresh run"):
        train(arguments(checkpoint, resume=True, tuples=None, optimistic=5.0))
    with pytest.raises(ValueError, match="--optimistic and --init"):
        train(arguments(tmp_path / "other.npz", tuples=None, init="shipped", optimistic=5.0))


def dataclasses_replace(options: TrainOptions, **changes: object) -> TrainOptions:
    import dataclasses

    return dataclasses.replace(options, **changes)  # type: ignore[arg-type]


def test_export_writes_a_checkpoints_weights_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    from py2048.cli import main

    checkpoint = tmp_path / "run.npz"
    at_end = tmp_path / "end.npz"
    train(arguments(checkpoint, games=30, export=str(at_end)))
    saved = checkpoint.read_bytes()
    exported = tmp_path / "exported.npz"
    assert main(["train", "export", str(checkpoint), str(exported)]) == 0
    assert checkpoint.read_bytes() == saved
    ours, theirs = load_weights(exported), load_weights(at_end)
    assert ours.tuples == theirs.tuples
    assert np.array_equal(ours.weights, theirs.weights)
    assert train(arguments(checkpoint, games=40, resume=True, tuples=None)) == 0  # goes on


def test_export_refuses_a_damaged_or_missing_checkpoint_and_its_own_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from py2048.cli import main

    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(b"PK\x03\x04 not a whole archive")
    assert main(["train", "export", str(damaged), str(tmp_path / "w.npz")]) == 2
    assert "damaged.npz" in capsys.readouterr().err
    assert main(["train", "export", str(tmp_path / "absent.npz"), str(tmp_path / "w.npz")]) == 2
    assert "absent.npz: no such file" in capsys.readouterr().err
    assert not (tmp_path / "w.npz").exists()
    checkpoint = tmp_path / "run.npz"
    train(arguments(checkpoint, games=5))
    saved = checkpoint.read_bytes()
    assert main(["train", "export", str(checkpoint), str(checkpoint)]) == 2
    assert "the checkpoint itself" in capsys.readouterr().err
    assert checkpoint.read_bytes() == saved
