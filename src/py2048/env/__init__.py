"""Gymnasium environments for 2048 (needs the ``py2048[rl]`` extra).

Importing this package registers ``py2048/2048-v0``: ``gymnasium.make("py2048/2048-v0")`` gives
:class:`Game2048Env`, and ``gymnasium.make_vec("py2048/2048-v0", num_envs=N)`` gives
:class:`Game2048VectorEnv`, which steps all N games in one compiled call. Both take
``size=(rows, cols)`` (or ``"5x5"``) for boards of 3 to 8 rows and columns; 4x4 by default.
"""

from __future__ import annotations

try:
    from gymnasium.envs.registration import register, registry
except ImportError:
    raise ImportError(
        "py2048.env needs Gymnasium 1.1 or later: pip install 'py2048[rl]' "
        "(py2048.batch works without it)"
    ) from None

from py2048.env.single import Game2048Env
from py2048.env.vector import Game2048VectorEnv

ENV_ID = "py2048/2048-v0"

if ENV_ID not in registry:
    register(
        id=ENV_ID,
        entry_point="py2048.env.single:Game2048Env",
        vector_entry_point="py2048.env.vector:Game2048VectorEnv",
        # The environment checks its own inputs and call order (ResetNeeded) and is verified
        # with check_env in the tests, so make() adds no checking wrappers to every step.
        disable_env_checker=True,
        order_enforce=False,
    )

__all__ = ["ENV_ID", "Game2048Env", "Game2048VectorEnv"]
