"""``2048 train``: train an n-tuple network from scratch or resume a checkpoint, with progress."""

from __future__ import annotations

import argparse
import dataclasses
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from py2048.learn.checkpoint import load_checkpoint, save_checkpoint
from py2048.learn.storage import save_weights
from py2048.learn.training import RESTART_POOL_SIZE, Trainer, TrainingConfig
from py2048.learn.tuples import DEFAULT_SPEC, parse_tuples

DEFAULT_CHECKPOINT = "ntuple-checkpoint.npz"
DEFAULT_CHECKPOINT_MINUTES = 10.0
LOG_SECONDS = 60.0
"""How often a run whose output is not a terminal (a log file) prints a progress line."""


def train_command(args: argparse.Namespace) -> int:
    """Run ``2048 train``; returns the exit status (130 when stopped by Ctrl-C, after saving)."""
    console = Console(stderr=True)
    if args.games < 1:
        raise ValueError(f"--games must be 1 or more, got {args.games}")
    if not args.checkpoint_minutes > 0:
        raise ValueError(f"--checkpoint-minutes must be above 0, got {args.checkpoint_minutes}")
    checkpoint = Path(args.checkpoint or DEFAULT_CHECKPOINT)
    if checkpoint.is_dir():
        raise ValueError(f"--checkpoint {checkpoint} is a folder; give a file name")
    trainer = _resume(args, checkpoint) if args.resume else _fresh(args, checkpoint)
    try:
        stopped = _train(trainer, args.games, checkpoint, args.checkpoint_minutes, console)
    finally:
        trainer.close()
    save_checkpoint(trainer, checkpoint)
    stats = trainer.stats
    console.print(
        f"{trainer.games_finished} games in {trainer.elapsed_seconds:.0f} s of training; last "
        f"{len(stats.recent)}: mean score {stats.mean_score:,.0f}, 2048 {stats.rate(2048):.1%}, "
        f"8192 {stats.rate(8192):.1%}, 16384 {stats.rate(16384):.1%}. "
        f"Checkpoint: {checkpoint}"
    )
    if stopped:
        console.print(f"Stopped; continue with --resume --checkpoint {checkpoint}")
        return 130
    if args.export:
        save_weights(trainer.network, args.export)
        console.print(f"Weights written to {args.export}")
    return 0


def _fresh(args: argparse.Namespace, checkpoint: Path) -> Trainer:
    if checkpoint.exists():
        raise ValueError(
            f"{checkpoint} already exists: pass --resume to continue it, or name another "
            "--checkpoint"
        )
    config = TrainingConfig(
        tuples=parse_tuples(args.tuples or DEFAULT_SPEC),
        stage_tiles=_tiles("--stage-tiles", args.stage_tiles or ""),
        alpha=1.0 if args.alpha is None else args.alpha,
        temporal_coherence=(args.step_size or "tc") == "tc",
        seed=0 if args.seed is None else args.seed,
        workers=1 if args.workers is None else args.workers,
        **_restart_settings(args),
    )
    return Trainer(config)


def _restart_settings(args: argparse.Namespace) -> dict[str, object]:
    """The restart options given on the command line (those left out are not in the dict)."""
    settings: dict[str, object] = {}
    if args.restart_tiles is not None:
        settings["restart_tiles"] = _tiles("--restart-tiles", args.restart_tiles)
    if args.restart_share is not None:
        settings["restart_share"] = args.restart_share
    return settings


def _tiles(option: str, text: str) -> tuple[int, ...]:
    try:
        return tuple(int(tile) for tile in text.split(",") if tile.strip())
    except ValueError:
        raise ValueError(
            f'{option} takes tiles separated by commas, e.g. "8192,16384"; got {text!r}'
        ) from None


def _resume(args: argparse.Namespace, checkpoint: Path) -> Trainer:
    """Load the checkpoint; the restart options may change and stages may be added (each new
    stage starting as a copy of the one it splits); every other setting is kept."""
    trainer = load_checkpoint(checkpoint)
    config = trainer.config
    requested = {
        "--tuples": (args.tuples and parse_tuples(args.tuples), config.tuples),
        "--alpha": (args.alpha, config.alpha),
        "--step-size": (args.step_size, "tc" if config.temporal_coherence else "fixed"),
        "--seed": (args.seed, config.seed),
        "--workers": (args.workers, config.workers),
    }
    for option, (asked, saved) in requested.items():
        if asked is not None and asked != saved:
            trainer.close()
            raise ValueError(
                f"{checkpoint} was trained with {option} {saved}; a resumed run keeps its "
                f"settings (leave {option} out, or start a new --checkpoint)"
            )
    try:
        trainer.config = dataclasses.replace(config, **_restart_settings(args))
        if args.stage_tiles is not None:
            stage_tiles = _tiles("--stage-tiles", args.stage_tiles)
            if set(stage_tiles) != set(config.stage_tiles):
                trainer.split_stages(stage_tiles)
    except ValueError:
        trainer.close()
        raise
    return trainer


@contextmanager
def _stop_on_interrupt() -> Iterator[threading.Event]:
    """Turn Ctrl-C into a request to stop between rounds, so the checkpoint stays whole."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def _train(
    trainer: Trainer, games: int, checkpoint: Path, checkpoint_minutes: float, console: Console
) -> bool:
    """Train until ``games`` games are played or Ctrl-C; returns True if stopped early."""
    progress = Progress(
        BarColumn(bar_width=16),
        MofNCompleteColumn(),
        TextColumn("{task.fields[summary]}"),
        TimeElapsedColumn(),
        console=console,
    )
    last_save = last_log = time.monotonic()
    with _stop_on_interrupt() as stop, progress:
        task = progress.add_task("train", total=games, completed=trainer.games_finished, summary="")
        while not trainer.done(games):
            if stop.is_set():
                return True
            started = time.monotonic()
            moves_before = trainer.moves_played
            trainer.run_round(games)
            seconds = time.monotonic() - started
            trainer.elapsed_seconds += seconds
            stats = trainer.stats
            summary = (
                f"mean {stats.mean_score:,.0f} | 2048 {stats.rate(2048):.0%} "
                f"8192 {stats.rate(8192):.0%} 16384 {stats.rate(16384):.0%} | "
                f"{(trainer.moves_played - moves_before) / max(seconds, 1e-9) / 1000:,.0f}k "
                "moves/s"
            )
            if trainer.config.restart_share > 0:
                summary += f" | restart pool {min(trainer.restarts_found, RESTART_POOL_SIZE):,}"
            progress.update(task, completed=trainer.games_finished, summary=summary)
            if not console.is_terminal and time.monotonic() - last_log >= LOG_SECONDS:
                console.print(
                    f"{trainer.games_finished}/{games} games, "
                    f"{trainer.elapsed_seconds:.0f} s: {summary}",
                    soft_wrap=True,
                )
                last_log = time.monotonic()
            if time.monotonic() - last_save >= checkpoint_minutes * 60:
                save_checkpoint(trainer, checkpoint)
                last_save = time.monotonic()
    return stop.is_set()
