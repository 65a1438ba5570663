"""``2048 distill`` refuses, with exit status 1 and no file, when it has nothing to distil."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from py2048.tables import get_formation
from py2048.tables.builder import build_table


def distill(tables: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "py2048", "distill", "--workers", "1", "--out", str(out)]
    env = {**os.environ, "PY2048_TABLES_DIR": str(tables)}
    return subprocess.run(
        [*argv, *args], capture_output=True, text=True, env=env, timeout=300, check=False
    )


def test_without_a_built_table_nothing_is_written(tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    out = tmp_path / "compact.npz"
    done = distill(tables, out, "--games", "1")
    assert done.returncode == 1, done.stderr
    assert done.stderr == "2048 distill: no endgame table is built: run 2048 tables build first\n"
    assert done.stdout == "" and not out.exists()


@pytest.mark.slow
def test_games_that_reach_no_built_table_write_no_empty_file(tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    build_table(get_formation("snake8-128"), tables)  # 1.5 s; its chain of eight needs a 16384
    out = tmp_path / "compact.npz"
    # the d0 game of c-rand seed 100002 ends at 8192, so it never reaches the table
    done = distill(tables, out, "--games", "1", "--depth", "0", "--seed", "100002")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(
        "2048 distill: nothing to distil: 1 game(s) at d0 reached no position of the built "
        f"tables (snake8-128), so {out} was not written."
    )
    assert done.stdout == "" and not out.exists()
