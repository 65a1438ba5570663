"""Running a script first in a fresh process, with an empty numba cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_in_a_fresh_process(script: str, numba_base: Path) -> str:
    """Run ``script`` with ``python -c`` and numba's cache in the empty folder ``numba_base``;
    return what it printed, failing the test with its error output if it failed."""
    env = dict(os.environ, PY2048_NUMBA_BASE=str(numba_base))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()
