"""The n-tuple network as an evaluation, and the shipped network: ``evaluator="ntuple"``, and
``"ntuple-snake"``, the default: the same network pulled toward the endgame tables' formation
(:mod:`py2048.evaluation.snake`).

The network estimates the score still to come after an afterstate, so the search adds each
move's gain to it (``gain_weight`` 1.0), and greedy play with it (depth 0) is how the network
was trained to play (with its weights rounded to int16 steps, as the shipped file stores them).
The search reads the entries as int16: half the memory of float32 (268 MB for the shipped
8 x 6 tuples) and quicker searches, since more of the tables' busy entries stay in the processor's
caches.

The weights come from the file named by the environment variable ``PY2048_NTUPLE_WEIGHTS``
(to measure a network of your own with ``2048 bench --evaluator ntuple``), else from the
strongest network installed with ``2048 train install`` if it measured stronger than the
shipped one (:mod:`py2048.evaluation.networks`), else from the file shipped inside the
package: :func:`chosen_network`, and :func:`network_in_use` says which and why.
``py2048.learn`` trains networks and turns one being trained into an evaluation
(:func:`py2048.learn.network.network_evaluator`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba.core.dispatcher import Dispatcher

from py2048._compile_cache import cached_per
from py2048._uncounted import njit_uncounted
from py2048.engine.board import max_exponent
from py2048.evaluation.contract import KERNEL_SIGNATURE, Evaluator
from py2048.evaluation.networks import (
    SHIPPED_NAME,
    file_digest,
    installed_networks,
    load_measured,
    shipped_figures,
    stronger_networks,
)
from py2048.evaluation.snake import MIN_EXPONENT, PULL, snake_sum
from py2048.evaluation.storage import Int16Weights, WeightsError, load_int16_weights
from py2048.evaluation.tuples import (
    DOWNGRADE_FROM,
    Plan,
    downgraded_board,
    has_exponent_at_least,
    layout_plan,
    network_board,
    nibble_max,
    stage_offset,
    symmetric_boards,
    table_index,
    tuple_layout,
)

SHIPPED_WEIGHTS = "ntuple-8x6.npz"
WEIGHTS_VARIABLE = "PY2048_NTUPLE_WEIGHTS"


def int16_evaluator(
    layout: np.ndarray,
    scale: float,
    entries: np.ndarray,
    name: str,
    pull: float = 0.0,
    downgrade_from: int = 0,
) -> Evaluator:
    """The evaluation of a network whose entries are int16 steps of ``scale``, plus ``pull``
    times the board's :func:`~py2048.evaluation.snake.snake_sum` (none by default); from a
    largest tile of ``downgrade_from`` up (0: never), the network reads the board downgraded
    (:func:`~py2048.evaluation.tuples.downgraded_board`).

    The Evaluator's ``weights`` are those entries, two to a float32 word, as the evaluation
    interface passes every table as float32. With a pull, its ``baseline`` is the pull of the
    board searched, which hints subtract so that their values stay in points.
    """
    if entries.size % 2:
        entries = np.append(entries, np.int16(0))
    return Evaluator(
        name,
        value_kernel(layout, scale, pull, downgrade_from),
        entries.view(np.float32).reshape(1, -1),
        layout,
        gain_weight=1.0,
        baseline=_pull_of(float(pull)) if pull else None,
    )


def value_kernel(
    layout: np.ndarray, scale: float, pull: float = 0.0, downgrade_from: int = 0
) -> Dispatcher:
    """The solver kernel for a network of this layout and int16 scale: its value, never below 0
    (0 is the value of a lost game), plus ``pull`` times the board's snake sum; boards whose
    largest tile is at least ``downgrade_from`` (0: none) are read downgraded, their stage (in
    a network with stages) being that of the board as read.

    The layout (which table, which masks and shifts read each tuple;
    :func:`~py2048.evaluation.tuples.layout_plan`), the scale and the pull are compiled into the
    kernel as constants, as in the training kernels: numba then folds the index arithmetic
    away, which made d2 searches twice as fast (``docs/solver-reference.md``, "How it works"). numba
    caches one compiled kernel per layout, scale and pull on disk, so only a new network compiles
    (about a second).
    """
    if downgrade_from and (downgrade_from < 4 or downgrade_from & (downgrade_from - 1)):
        raise ValueError(f"downgrade_from must be a tile from 4 up, got {downgrade_from}")
    exponent = int(downgrade_from).bit_length() - 1 if downgrade_from else 0
    return _compiled_kernel(layout_plan(layout), float(scale), float(pull), exponent)


@lru_cache(maxsize=16)
def _compiled_kernel(planned: Plan, scale: float, pull: float, downgrade: int) -> Dispatcher:
    plan, runs, staged, _, _ = planned

    # Without reference counting (py2048._uncounted): it runs at every leaf of a search.
    @njit_uncounted(KERNEL_SIGNATURE, cache=True, nogil=True)
    @cached_per(planned, scale, pull, downgrade)
    def ntuple_value(lo, hi, weights, layout):
        table = weights[0].view(np.int16)
        top = max_exponent(lo, hi) if staged else 0
        read = network_board(lo, hi)
        if downgrade > 0 and has_exponent_at_least(read, downgrade):
            read = downgraded_board(read, downgrade)
            if staged:
                top = nibble_max(read)
        total = 0
        base = stage_offset(top, planned) if staged else 0
        for board in symmetric_boards(read):
            for row in plan:
                total += table[base + table_index(board, row, runs)]
        value = max(total * scale, 0.0)
        if pull != 0.0:
            value += pull * snake_sum(lo, hi, MIN_EXPONENT)
        return value

    return ntuple_value


def _pull_of(pull: float) -> Callable[[int, int], float]:
    def baseline(lo: int, hi: int) -> float:
        return pull * int(snake_sum(np.uint64(lo), np.uint64(hi), MIN_EXPONENT))

    return baseline


def shipped_weights_path() -> Path:
    """The weights file of the network py2048 ships."""
    return Path(str(files("py2048.evaluation") / "weights" / SHIPPED_WEIGHTS))


def weights_path() -> Path:
    """The weights file ``PY2048_NTUPLE_WEIGHTS`` names, else the shipped one (whichever
    network :func:`chosen_network` then plays with, installed networks included)."""
    chosen = os.environ.get(WEIGHTS_VARIABLE)
    if chosen:
        return Path(chosen)
    return shipped_weights_path()


BY_VARIABLE = WEIGHTS_VARIABLE
STRONGEST = "strongest measured"
SHIPPED = "shipped"


class NetworkChoice(NamedTuple):
    """The network the ``"ntuple"`` evaluations play with, and why."""

    path: Path
    weights: Int16Weights
    name: str | None
    """The installed network's name, ``"shipped"``, or None for a file named by
    ``PY2048_NTUPLE_WEIGHTS``."""
    chosen_by: str
    """:data:`BY_VARIABLE`, :data:`STRONGEST` or :data:`SHIPPED`."""
    why: str
    """Why, in a sentence a user reads."""
    skipped: tuple[WeightsError, ...] = ()
    """The networks that could not be used (the file ``PY2048_NTUPLE_WEIGHTS`` names, or
    installed ones), each naming its file and what is wrong."""


@lru_cache(maxsize=1)
def chosen_network() -> NetworkChoice:
    """The network to play with, chosen once per process (:func:`forget_network` chooses again):

    1. the file ``PY2048_NTUPLE_WEIGHTS`` names, when set; one that cannot be used (missing,
       damaged, cut short, not a weights file) is refused with a warning naming it and what
       is wrong, and the shipped network plays instead;
    2. else the installed network (:mod:`py2048.evaluation.networks`) with the highest greedy
       mean, if that beats the shipped network's own figure; one that cannot be used (cut
       short, damaged, made for another shape, changed since it was measured) is skipped
       with a warning naming it, and the next strongest plays;
    3. else the shipped network (which also wins a tie).
    """
    named = os.environ.get(WEIGHTS_VARIABLE)
    if named:
        try:
            return NetworkChoice(
                Path(named),
                load_int16_weights(named),
                None,
                BY_VARIABLE,
                f"{WEIGHTS_VARIABLE} names it",
            )
        except WeightsError as exc:
            warnings.warn(
                f"{WEIGHTS_VARIABLE}: {exc}; playing with the network py2048 ships instead",
                stacklevel=2,
            )
            return _shipped_choice(f"the file {WEIGHTS_VARIABLE} names cannot be used")._replace(
                skipped=(exc,)
            )
    shipped = shipped_figures()
    installed = installed_networks()
    unreadable = [network.problem for network in installed if network.problem is not None]
    problems = list(unreadable)
    choice = None
    for network in stronger_networks(installed, shipped):
        assert network.figures is not None
        try:
            weights = load_measured(network.path, network.figures)
        except WeightsError as exc:
            problems.append(exc)
            continue
        choice = NetworkChoice(
            network.path,
            weights,
            network.name,
            STRONGEST,
            f"the strongest measured: greedy mean {network.figures.greedy.mean_score:,.0f} "
            f"over {network.figures.greedy.games:,} games, against the shipped network's "
            f"{shipped.greedy.mean_score:,.0f}",
        )
        break
    if choice is None:
        mean = f"{shipped.greedy.mean_score:,.0f}"
        choice = _shipped_choice(
            f"the installed networks that measured stronger than its greedy mean {mean} "
            "cannot be used"
            if len(problems) > len(unreadable)
            else f"no installed network measured stronger than its greedy mean {mean}"
        )
    instead = "the network py2048 ships" if choice.name == SHIPPED_NAME else choice.name
    for problem in problems:
        warnings.warn(
            f"installed network skipped: {problem}; playing with {instead} instead",
            stacklevel=2,
        )
    return choice._replace(skipped=tuple(problems))


def check_named_network() -> None:
    """Raise :class:`~py2048.evaluation.storage.WeightsError` (naming the variable, the file
    and what is wrong) when ``PY2048_NTUPLE_WEIGHTS`` is set to a file that cannot be used.

    Play falls back to the shipped network with a warning (:func:`chosen_network`); a
    measurement calls this first instead, so that a typo in the path stops it rather than
    measuring another network than the one it was asked to."""
    if not os.environ.get(WEIGHTS_VARIABLE):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the error below says it instead
        choice = chosen_network()  # chosen (and loaded) once, for the measurement too
    if choice.chosen_by != BY_VARIABLE:
        problem = choice.skipped[0]
        raise WeightsError(problem.path, f"{problem.problem} (named by {WEIGHTS_VARIABLE})")


def _shipped_choice(why: str) -> NetworkChoice:
    path = shipped_weights_path()
    return NetworkChoice(path, load_int16_weights(path), SHIPPED_NAME, SHIPPED, why)


def forget_network() -> None:
    """Forget the network chosen and the evaluations loaded from it, so that the next use
    chooses again (after ``PY2048_NTUPLE_WEIGHTS`` or the networks folder changed)."""
    from py2048.evaluation.registry import NETWORK_EVALUATORS, unload_evaluator

    chosen_network.cache_clear()
    _digest.cache_clear()
    for name in NETWORK_EVALUATORS:
        unload_evaluator(name)


@contextmanager
def playing_with(path: str | os.PathLike[str]) -> Iterator[None]:
    """Within the block, the ``"ntuple"`` evaluations play with this weights file, here and in
    the worker processes started in it (which inherit ``PY2048_NTUPLE_WEIGHTS``): how
    ``2048 train install`` measures a network with the bench. The file is checked first
    (:class:`~py2048.evaluation.storage.WeightsError` naming it if it cannot be used)."""
    load_int16_weights(path)
    before = os.environ.get(WEIGHTS_VARIABLE)
    os.environ[WEIGHTS_VARIABLE] = str(Path(path).resolve())
    forget_network()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(WEIGHTS_VARIABLE, None)
        else:
            os.environ[WEIGHTS_VARIABLE] = before
        forget_network()


def network_in_use() -> dict[str, object]:
    """Which network the ``"ntuple"`` evaluations play with (choosing and loading it if need
    be): its file, whether it is the shipped one, the first 16 hex digits of the file's
    SHA-256 (so that a result can say which network played it), its name (an installed
    network's, ``"shipped"``, or None for a file ``PY2048_NTUPLE_WEIGHTS`` names), what chose
    it (``"PY2048_NTUPLE_WEIGHTS"``, ``"strongest measured"`` or ``"shipped"``), why, and the
    largest tile from which the solver reads boards downgraded (:data:`DOWNGRADE_FROM`)."""
    choice = chosen_network()
    return {
        "file": str(choice.path),
        "shipped": choice.chosen_by == SHIPPED,
        "sha256": _digest(choice.path),
        "name": choice.name,
        "chosen_by": choice.chosen_by,
        "why": choice.why,
        "downgrade_from": DOWNGRADE_FROM,
    }


@lru_cache(maxsize=4)
def _digest(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256 (read once: the file is 33 MB)."""
    return file_digest(path)[:16]


def shipped_evaluator() -> Evaluator:
    """The ``"ntuple"`` evaluation: the network :func:`chosen_network` chose (the shipped one
    unless another is chosen), read from the file's int16 entries with no float32 copy."""
    return _shipped("ntuple")


def snake_evaluator() -> Evaluator:
    """The ``"ntuple-snake"`` evaluation (the default): the chosen network, sharing its
    entries with ``"ntuple"``, pulled toward the snake formation by :data:`PULL`."""
    return _shipped("ntuple-snake", PULL)


def _shipped(name: str, pull: float = 0.0) -> Evaluator:
    weights = chosen_network().weights
    layout = tuple_layout(weights.tuples, weights.stage_tiles)
    return int16_evaluator(
        layout, weights.scale, weights.entries, name, pull, downgrade_from=DOWNGRADE_FROM
    )
