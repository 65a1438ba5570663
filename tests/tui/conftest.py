"""Fixtures of the terminal game's tests: a data directory per test, asyncio for the pilot."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "py2048-data"
