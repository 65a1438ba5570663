"""Checks of the options both environments take, and the spaces they imply."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size
from py2048.observation import onehot_planes

OBS_MODES = ("exponents", "onehot")
ILLEGAL_ACTIONS = ("ignore", "terminate")
RENDER_MODES = ("ansi", "rgb_array")


def observation_space(obs_mode: str, size: BoardSize = DEFAULT_SIZE) -> spaces.Box:
    """(rows, cols) exponents from 0 to the size's largest (17 on 4x4), or (planes, rows, cols)
    one-hot planes (18 on 4x4); uint8 either way."""
    if obs_mode == "onehot":
        return spaces.Box(0, 1, shape=(onehot_planes(size), *size), dtype=np.uint8)
    return spaces.Box(0, size.max_exponent, shape=tuple(size), dtype=np.uint8)


def board_size(size: object) -> BoardSize:
    """The ``size`` option: ``(rows, cols)``, ``"5x5"``, a side or None (4x4); ValueError naming
    it otherwise."""
    return DEFAULT_SIZE if size is None else parse_size(size, "size")


def check_choice(name: str, value: object, choices: tuple[str | None, ...]) -> None:
    if value not in choices:
        allowed = ", ".join(repr(choice) for choice in choices)
        raise ValueError(f"{name} must be one of {allowed}; got {value!r}")


def check_options(
    obs_mode: str, illegal_action: str, illegal_penalty: float, render_mode: str | None
) -> float:
    """Validate the options; return the penalty as a float."""
    check_choice("obs_mode", obs_mode, OBS_MODES)
    check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
    check_choice("render_mode", render_mode, (None, *RENDER_MODES))
    if isinstance(illegal_penalty, bool) or not isinstance(
        illegal_penalty, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
    penalty = float(illegal_penalty)
    if not np.isfinite(penalty):
        raise ValueError(f"illegal_penalty must be finite, got {penalty}")
    return penalty


def check_reset_options(
    options: dict[str, object] | None, allowed: tuple[str, ...]
) -> dict[str, Any]:
    """A copy of ``options``; ValueError for keys the environment does not understand."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict, got {type(options).__name__}")
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        supported = ", ".join(allowed) or "none"
        raise ValueError(f"unknown reset options {unknown}; supported: {supported}")
    return dict(options)
