"""The batch API's and the vector environment's kernels, compiled first in a fresh process.

They are compiled without reference counting (py2048._uncounted), and so is every helper numba
compiles for them on first use: a helper that allocates or copies through a slice then fails to
compile. Whether it does depends on which kernel compiles it first in a process (a helper
already compiled with counting is reused), so this test starts a process with an empty numba
cache and calls each kernel before anything else can compile its helpers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fresh_process import run_in_a_fresh_process

SCRIPT = """
import numpy as np
from py2048.batch import Batch
from py2048.env import Game2048VectorEnv

for size in ("5x5", None, "3x4"):
    batch = Batch(6, seed=3, size=size)
    rows, cols = batch.size
    board = [[2 if (r, c) in ((0, 0), (0, 1)) else 0 for c in range(cols)] for r in range(rows)]
    batch.reset(seed=1, board=board)
    for _ in range(40):
        batch.step(np.arange(6) % 4, autoreset=True)
    assert batch.observe().shape[0] == 6 and batch.observe(onehot=True).shape[0] == 6
    batch.max_tiles(), batch.afterstates()
    for mode in ("NextStep", "SameStep", "Disabled"):
        for obs_mode in ("exponents", "onehot"):
            env = Game2048VectorEnv(
                4, size=size, obs_mode=obs_mode, autoreset_mode=mode, max_episode_steps=30
            )
            env.reset(seed=5)
            for step in range(60):
                _, _, terminated, truncated, _ = env.step(np.full(4, step % 4))
                if mode == "Disabled" and (terminated | truncated).any():
                    env.reset(options={"reset_mask": terminated | truncated})
print("ok")
"""


@pytest.mark.timeout(600)
def test_every_kernel_compiles_first_in_a_fresh_process(tmp_path: Path) -> None:
    assert run_in_a_fresh_process(SCRIPT, tmp_path / "numba") == "ok"
