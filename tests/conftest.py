"""Fixtures shared by tests in more than one folder."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from py2048.learn.network import NTupleNetwork

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def no_user_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The solver's tests see no endgame tables but those a test builds: the developer's own
    tables (in the user cache) would change what a search answers."""
    folder = tmp_path_factory.mktemp("no-tables")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PY2048_TABLES_DIR", str(folder))
        yield


@pytest.fixture(autouse=True, scope="session")
def no_user_networks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The solver's tests play with the shipped network: a stronger one the developer
    installed (``2048 train install``, in the user cache) would change what a search answers."""
    folder = tmp_path_factory.mktemp("no-networks")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PY2048_NETWORKS_DIR", str(folder))
        yield


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


@pytest.fixture(name="random_network")
def random_network_fixture() -> NTupleNetwork:
    """A small network with arbitrary non-zero weights (:func:`tests.networks.random_network`)."""
    from tests.networks import random_network

    return random_network()
