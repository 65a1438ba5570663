"""The Gymnasium environment: one game of 2048, played exactly as ``py2048.Game`` plays it."""

from __future__ import annotations

import operator
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from numba import njit

from py2048.batch import (
    Grid,
    Start,
    advance_game,
    board_rows,
    grid_for,
    legal_of,
    observe_game,
    restart_game,
    start_for,
    top_of,
)
from py2048.checks import board_words
from py2048.engine.board import ROW_TABLES
from py2048.engine.rng import SEED_LIMIT, validate_seed
from py2048.engine.rows import STATE_COLUMNS, STATE_HI, STATE_LO, STATE_SCORE, STATE_SEED, next_seed
from py2048.engine.size import BoardSize
from py2048.env import render
from py2048.env.options import (
    RENDER_MODES,
    board_size,
    check_options,
    check_reset_options,
    observation_space,
)

_ACTION_MASKS = np.array([[(m >> d) & 1 for d in range(4)] for m in range(16)], dtype=np.int8)
"""Row ``m`` is the action mask of legal-move bitmask ``m``."""


def action_mask(legal: int) -> np.ndarray:
    """info["action_mask"]: a new array on every call, the caller's to keep or change."""
    mask: np.ndarray = _ACTION_MASKS[legal].copy()
    return mask


@njit(cache=True, nogil=True)
def _step_one(
    state: np.ndarray, action: int, tables: np.ndarray, boards: Grid | None, obs: np.ndarray
) -> tuple[int, bool, int, int, int]:
    gain, moved = advance_game(state, 0, action, tables, boards)
    observe_game(state, 0, obs.reshape(obs.size), boards)
    mask = legal_of(state, 0, tables, boards)
    return gain, moved, mask, top_of(state, 0, boards), state[0, STATE_SCORE]


@njit(cache=True, nogil=True)
def _step_packed(
    state: np.ndarray, action: int, tables: np.ndarray, obs: np.ndarray
) -> tuple[int, bool, int, int, int]:
    """:func:`_step_one` on 4x4, which Python calls with one argument fewer."""
    return _step_one(state, action, tables, None, obs)


@njit(cache=True, nogil=True)
def _reset_one(
    state: np.ndarray,
    seed: np.uint64,
    start: Start,
    tables: np.ndarray,
    boards: Grid | None,
    obs: np.ndarray,
) -> tuple[int, int]:
    restart_game(state, 0, seed, start, boards)
    observe_game(state, 0, obs.reshape(obs.size), boards)
    return legal_of(state, 0, tables, boards), top_of(state, 0, boards)


@njit(cache=True, nogil=True)
def _reset_packed(
    state: np.ndarray,
    seed: np.uint64,
    lo: np.uint64,
    hi: np.uint64,
    use_board: bool,
    tables: np.ndarray,
    obs: np.ndarray,
) -> tuple[int, int]:
    """:func:`_reset_one` on 4x4, which Python calls with plain arguments (quicker to pass)."""
    start = Start(lo, hi, np.zeros(0, np.uint8), use_board)
    return _reset_one(state, seed, start, tables, None, obs)


class Game2048Env(gym.Env[np.ndarray, int]):
    """2048 by the official rules, registered as ``py2048/2048-v0``.

    ``size`` is the board's shape: ``(rows, cols)`` or ``"5x5"``, each side 3 to 8 (4x4 by
    default). Actions: 0 up, 1 right, 2 down, 3 left. Observation: (rows, cols) uint8 exponents
    (0 empty, 1 for 2, ..., 17 for 131072 on 4x4: up to the size's largest tile), or (planes,
    rows, cols) one-hot planes with ``obs_mode="onehot"`` (18 on 4x4). Reward: the points the
    move scored. An action that does not move the board changes nothing (no spawn) and earns
    ``illegal_penalty``; with ``illegal_action="terminate"`` it also ends the episode. The
    episode terminates when no move is left.

    ``reset(seed=s)`` starts ``py2048.Game(s, size=size)``: same opening, same spawns for the
    same moves; ``reset(seed=s, options={"board": rows})`` starts ``Game.from_board(rows,
    seed=s)``. ``reset()`` without a seed starts the game ``py2048.batch.next_seed`` of the last
    one (a random game the first time), so one seed fixes a whole series of episodes.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        size: BoardSize | tuple[int, int] | str | None = None,
        obs_mode: str = "exponents",
        illegal_penalty: float = 0.0,
        illegal_action: str = "ignore",
    ) -> None:
        self._penalty = check_options(obs_mode, illegal_action, illegal_penalty, render_mode)
        self.size = board_size(size)
        """The board's shape, (rows, cols)."""
        self.render_mode = render_mode
        self.obs_mode = obs_mode
        self.illegal_action = illegal_action
        self._illegal_ends = illegal_action == "terminate"
        self.observation_space = observation_space(obs_mode, self.size)
        self.action_space = spaces.Discrete(4)  # type: ignore[assignment]  # np.int64 is an int
        self._obs_shape = self.observation_space.shape
        self._state = np.zeros((1, STATE_COLUMNS), dtype=np.uint64)
        self._grid = grid_for(self.size, 1)
        self._started = False

    @property
    def game_seed(self) -> int | None:
        """Seed of the game being played: ``py2048.Game.replay(seed, moves, size=size)``
        rebuilds it."""
        return int(self._state[0, STATE_SEED]) if self._started else None

    @property
    def board(self) -> list[list[int]]:
        """The board as rows of tile values (a fresh list), as ``py2048.Game.board`` gives it."""
        self._require_game()
        return board_rows(self._state, 0, self._grid)

    @property
    def packed(self) -> tuple[int, int]:
        """The 4x4 board as the engine's ``(lo, hi)`` words (ValueError on other sizes)."""
        self._require_game()
        if not self.size.classic:
            raise ValueError(f"only 4x4 boards are packed; this board is {self.size}: read board")
        return int(self._state[0, STATE_LO]), int(self._state[0, STATE_HI])

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        options = check_reset_options(options, ("board",))
        board = options.get("board")
        if self._grid is None:
            lo, hi, use_board = board_words(board)
        else:
            start = start_for(board, self.size)
        game_seed = None if seed is None else validate_seed(seed)
        super().reset(seed=seed)
        if game_seed is None:
            game_seed = (
                int(next_seed(self._state[0, STATE_SEED]))
                if self._started
                else int(self.np_random.integers(SEED_LIMIT))
            )
        obs = np.empty(self._obs_shape, dtype=np.uint8)
        state, key = self._state, np.uint64(game_seed)
        if self._grid is None:
            mask, top = _reset_packed(state, key, lo, hi, use_board, ROW_TABLES, obs)
        else:
            mask, top = _reset_one(state, key, start, ROW_TABLES, self._grid, obs)
        self._started = True
        info = {"action_mask": action_mask(mask), "score": 0, "max_tile": 1 << top, "moved": False}
        return obs, info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise ResetNeeded("call reset() before step()")
        try:
            direction = operator.index(action)
        except TypeError:
            direction = -1
        if not 0 <= direction <= 3:
            raise ValueError(
                f"action must be 0 (up), 1 (right), 2 (down) or 3 (left), got {action!r}"
            )
        obs = np.empty(self._obs_shape, dtype=np.uint8)
        if self._grid is None:
            gain, moved, mask, top, score = _step_packed(self._state, direction, ROW_TABLES, obs)
        else:
            gain, moved, mask, top, score = _step_one(
                self._state, direction, ROW_TABLES, self._grid, obs
            )
        if moved:
            reward = float(gain)
            terminated = mask == 0
        else:
            reward = self._penalty
            terminated = mask == 0 or self._illegal_ends
        info = {
            "action_mask": action_mask(mask),
            "score": score,
            "max_tile": 1 << top,
            "moved": moved,
        }
        return obs, reward, terminated, False, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn('render() needs render_mode="ansi" or "rgb_array" at creation')
            return None
        board = self.board
        if self.render_mode == "ansi":
            return render.ansi(board, int(self._state[0, STATE_SCORE]))
        return render.rgb_array(board)

    def _require_game(self) -> None:
        if not self._started:
            raise ResetNeeded("call reset() first")
