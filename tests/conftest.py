"""Fixtures shared by tests in more than one folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """py2048's wheel, built once per test session from this checkout."""
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO_ROOT), "--no-deps",
         "--no-build-isolation", "-q", "-w", str(folder)],
        check=True,
        timeout=300,
    )  # fmt: skip
    (built,) = folder.glob("py2048-*.whl")
    return built
