"""Saving and resuming training runs exactly.

A checkpoint holds the whole state of a :class:`~py2048.learn.training.Trainer` between two
rounds, so a run that is stopped, saved and resumed ends with the very same weights as a run
that never stopped.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from py2048.evaluation.storage import FORMAT_VERSION, WeightsError, read_archive, read_stage_tiles
from py2048.evaluation.tuples import format_tuples, parse_tuples
from py2048.files import atomic_write
from py2048.learn.network import NTupleNetwork
from py2048.learn.training import GameResult, RollingStats, Trainer, TrainingConfig

CHECKPOINT_FORMAT = "py2048-ntuple-checkpoint"


def save_checkpoint(trainer: Trainer, path: str | os.PathLike[str]) -> None:
    """Write the trainer's full state to ``path`` atomically."""
    config = trainer.config
    recent = np.array(
        [[r.game, r.score, r.max_exponent, r.moves, r.restarted] for r in trainer.stats.recent],
        dtype=np.int64,
    ).reshape(-1, 5)
    with atomic_write(path) as handle:
        np.savez(
            handle,
            format=np.array(CHECKPOINT_FORMAT),
            version=np.array(FORMAT_VERSION),
            tuples=np.array(format_tuples(config.tuples)),
            stage_tiles=np.array(config.stage_tiles, dtype=np.int64),
            alpha=np.array(config.alpha),
            temporal_coherence=np.array(config.temporal_coherence),
            seed=np.array(config.seed, dtype=np.int64),
            workers=np.array(config.workers, dtype=np.int64),
            segment_moves=np.array(config.segment_moves, dtype=np.int64),
            restart_tiles=np.array(config.restart_tiles, dtype=np.int64),
            restart_share=np.array(config.restart_share),
            lock_free=np.array(config.lock_free),
            restart_boards=trainer.restart_boards,
            restarts_found=np.array(trainer.restarts_found, dtype=np.int64),
            weights=trainer.network.weights,
            coherence_sum=trainer.coherence_sum,
            coherence_abs=trainer.coherence_abs,
            boards=trainer.boards,
            counters=trainer.counters,
            games_finished=np.array(trainer.games_finished, dtype=np.int64),
            game_offset=np.array(trainer.game_offset, dtype=np.int64),
            moves_played=np.array(trainer.moves_played, dtype=np.int64),
            elapsed_seconds=np.array(trainer.elapsed_seconds),
            recent=recent,
        )


def load_checkpoint(path: str | os.PathLike[str]) -> Trainer:
    """Rebuild the trainer saved in ``path``; raises WeightsError if the file is unusable.

    Checkpoints written before restarts existed load as runs without restarts, and those
    written before stages existed as runs of one stage.
    """

    def read(archive: Any) -> Trainer:
        has_restarts = "restart_boards" in archive.files
        config, network = _config_and_network(path, archive)
        trainer = Trainer(config, network)
        names = ["coherence_sum", "coherence_abs", "boards", "counters"]
        if has_restarts:
            names.append("restart_boards")
            trainer.restarts_found = int(archive["restarts_found"])
        for name in names:
            stored = archive[name]
            current = getattr(trainer, name)
            if name == "counters" and not has_restarts:
                current = current[:, : stored.shape[-1]]  # no game in progress was restarted
            if stored.dtype != current.dtype or stored.shape != current.shape:
                raise WeightsError(path, f"is damaged: {name} has the wrong type or shape")
            current[...] = stored
        trainer.games_finished = int(archive["games_finished"])
        if "game_offset" in archive.files:  # written since runs could change their workers
            trainer.game_offset = int(archive["game_offset"])
        trainer.moves_played = int(archive["moves_played"])
        trainer.elapsed_seconds = float(archive["elapsed_seconds"])
        trainer.stats = RollingStats(
            results=[GameResult.from_row(row) for row in archive["recent"]]
        )
        return trainer

    return read_archive(path, CHECKPOINT_FORMAT, read)


def load_checkpoint_network(path: str | os.PathLike[str]) -> tuple[NTupleNetwork, int]:
    """The network saved in a checkpoint and the games it had finished, read without the rest
    of the run (no coherence sums, no learning table): what ``2048 train export`` writes out.
    Raises WeightsError as :func:`load_checkpoint` does."""

    def read(archive: Any) -> tuple[NTupleNetwork, int]:
        _, network = _config_and_network(path, archive)
        return network, int(archive["games_finished"])

    return read_archive(path, CHECKPOINT_FORMAT, read)


def _config_and_network(
    path: str | os.PathLike[str], archive: Any
) -> tuple[TrainingConfig, NTupleNetwork]:
    """The run's settings and its network, read from a checkpoint archive and checked."""
    has_restarts = "restart_boards" in archive.files
    try:
        config = TrainingConfig(
            tuples=parse_tuples(str(archive["tuples"])),
            stage_tiles=read_stage_tiles(archive),
            alpha=float(archive["alpha"]),
            temporal_coherence=bool(archive["temporal_coherence"]),
            seed=int(archive["seed"]),
            workers=int(archive["workers"]),
            segment_moves=int(archive["segment_moves"]),
            restart_tiles=(tuple(int(t) for t in archive["restart_tiles"]) if has_restarts else ()),
            restart_share=float(archive["restart_share"]) if has_restarts else 0.0,
            lock_free="lock_free" in archive.files and bool(archive["lock_free"]),
        )
        return config, NTupleNetwork(config.tuples, archive["weights"], config.stage_tiles)
    except ValueError as exc:
        raise WeightsError(path, f"is damaged: {exc}") from None
