"""Evaluations by name: the built-in ones, and any a program registers.

``get_evaluator("ntuple-snake")`` (the default: the shipped network with the formation's
pull), ``get_evaluator("ntuple")`` (the network alone) and ``get_evaluator("heuristic")`` load
the built-in evaluations once per process, on first use; a program can add its own with
:func:`register_evaluator`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from py2048.evaluation.contract import Evaluator
from py2048.evaluation.heuristic import heuristic_evaluator
from py2048.evaluation.ntuple import shipped_evaluator, snake_evaluator

DEFAULT_EVALUATOR = "ntuple-snake"
"""The shipped network with the pull toward the endgame tables' formation
(:mod:`py2048.evaluation.snake`): it measured stronger than the network alone in the late
game, and the network far stronger than the heuristic (``docs/solver-reference.md``, "How it
works")."""
NETWORK_EVALUATOR = "ntuple"
"""The shipped network alone, whose values are the points still to come (game reviews grade
moves by them)."""

NETWORK_EVALUATORS = (NETWORK_EVALUATOR, DEFAULT_EVALUATOR)
"""The built-in evaluations that read the network :func:`~py2048.evaluation.ntuple.
chosen_network` chose."""

_registry: dict[str, Callable[[], Evaluator]] = {
    "heuristic": heuristic_evaluator,
    "ntuple": shipped_evaluator,
    "ntuple-snake": snake_evaluator,
}
_loaded: dict[str, Evaluator] = {}
_lock = threading.RLock()


def register_evaluator(name: str, load: Callable[[], Evaluator]) -> None:
    """Make an evaluation available by name; ``load`` runs once, on first use."""
    with _lock:
        _registry[name] = load
        _loaded.pop(name, None)


def unload_evaluator(name: str) -> None:
    """Forget the loaded evaluation ``name`` (if loaded), so that its next use loads it again:
    after the data it reads changed."""
    with _lock:
        _loaded.pop(name, None)


def available_evaluators() -> list[str]:
    """Names that :func:`get_evaluator` can be asked for."""
    with _lock:
        return sorted(_registry)


def get_evaluator(name: str | Evaluator | None = None) -> Evaluator:
    """The evaluator with this name (default :data:`DEFAULT_EVALUATOR`), loaded once per process.

    Raises ValueError for an unknown name or one whose data cannot be loaded.
    """
    if isinstance(name, Evaluator):
        return name
    name = DEFAULT_EVALUATOR if name is None else name
    if not isinstance(name, str):
        raise ValueError(f"evaluator must be a name, got {type(name).__name__}")
    with _lock:
        found = _loaded.get(name)
        if found is None:
            load = _registry.get(name)
            if load is None:
                known = ", ".join(repr(n) for n in available_evaluators())
                raise ValueError(f"unknown evaluator {name!r}; choose one of {known}")
            try:
                found = load()
            except (OSError, ValueError) as exc:
                raise ValueError(f"evaluator {name!r} could not be loaded: {exc}") from exc
            _loaded[name] = found
        return found
