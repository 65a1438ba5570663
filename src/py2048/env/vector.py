"""The vector environment: N games of 2048 advanced by one compiled call per step.

It behaves exactly like ``gymnasium.vector.SyncVectorEnv`` over N :class:`Game2048Env` (with a
``TimeLimit`` when ``max_episode_steps`` is set), in each of Gymnasium's autoreset modes, only
without a Python loop over the games.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numba import njit

from py2048._uncounted import njit_uncounted
from py2048.batch import (
    NO_START,
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
from py2048.checks import (
    checked_actions,
    checked_mask,
    checked_positive_int,
    is_integer,
    seeds_for,
)
from py2048.engine.board import ROW_TABLES
from py2048.engine.rng import SEED_LIMIT, validate_seed
from py2048.engine.rows import STATE_COLUMNS, STATE_SCORE, STATE_SEED, next_seed
from py2048.engine.size import BoardSize
from py2048.env import render
from py2048.env.options import (
    RENDER_MODES,
    board_size,
    check_options,
    check_reset_options,
    observation_space,
)
from py2048.observation import write_mask_row

_NEXT_STEP, _SAME_STEP, _DISABLED = 0, 1, 2
_MODE_CODES = {
    AutoresetMode.NEXT_STEP: _NEXT_STEP,
    AutoresetMode.SAME_STEP: _SAME_STEP,
    AutoresetMode.DISABLED: _DISABLED,
}
_INFO_KEYS = ("action_mask", "score", "max_tile", "moved")


class _Rules(NamedTuple):
    """How the environment's episodes go, fixed at creation."""

    mode: int
    """_NEXT_STEP, _SAME_STEP or _DISABLED."""
    illegal_ends: bool
    penalty: float
    """The reward of an action that does not move."""
    max_steps: int
    """Truncate episodes at this many steps; 0 for never."""
    tables: np.ndarray
    """The engine's move tables (``engine.board.ROW_TABLES``), for 4x4 boards."""
    fresh: Start
    """:data:`py2048.batch.NO_START`: the start of a game that restarts from its seed."""


class _Episodes(NamedTuple):
    """Where each game's episode stands, kept between steps."""

    steps: np.ndarray
    pending: np.ndarray
    """The episode has ended and the game waits for its restart."""


class _Report(NamedTuple):
    """What every game reports after a reset or a step: the observation and the info entries."""

    obs: np.ndarray
    masks: np.ndarray
    scores: np.ndarray
    max_tiles: np.ndarray


class _Outcome(NamedTuple):
    """A step's rewards, ends and whether each action moved."""

    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    moved: np.ndarray


class _Finals(NamedTuple):
    """With SameStep, the end of each episode that finished on this step (``finished``)."""

    finished: np.ndarray
    obs: np.ndarray
    masks: np.ndarray
    scores: np.ndarray
    max_tiles: np.ndarray
    moved: np.ndarray


@njit(cache=True, nogil=True, inline="always")
def _record(
    state: np.ndarray, i: int, tables: np.ndarray, boards: Grid | None, report: _Report
) -> int:
    """Write game ``i``'s observation (into the flat rows ``report.obs``) and info entries;
    return its legal-move bitmask."""
    obs, masks, scores, max_tiles = report
    observe_game(state, i, obs[i], boards)
    mask = legal_of(state, i, tables, boards)
    write_mask_row(mask, masks, i)
    scores[i] = state[i, STATE_SCORE]
    max_tiles[i] = 1 << top_of(state, i, boards)
    return mask


@njit_uncounted(cache=True, nogil=True)
def _reset(
    state: np.ndarray,
    select: np.ndarray,
    seeds: np.ndarray,
    start: Start,
    tables: np.ndarray,
    boards: Grid | None,
    report: _Report,
) -> None:
    obs, masks, scores, max_tiles = report
    n = state.shape[0]
    flat = _Report(obs.reshape(n, obs.size // n), masks, scores, max_tiles)
    for i in range(n):
        if select[i]:
            restart_game(state, i, seeds[i], start, boards)
            _record(state, i, tables, boards, flat)
        else:
            observe_game(state, i, flat.obs[i], boards)


@njit_uncounted(cache=True, nogil=True)
def _step(
    state: np.ndarray,
    boards: Grid | None,
    actions: np.ndarray,
    rules: _Rules,
    episodes: _Episodes,
    report: _Report,
    outcome: _Outcome,
    finals: _Finals,
) -> None:
    mode, illegal_ends, penalty, max_steps, tables, fresh = rules
    steps, pending = episodes
    obs, masks, scores, max_tiles = report
    rewards, terminated, truncated, moved = outcome
    finished, final_obs, final_masks, final_scores, final_max_tiles, final_moved = finals
    n = state.shape[0]
    flat = obs.reshape(n, obs.size // n)
    rows = _Report(flat, masks, scores, max_tiles)
    final_flat = final_obs.reshape(n, final_obs.size // n)
    for i in range(n):
        finished[i] = False
        if pending[i] and mode == _NEXT_STEP:
            restart_game(state, i, next_seed(state[i, STATE_SEED]), fresh, boards)
            steps[i] = 0
            pending[i] = False
            rewards[i] = 0.0
            terminated[i] = False
            truncated[i] = False
            moved[i] = False
            _record(state, i, tables, boards, rows)
            continue
        gain, did_move = advance_game(state, i, actions[i], tables, boards)
        steps[i] += 1
        moved[i] = did_move
        rewards[i] = gain if did_move else penalty
        mask = _record(state, i, tables, boards, rows)
        terminated[i] = mask == 0 or (illegal_ends and not did_move)
        truncated[i] = max_steps > 0 and steps[i] >= max_steps
        pending[i] = terminated[i] or truncated[i]
        if pending[i] and mode == _SAME_STEP:
            finished[i] = True
            for j in range(flat.shape[1]):  # element by element: a slice would be a new view
                final_flat[i, j] = flat[i, j]
            for j in range(masks.shape[1]):
                final_masks[i, j] = masks[i, j]
            final_scores[i] = scores[i]
            final_max_tiles[i] = max_tiles[i]
            final_moved[i] = did_move
            restart_game(state, i, next_seed(state[i, STATE_SEED]), fresh, boards)
            steps[i] = 0
            pending[i] = False
            moved[i] = False
            _record(state, i, tables, boards, rows)


class Game2048VectorEnv(VectorEnv):
    """N independent games of :class:`~py2048.env.Game2048Env`, stepped in one compiled call.

    ``size`` is the boards' shape, as :class:`~py2048.env.Game2048Env` takes it (4x4 by
    default). ``reset(seed=s)`` starts game ``i`` as ``py2048.Game(s + i, size=size)`` (a list
    gives one seed per game). ``autoreset_mode`` is Gymnasium's: "NextStep" (the default: the
    step after an episode ends starts the next game and ignores its action), "SameStep" (the
    next game starts at once; ``info["final_obs"]`` and ``info["final_info"]`` hold the end) or
    "Disabled" (reset finished games with ``reset(options={"reset_mask": mask})``).
    ``options={"board": rows}`` starts the selected games from that board. A restarted game plays
    ``py2048.batch.next_seed`` of its last seed. ``max_episode_steps`` truncates episodes.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # Gymnasium's: each instance may have its own
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        *,
        size: BoardSize | tuple[int, int] | str | None = None,
        render_mode: str | None = None,
        obs_mode: str = "exponents",
        illegal_penalty: float = 0.0,
        illegal_action: str = "ignore",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_episode_steps: int | None = None,
    ) -> None:
        n = checked_positive_int("num_envs", num_envs)
        self._penalty = check_options(obs_mode, illegal_action, illegal_penalty, render_mode)
        mode = _autoreset_mode(autoreset_mode)
        self.size = board_size(size)
        """The boards' shape, (rows, cols)."""
        if max_episode_steps is not None:
            max_episode_steps = checked_positive_int("max_episode_steps", max_episode_steps)
        self.num_envs = n
        self.render_mode = render_mode
        self.obs_mode = obs_mode
        self.illegal_action = illegal_action
        self.max_episode_steps = max_episode_steps
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self._mode = _MODE_CODES[mode]
        self._illegal_ends = illegal_action == "terminate"
        self._max_steps = 0 if max_episode_steps is None else int(max_episode_steps)

        self.single_observation_space = observation_space(obs_mode, self.size)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.single_action_space = spaces.Discrete(4)
        self.action_space = batch_space(self.single_action_space, n)
        self._obs_shape = (n, *self.single_observation_space.shape)

        self._state = np.zeros((n, STATE_COLUMNS), dtype=np.uint64)
        self._grid = grid_for(self.size, n)
        self._started = np.zeros(n, dtype=bool)
        self._steps = np.zeros(n, dtype=np.int64)
        self._pending = np.zeros(n, dtype=bool)
        self._finished = np.zeros(n, dtype=bool)
        self._final_obs = np.zeros(self._obs_shape, dtype=np.uint8)
        self._final_masks = np.zeros((n, 4), dtype=np.int8)
        self._final_scores = np.zeros(n, dtype=np.int64)
        self._final_max_tiles = np.zeros(n, dtype=np.int64)
        self._final_moved = np.zeros(n, dtype=bool)
        self._rules = _Rules(
            self._mode, self._illegal_ends, self._penalty, self._max_steps, ROW_TABLES, NO_START
        )
        self._finals = _Finals(
            self._finished,
            self._final_obs,
            self._final_masks,
            self._final_scores,
            self._final_max_tiles,
            self._final_moved,
        )

    @property
    def game_seeds(self) -> np.ndarray:
        """Seed of each game being played (a copy): ``py2048.Game.replay`` rebuilds them."""
        return self._state[:, STATE_SEED].astype(np.int64)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        options = check_reset_options(options, ("reset_mask", "board"))
        n = self.num_envs
        reset_mask = options.get("reset_mask")
        select = np.ones(n, dtype=bool) if reset_mask is None else checked_mask(reset_mask, n)
        start = start_for(options.get("board"), self.size)
        seeds = self._seeds(seed, select)
        obs = np.empty(self._obs_shape, dtype=np.uint8)
        masks = np.zeros((n, 4), dtype=np.int8)
        scores = np.zeros(n, dtype=np.int64)
        max_tiles = np.zeros(n, dtype=np.int64)
        report = _Report(obs, masks, scores, max_tiles)
        _reset(self._state, select, seeds, start, ROW_TABLES, self._grid, report)
        self._started |= select
        self._steps[select] = 0
        self._pending[select] = False
        moved = np.zeros(n, dtype=bool)
        return obs, _info(select, masks, scores, max_tiles, moved)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started.all():
            raise ResetNeeded("call reset() before step()")
        n = self.num_envs
        checked = checked_actions(actions, n)
        if self._mode == _DISABLED and self._pending.any():
            waiting = np.flatnonzero(self._pending).tolist()
            raise ResetNeeded(
                f"games {waiting} have ended: with autoreset_mode 'Disabled', reset them with "
                "reset(options={'reset_mask': mask}) before stepping"
            )
        obs = np.empty(self._obs_shape, dtype=np.uint8)
        rewards = np.empty(n, dtype=np.float64)
        terminated = np.empty(n, dtype=bool)
        truncated = np.empty(n, dtype=bool)
        moved = np.empty(n, dtype=bool)
        masks = np.empty((n, 4), dtype=np.int8)
        scores = np.empty(n, dtype=np.int64)
        max_tiles = np.empty(n, dtype=np.int64)
        _step(
            self._state,
            self._grid,
            checked,
            self._rules,
            _Episodes(self._steps, self._pending),
            _Report(obs, masks, scores, max_tiles),
            _Outcome(rewards, terminated, truncated, moved),
            self._finals,
        )
        info = _info(np.ones(n, dtype=bool), masks, scores, max_tiles, moved)
        if self._mode == _SAME_STEP and self._finished.any():
            info |= self._final_info()
        return obs, rewards, terminated, truncated, info

    def render(self) -> tuple[str | np.ndarray, ...] | None:
        if self.render_mode is None:
            gym.logger.warn('render() needs render_mode="ansi" or "rgb_array" at creation')
            return None
        if not self._started.all():
            raise ResetNeeded("call reset() first")
        boards = [board_rows(self._state, i, self._grid) for i in range(self.num_envs)]
        if self.render_mode == "ansi":
            scores = self._state[:, STATE_SCORE].tolist()
            return tuple(
                render.ansi(board, score) for board, score in zip(boards, scores, strict=True)
            )
        return tuple(render.rgb_array(board) for board in boards)

    def _seeds(self, seed: int | list[int | None] | None, select: np.ndarray) -> np.ndarray:
        """Validated seeds for the selected games; unseeded games continue their series."""
        n = self.num_envs
        if is_integer(seed):
            seeds = seeds_for(seed, n)
            super().reset(seed=int(seed))
            return seeds
        if seed is None:
            chosen: list[int | None] = [None] * n
        elif isinstance(seed, (list, tuple, np.ndarray)) and len(seed) == n:
            chosen = [None if s is None else validate_seed(s) for s in seed]
        else:
            raise ValueError(f"seed must be an int, None or a list of {n} seeds, got {seed!r}")
        seeds = np.zeros(n, dtype=np.uint64)
        for i in np.flatnonzero(select):
            if chosen[i] is not None:
                seeds[i] = chosen[i]
            elif self._started[i]:
                seeds[i] = next_seed(self._state[i, STATE_SEED])
            else:
                seeds[i] = self.np_random.integers(SEED_LIMIT)
        return seeds

    def _final_info(self) -> dict[str, Any]:
        finished = self._finished.copy()
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(finished):
            final_obs[i] = self._final_obs[i].copy()
        final_info = _info(
            finished,
            np.where(finished[:, None], self._final_masks, 0).astype(np.int8),
            np.where(finished, self._final_scores, 0),
            np.where(finished, self._final_max_tiles, 0),
            finished & self._final_moved,
        )
        return {
            "final_obs": final_obs,
            "_final_obs": finished,
            "final_info": final_info,
            "_final_info": finished.copy(),
        }


def _autoreset_mode(value: str | AutoresetMode) -> AutoresetMode:
    try:
        return AutoresetMode(value)
    except ValueError:
        allowed = ", ".join(repr(mode.value) for mode in AutoresetMode)
        raise ValueError(f"autoreset_mode must be one of {allowed}; got {value!r}") from None


def _info(
    present: np.ndarray,
    masks: np.ndarray,
    scores: np.ndarray,
    max_tiles: np.ndarray,
    moved: np.ndarray,
) -> dict[str, np.ndarray]:
    """Gymnasium's vector info: each key with its ``_key`` mask of the games that report it."""
    values = (masks, scores, max_tiles, moved)
    info: dict[str, np.ndarray] = {}
    for key, value in zip(_INFO_KEYS, values, strict=True):
        info[key] = value
        info[f"_{key}"] = present.copy()
    return info
