"""``2048 train install PATH`` and ``2048 train list``: the networks a user trained, measured and
installed beside the shipped one, which the solver then plays with when they measured stronger.

``install`` checks the weights file (one ``2048 train --export`` wrote), measures greedy play
with it as the shipped network's figures were measured (``2048 bench --depth 0 --evaluator
ntuple --no-tables --rng c-rand --seed 2001``, through the bench's own functions), and puts
the file and its figures in the networks folder (:mod:`py2048.evaluation.networks`). ``list``
shows the shipped network and every installed one, and which one plays and why
(:func:`py2048.evaluation.ntuple.chosen_network`).
"""

from __future__ import annotations

import argparse
import hashlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from py2048.argtypes import positive_int
from py2048.evaluation.networks import (
    GREEDY_FIRST_SEED,
    GREEDY_RNG,
    NETWORKS_VARIABLE,
    REPORTED_TILES,
    SHIPPED_NAME,
    GreedyStrength,
    InstalledNetwork,
    NetworkFigures,
    check_name,
    describe_shape,
    figures_file,
    file_digest,
    installed_networks,
    networks_dir,
    shipped_figures,
    stronger_networks,
    weights_file,
    write_figures,
)
from py2048.evaluation.ntuple import (
    BY_VARIABLE,
    NetworkChoice,
    chosen_network,
    forget_network,
    playing_with,
    shipped_weights_path,
)
from py2048.evaluation.storage import WeightsError, load_int16_weights
from py2048.files import atomic_write

if TYPE_CHECKING:
    from rich.console import Console

    from py2048.solver.autoplay import GameRecord

INSTALL_GAMES = 1000
"""Games ``install`` measures a network over unless told: as many as the shipped network's
figures, so the two compare."""
_CHUNK = 1 << 20

GameSeen = Callable[["GameRecord"], None]
Measure = Callable[[Path, int, "int | None", "GameSeen | None"], GreedyStrength]
"""How ``install`` measures a weights file: ``(path, games, workers, on_game)`` to its
greedy strength (:func:`measure_greedy`; tests pass a quicker one)."""


@dataclass(frozen=True)
class InstallOptions:
    """What ``2048 train install`` was asked for."""

    path: str
    games: int = INSTALL_GAMES
    workers: int | None = None
    """Worker processes for the measuring games (default: every core)."""
    name: str | None = None
    """The installed network's name (default: the file's name without ``.npz``)."""
    force: bool = False
    """Replace an installed network of the same name."""


def add_subcommands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``install`` and ``list``, among the subcommands of ``2048 train``."""
    install = commands.add_parser(
        "install",
        help="measure a weights file (2048 train --export) and install it for the solver",
        description="Check a weights file, measure greedy play with it (depth 0, no endgame "
        f"tables, c-rand spawns, seeds from {GREEDY_FIRST_SEED}: the protocol of the shipped "
        "network's figures) and install it with its figures in the networks folder "
        f"(${NETWORKS_VARIABLE}, else your user cache folder). The solver plays with the "
        "installed network of the highest greedy mean if it beats the shipped network's.",
    )
    install.add_argument("path", metavar="PATH", help="the weights file (.npz)")
    install.add_argument(
        "--games",
        type=positive_int,
        default=INSTALL_GAMES,
        help="greedy games to measure it over (default: %(default)s, as the shipped "
        "network's figures)",
    )
    install.add_argument(
        "--workers", type=positive_int, help="worker processes (default: every core)"
    )
    install.add_argument(
        "--name", help="the installed network's name (default: the file's name without .npz)"
    )
    install.add_argument(
        "--force", action="store_true", help="replace an installed network of the same name"
    )
    commands.add_parser(
        "list",
        help="show the shipped and installed networks, their strength, and which one plays",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``2048 train install`` or ``2048 train list`` (``args.train_command``)."""
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    if args.train_command == "install":
        options = InstallOptions(
            path=args.path,
            games=args.games,
            workers=args.workers,
            name=args.name,
            force=args.force,
        )
        return install(options, console)
    return list_networks(console)


# --- install ------------------------------------------------------------------------------


def measure_greedy(
    path: Path, games: int, workers: int | None, on_game: GameSeen | None = None
) -> GreedyStrength:
    """Greedy play's strength with this weights file over ``games`` games, as ``2048 bench
    --depth 0 --evaluator ntuple --no-tables --rng c-rand --seed 2001`` measures it."""
    from py2048.evaluation.registry import NETWORK_EVALUATOR
    from py2048.solver.bench_games import run_bench
    from py2048.solver.bench_settings import BenchSettings
    from py2048.solver.stats import summarize

    settings = BenchSettings(
        games=games,
        seed=GREEDY_FIRST_SEED,
        depth=0,
        workers=workers,
        rng=GREEDY_RNG,
        evaluator=NETWORK_EVALUATOR,
        tables=False,
    )
    with playing_with(path):
        records = run_bench(settings, on_game)
    summary = summarize(records, 0.0)
    shares = {rate.tile: rate.share for rate in summary.rates}
    return GreedyStrength(
        games=summary.games,
        first_seed=GREEDY_FIRST_SEED,
        rng=GREEDY_RNG,
        mean_score=summary.mean_score,
        reached={tile: shares.get(tile, 0.0) for tile in REPORTED_TILES},
    )


def install(options: InstallOptions, console: Console, measure: Measure = measure_greedy) -> int:
    """Check, measure and install a weights file: 0 when installed, 130 when Ctrl-C stopped
    the measuring; ValueError (naming the file) when it cannot be installed. Nothing is
    installed unless all went well."""
    source = Path(options.path)
    try:
        weights = load_int16_weights(source)
    except WeightsError as exc:
        raise ValueError(f"{exc}; nothing was installed") from None
    name = check_name(options.name if options.name is not None else _default_name(source))
    folder = networks_dir()
    if folder.exists() and not folder.is_dir():
        raise ValueError(
            f"the networks folder {folder} (${NETWORKS_VARIABLE}) is a file, not a folder"
        )
    target = weights_file(name, folder)
    if target.exists() and not options.force:
        raise ValueError(
            f"a network named {name} is installed already ({target}): --force replaces it, "
            "--name installs this one under another name"
        )
    digest = file_digest(source)
    size = source.stat().st_size
    console.print(
        f"{source}: tuples {describe_shape(weights.tuples, weights.stage_tiles)}, {_size(size)}. "
        f"Measuring greedy play over {options.games:,} games (seeds {GREEDY_FIRST_SEED}.."
        f"{GREEDY_FIRST_SEED + options.games - 1}, {GREEDY_RNG}, no endgame tables)"
    )
    try:
        strength = _measure_with_progress(source, options, measure, console)
    except KeyboardInterrupt:
        console.print("Stopped while measuring; nothing was installed.")
        return 130
    figures = NetworkFigures(digest, size, weights.tuples, weights.stage_tiles, strength)
    _copy_checked(source, target, digest)
    write_figures(figures_file(name, folder), figures)
    forget_network()
    shipped = shipped_figures()
    console.print(
        f"Installed {name}: greedy mean {strength.mean_score:,.0f}, 16384 in "
        f"{strength.reached[16384]:.1%}, 32768 in {strength.reached[32768]:.1%} "
        f"({target}). The shipped network: {shipped.greedy.mean_score:,.0f}."
    )
    console.print(_verdict(name, installed_networks(folder), shipped))
    return 0


def _default_name(source: Path) -> str:
    name = source.name.removesuffix(".npz")
    try:
        return check_name(name)
    except ValueError:
        raise ValueError(
            f"{source}: its name cannot name an installed network; give one with --name "
            "(letters, digits, '.', '_' and '-')"
        ) from None


def _measure_with_progress(
    source: Path, options: InstallOptions, measure: Measure, console: Console
) -> GreedyStrength:
    from py2048.solver.report import games_progress

    with games_progress(console) as progress:
        task = progress.add_task("greedy games", total=options.games)

        def advance(record: GameRecord) -> None:
            progress.update(task, advance=1)

        return measure(source, options.games, options.workers, advance)


def _copy_checked(source: Path, target: Path, digest: str) -> None:
    """Copy the weights file into place atomically, after taking the old network's figures
    away (so that no moment pairs new weights with old figures); ValueError if the file is no
    longer the one measured."""
    figures_file(target.name.removesuffix(".npz"), target.parent).unlink(missing_ok=True)
    copied = hashlib.sha256()
    with atomic_write(target) as handle, source.open("rb") as reading:
        while chunk := reading.read(_CHUNK):
            copied.update(chunk)
            handle.write(chunk)
        if copied.hexdigest() != digest:
            raise ValueError(f"{source} changed while it was measured; nothing was installed")


def _verdict(name: str, installed: list[InstalledNetwork], shipped: NetworkFigures) -> str:
    stronger = stronger_networks(installed, shipped)
    if stronger and stronger[0].name == name:
        verdict = f"It is the strongest measured: the solver plays with {name}"
    elif stronger:
        verdict = f"{stronger[0].name} measured stronger: the solver plays with that one"
    else:
        verdict = "The shipped network measured at least as strong: the solver keeps it"
    return f"{verdict} (unless PY2048_NTUPLE_WEIGHTS names a file); `2048 train list` shows all."


# --- list ---------------------------------------------------------------------------------


def list_networks(console: Console) -> int:
    """Print the shipped network and every installed one (shape, size, figures), and which
    one plays and why."""
    from rich.markup import escape
    from rich.table import Table

    folder = networks_dir()
    forget_network()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the table says what was skipped and why
        choice = chosen_network()
    skipped = {Path(problem.path): str(problem) for problem in choice.skipped}
    shipped = shipped_figures()
    table = Table()
    for column in ("network", "tuples", "size", "games", "mean", "16384", "32768"):
        numeric = column not in ("network", "tuples")
        table.add_column(column, justify="right" if numeric else "left", no_wrap=True)
    table.add_column("state", min_width=12)
    table.add_row(
        SHIPPED_NAME,
        *_figure_cells(shipped, shipped_weights_path()),
        _state_of_shipped(choice),
    )
    problems = []
    for network in installed_networks(folder):
        cells = _figure_cells(network.figures, network.path)
        state, problem = _state(network, choice, shipped, skipped)
        table.add_row(network.name, *cells, state)
        if problem is not None:
            problems.append(f"[red]{escape(network.name)} skipped[/]: {escape(problem)}")
    # Lines that name a path are soft-wrapped: the terminal wraps them, Rich never breaks a path.
    console.print(
        f"Networks (greedy play's figures): the shipped one, and those installed in {folder}",
        soft_wrap=True,
        markup=False,
    )
    console.print(table)
    if folder.exists() and not folder.is_dir():
        console.print(
            f"[red]The networks folder {escape(str(folder))} is a file, not a folder.[/]",
            soft_wrap=True,
        )
    in_use = "PY2048_NTUPLE_WEIGHTS's file" if choice.name is None else choice.name
    console.print(f"In use: {in_use}, {choice.path}: {choice.why}.", soft_wrap=True, markup=False)
    for line in problems:
        console.print(line, soft_wrap=True)
    console.print(
        f"Greedy play: depth 0, no endgame tables, {GREEDY_RNG} spawns, game i of seed "
        f"{GREEDY_FIRST_SEED}+i. `2048 train install PATH` measures and installs a weights file "
        f"(`2048 train --export`); set {NETWORKS_VARIABLE} to keep them elsewhere."
    )
    return 0


def _figure_cells(figures: NetworkFigures | None, path: Path) -> list[str]:
    try:
        size = _size(path.stat().st_size)
    except OSError:
        size = "?"
    if figures is None:
        return ["", size, "", "", "", ""]
    greedy = figures.greedy
    return [
        describe_shape(figures.tuples, figures.stage_tiles),
        size,
        f"{greedy.games:,}",
        f"{greedy.mean_score:,.0f}",
        f"{greedy.reached[16384]:.1%}",
        f"{greedy.reached[32768]:.1%}",
    ]


def _state_of_shipped(choice: NetworkChoice) -> str:
    return "[green]in use[/]" if choice.name == SHIPPED_NAME else "not in use"


def _state(
    network: InstalledNetwork,
    choice: NetworkChoice,
    shipped: NetworkFigures,
    skipped: dict[Path, str],
) -> tuple[str, str | None]:
    """The network's state in a few words, and what is wrong with it (None if nothing)."""
    if _same_file(network.path, choice.path):
        return "[green]in use[/]", None
    if network.path in skipped:
        return "[red]skipped[/]", skipped[network.path]
    if network.problem is not None:
        return "[red]skipped[/]", str(network.problem)
    if network.figures is None:
        return "not measured", None
    if network.figures.greedy.mean_score <= shipped.greedy.mean_score:
        return "no stronger than shipped", None
    if choice.chosen_by == BY_VARIABLE:
        return "not in use (PY2048_NTUPLE_WEIGHTS)", None
    return f"not in use ({choice.name} stronger)", None


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return one == other


def _size(size: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"
