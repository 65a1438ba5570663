"""``2048 train``: train an n-tuple network from scratch or resume a checkpoint, with progress.

The command's flags (:func:`add_arguments`) become a :class:`TrainOptions` in :func:`run`;
:func:`train` does the rest. ``2048 train install PATH`` and ``2048 train list`` (first words
that no training flag takes) measure, install and list networks (:mod:`py2048.learn.install`);
``2048 train export CHECKPOINT PATH`` writes a checkpoint's weights file
(:func:`export_checkpoint`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from py2048.argtypes import non_negative_int, positive_int
from py2048.evaluation.ntuple import shipped_weights_path
from py2048.evaluation.tuples import DEFAULT_SPEC, parse_tuples
from py2048.learn import install
from py2048.learn.checkpoint import load_checkpoint, load_checkpoint_network, save_checkpoint
from py2048.learn.network import NTupleNetwork, load_weights, save_weights
from py2048.learn.training import RESTART_POOL_SIZE, Trainer, TrainingConfig, with_workers

if TYPE_CHECKING:
    from rich.console import Console

HELP = (
    "train an n-tuple network by TD learning (from scratch or resumed); install and list "
    "networks for the solver"
)
DEFAULT_CHECKPOINT = "ntuple-checkpoint.npz"
LOG_SECONDS = 60.0
"""How often a run whose output is not a terminal (a log file) prints a progress line, and how
often every run adds a point to its learning curve."""
CURVE_SUFFIX = ".curve.jsonl"
"""The learning curve lives beside the checkpoint: ``run.npz`` keeps ``run.npz.curve.jsonl``."""


@dataclass(frozen=True)
class TrainOptions:
    """What ``2048 train`` was asked for. None means "not given": a fresh run takes the
    default, a resumed run keeps the checkpoint's setting."""

    games: int = 100_000
    """Train until this many games in all."""
    checkpoint: str = DEFAULT_CHECKPOINT
    resume: bool = False
    seed: int | None = None
    workers: int | None = None
    tuples: str | None = None
    """Cells of each tuple, e.g. "0,1,2,3,4,5/4,5,6,7,8,9"."""
    alpha: float | None = None
    step_size: str | None = None
    """tc (temporal coherence) or fixed."""
    stage_tiles: str | None = None
    restart_tiles: str | None = None
    restart_share: float | None = None
    export: str | None = None
    """Also write the weights file here."""
    checkpoint_minutes: float = 10.0
    init: str | None = None
    """A fresh run starts from this weights file's network instead of zeros ("shipped": the
    network py2048 ships)."""
    lock_free: bool | None = None
    """Several workers learn at once on shared weights (faster, not repeatable)."""
    optimistic: float | None = None
    """A fresh run starts with every board valued at this (optimistic initialisation)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``2048 train``; :func:`run` reads them."""
    parser.add_argument(
        "--games",
        type=positive_int,
        default=TrainOptions.games,
        help="train until this many games in all (default: %(default)s)",
    )
    parser.add_argument("--seed", type=non_negative_int, help="seed of the run (default: 0)")
    parser.add_argument(
        "--workers",
        type=positive_int,
        help="training threads (default: 1); a resumed run keeps its own unless given, and "
        "gives up its games in progress when it changes",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="PATH",
        default=TrainOptions.checkpoint,
        help="checkpoint file, saved atomically (default: %(default)s)",
    )
    parser.add_argument("--resume", action="store_true", help="continue the checkpoint")
    parser.add_argument(
        "--tuples",
        help='cells of each tuple, e.g. "0,1,2,3,4,5/4,5,6,7,8,9" (cell = 4*row+col), or a '
        "shape by name: 4x6 (the default), 6x6, 8x6 (the shipped network's)",
    )
    parser.add_argument("--alpha", type=float, help="learning rate (default: 1.0 with TC)")
    parser.add_argument(
        "--step-size",
        choices=["tc", "fixed"],
        help="temporal coherence (default) or a fixed learning rate",
    )
    parser.add_argument(
        "--stage-tiles",
        metavar="TILES",
        help='split the network into stages at these largest tiles, e.g. "16384"; on --resume, '
        "new stages start as copies (default: one stage)",
    )
    parser.add_argument(
        "--restart-tiles",
        metavar="TILES",
        help='tiles whose first appearance adds the board to the restart pool, e.g. "8192,16384"',
    )
    parser.add_argument(
        "--restart-share",
        type=float,
        help="share of games started from the restart pool (default: 0, every game fresh)",
    )
    parser.add_argument(
        "--init",
        metavar="PATH",
        help='a fresh run starts from this weights file instead of zeros ("shipped": the '
        "network py2048 ships); its tuples and stages are the run's",
    )
    parser.add_argument(
        "--optimistic",
        type=float,
        metavar="VALUE",
        help="a fresh run starts with every board valued at VALUE instead of 0 (optimistic "
        "initialisation, e.g. 320000, usually with --step-size fixed --alpha 0.1)",
    )
    parser.add_argument(
        "--lock-free",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with several workers, every worker learns at once on the shared weights "
        "(about twice as fast on two cores; the weights then depend on timing); a resumed "
        "run keeps its own unless given",
    )
    parser.add_argument("--export", metavar="PATH", help="also write the weights file here")
    parser.add_argument(
        "--checkpoint-minutes",
        type=float,
        default=TrainOptions.checkpoint_minutes,
        help="minutes between checkpoints (default: %(default)s)",
    )
    commands = parser.add_subparsers(
        title="networks and checkpoints (2048 train with none of these trains)",
        metavar="{install,list,export}",
        dest="train_command",
    )
    install.add_subcommands(commands)
    export = commands.add_parser(
        "export",
        help="write the weights file of a checkpoint, also while its run goes on",
        description="Write the weights file (as --export writes it at the end of a run) of "
        "the network saved in a checkpoint, without training and without changing the "
        "checkpoint. Safe while a run is saving to it (saves replace the file whole), so a "
        "long run can be measured as it goes: export, then 2048 train install or "
        "PY2048_NTUPLE_WEIGHTS=PATH 2048 bench.",
    )
    export.add_argument("source", metavar="CHECKPOINT", help="the checkpoint (.npz)")
    export.add_argument("path", metavar="PATH", help="the weights file to write (.npz)")


def run(args: argparse.Namespace) -> int:
    """Run ``2048 train`` with the flags of :func:`add_arguments` (or its ``install``,
    ``list`` or ``export``)."""
    command = getattr(args, "train_command", None)
    if command == "export":
        return export_checkpoint(Path(args.source), Path(args.path))
    if command is not None:
        return install.run(args)
    return train(
        TrainOptions(
            games=args.games,
            checkpoint=args.checkpoint,
            resume=args.resume,
            seed=args.seed,
            workers=args.workers,
            tuples=args.tuples,
            alpha=args.alpha,
            step_size=args.step_size,
            stage_tiles=args.stage_tiles,
            restart_tiles=args.restart_tiles,
            restart_share=args.restart_share,
            export=args.export,
            checkpoint_minutes=args.checkpoint_minutes,
            init=args.init,
            lock_free=args.lock_free,
            optimistic=args.optimistic,
        )
    )


def train(options: TrainOptions) -> int:
    """Train as ``options`` say; returns the exit status (130 when stopped by Ctrl-C, after
    saving)."""
    from rich.console import Console

    console = Console(stderr=True)
    if options.games < 1:
        raise ValueError(f"--games must be 1 or more, got {options.games}")
    if not options.checkpoint_minutes > 0:
        raise ValueError(f"--checkpoint-minutes must be above 0, got {options.checkpoint_minutes}")
    checkpoint = Path(options.checkpoint)
    if checkpoint.is_dir():
        raise ValueError(f"--checkpoint {checkpoint} is a folder; give a file name")
    trainer = _resume(options, checkpoint) if options.resume else _fresh(options, checkpoint)
    try:
        stopped = _train(trainer, options.games, checkpoint, options.checkpoint_minutes, console)
        _add_curve_point(trainer, checkpoint)
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
    if options.export:
        save_weights(trainer.network, options.export)
        console.print(f"Weights written to {options.export}")
    return 0


def export_checkpoint(checkpoint: Path, path: Path) -> int:
    """``2048 train export``: write the weights file of the network in ``checkpoint``."""
    from rich.console import Console

    if path.resolve() == checkpoint.resolve():
        raise ValueError(f"{path} is the checkpoint itself; name another file to write")
    network, games = load_checkpoint_network(checkpoint)
    save_weights(network, path)
    Console(stderr=True, highlight=False).print(
        f"Weights of {checkpoint} after {games:,} games written to {path}"
    )
    return 0


def _fresh(options: TrainOptions, checkpoint: Path) -> Trainer:
    if checkpoint.exists():
        raise ValueError(
            f"{checkpoint} already exists: pass --resume to continue it, or name another "
            "--checkpoint"
        )
    network = None
    if options.optimistic is not None and options.init is not None:
        raise ValueError("--optimistic and --init are two ways to start a run: give one")
    if options.init is not None:
        if options.tuples is not None or options.stage_tiles is not None:
            raise ValueError(
                "--init takes its tuples and stages from the weights file: leave "
                "--tuples and --stage-tiles out"
            )
        network = load_weights(
            shipped_weights_path() if options.init == "shipped" else options.init
        )
    config = TrainingConfig(
        tuples=network.tuples if network else parse_tuples(options.tuples or DEFAULT_SPEC),
        stage_tiles=(
            network.stage_tiles if network else _tiles("--stage-tiles", options.stage_tiles or "")
        ),
        alpha=1.0 if options.alpha is None else options.alpha,
        temporal_coherence=(options.step_size or "tc") == "tc",
        seed=0 if options.seed is None else options.seed,
        workers=1 if options.workers is None else options.workers,
        lock_free=bool(options.lock_free),
        **_restart_settings(options),
    )
    if options.optimistic is not None:
        network = NTupleNetwork.optimistic(options.optimistic, config.tuples, config.stage_tiles)
    return Trainer(config, network)


class _RestartSettings(TypedDict, total=False):
    restart_tiles: tuple[int, ...]
    restart_share: float


def _restart_settings(options: TrainOptions) -> _RestartSettings:
    """The restart options given on the command line (those left out are not in the dict)."""
    settings: _RestartSettings = {}
    if options.restart_tiles is not None:
        settings["restart_tiles"] = _tiles("--restart-tiles", options.restart_tiles)
    if options.restart_share is not None:
        settings["restart_share"] = options.restart_share
    return settings


def _tiles(option: str, text: str) -> tuple[int, ...]:
    try:
        return tuple(int(tile) for tile in text.split(",") if tile.strip())
    except ValueError:
        raise ValueError(
            f'{option} takes tiles separated by commas, e.g. "8192,16384"; got {text!r}'
        ) from None


def _resume(options: TrainOptions, checkpoint: Path) -> Trainer:
    """Load the checkpoint; the restart options, the workers and lock-free may change (see
    :func:`~py2048.learn.training.with_workers`) and stages may be added (each new stage
    starting as a copy of the one it splits); every other setting is kept."""
    trainer = load_checkpoint(checkpoint)
    config = trainer.config
    requested = {
        "--tuples": (options.tuples and parse_tuples(options.tuples), config.tuples),
        "--alpha": (options.alpha, config.alpha),
        "--step-size": (options.step_size, "tc" if config.temporal_coherence else "fixed"),
        "--seed": (options.seed, config.seed),
    }
    if options.init is not None or options.optimistic is not None:
        trainer.close()
        option = "--init" if options.init is not None else "--optimistic"
        raise ValueError(f"{option} starts a fresh run; a resumed run goes on from its checkpoint")
    for option, (asked, saved) in requested.items():
        if asked is not None and asked != saved:
            trainer.close()
            raise ValueError(
                f"{checkpoint} was trained with {option} {saved}; a resumed run keeps its "
                f"settings (leave {option} out, or start a new --checkpoint)"
            )
    workers = config.workers if options.workers is None else options.workers
    lock_free = config.lock_free if options.lock_free is None else options.lock_free
    if (workers, lock_free) != (config.workers, config.lock_free):
        trainer = with_workers(trainer, workers, lock_free)
        config = trainer.config
    try:
        trainer.config = dataclasses.replace(config, **_restart_settings(options))
        if options.stage_tiles is not None:
            stage_tiles = _tiles("--stage-tiles", options.stage_tiles)
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
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        BarColumn(bar_width=16),
        MofNCompleteColumn(),
        TextColumn("{task.fields[summary]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
    )
    last_save = last_log = began = time.monotonic()
    games_at_start = trainer.games_finished
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
            if time.monotonic() - last_log >= LOG_SECONDS:
                _add_curve_point(trainer, checkpoint)
                last_log = time.monotonic()
                if not console.is_terminal:
                    left = _time_left(
                        trainer.games_finished - games_at_start,
                        games - trainer.games_finished,
                        last_log - began,
                    )
                    console.print(
                        f"{trainer.games_finished}/{games} games, "
                        f"{trainer.elapsed_seconds:.0f} s: {summary} | {left}",
                        soft_wrap=True,
                    )
            if time.monotonic() - last_save >= checkpoint_minutes * 60:
                save_checkpoint(trainer, checkpoint)
                last_save = time.monotonic()
    return stop.is_set()


def _time_left(done: int, left: int, seconds: float) -> str:
    """ "about N min left" at this invocation's pace so far, or "" before a game has ended."""
    if done <= 0:
        return "time left unknown"
    minutes = left / done * seconds / 60
    return (
        f"about {minutes:,.0f} min left" if minutes < 120 else f"about {minutes / 60:,.1f} h left"
    )


def curve_path(checkpoint: Path) -> Path:
    """The learning curve of the run kept in ``checkpoint``."""
    return checkpoint.with_name(checkpoint.name + CURVE_SUFFIX)


def _add_curve_point(trainer: Trainer, checkpoint: Path) -> None:
    """Append where the run stands to its learning curve (one JSON object a line: games, moves
    and seconds of training so far, the mean score and tile rates of the last games from the
    opening). A resumed run appends to the same file."""
    stats = trainer.stats
    point = {
        "games": trainer.games_finished,
        "moves": trainer.moves_played,
        "seconds": round(trainer.elapsed_seconds, 1),
        "recent_games": len(stats.recent),
        "mean_score": round(stats.mean_score, 1),
        **{str(tile): round(stats.rate(tile), 4) for tile in (2048, 8192, 16384, 32768)},
    }
    with curve_path(checkpoint).open("a", encoding="utf-8") as curve:
        curve.write(json.dumps(point) + "\n")
