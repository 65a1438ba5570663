"""The package as users build on it: its public names, and the type information it ships."""

from __future__ import annotations

import importlib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGE = REPO_ROOT / "src" / "py2048"

PUBLIC_API = {
    "py2048": {
        "BoardError",
        "Direction",
        "Game",
        "GameError",
        "MoveResult",
        "SaveError",
        "__version__",
        "can_move",
        "slide",
    },
    "py2048.solver": {
        "DEFAULT_PRESET",
        "MAX_DEPTH",
        "PRESETS",
        "REVIEW_SETTINGS",
        "Evaluator",
        "GameReview",
        "Hint",
        "MoveReview",
        "Preset",
        "ReviewSetting",
        "available_evaluators",
        "best_move",
        "get_evaluator",
        "register_evaluator",
        "review",
    },
    "py2048.env": {"ENV_ID", "Game2048Env", "Game2048VectorEnv"},
    "py2048.batch": {
        "STATE_COLUMNS",
        "STATE_HI",
        "STATE_KEY",
        "STATE_LO",
        "STATE_MOVES",
        "STATE_SCORE",
        "STATE_SEED",
        "Afterstates",
        "Batch",
        "SeedLike",
        "StepResult",
        "next_seed",
    },
}
"""Every public name, written out: a name that disappears or appears by accident fails."""


def public_module(name: str) -> ModuleType:
    if name == "py2048.env":
        pytest.importorskip("gymnasium")
    return importlib.import_module(name)


@pytest.mark.parametrize("name", sorted(PUBLIC_API))
def test_the_public_names_are_exactly_the_documented_ones(name: str) -> None:
    module = public_module(name)
    assert len(module.__all__) == len(set(module.__all__)), "a name is listed twice"
    assert set(module.__all__) == PUBLIC_API[name]


@pytest.mark.parametrize("name", sorted(PUBLIC_API))
def test_every_public_name_exists(name: str) -> None:
    module = public_module(name)
    missing = [attribute for attribute in module.__all__ if not hasattr(module, attribute)]
    assert not missing
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)
    assert set(module.__all__) <= set(namespace)


def test_the_package_says_it_is_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


@pytest.mark.slow
def test_the_wheel_ships_py_typed(wheel: Path) -> None:
    assert "py2048/py.typed" in zipfile.ZipFile(wheel).namelist()


@pytest.mark.slow
def test_the_wheel_ships_the_network_and_the_compact_endgame_table(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "py2048/evaluation/weights/ntuple-4x6.npz" in names
    assert "py2048/tables/data/compact.npz" in names


def test_the_shipped_compact_table_reads_and_fits_in_10_mb() -> None:
    from py2048.tables.compact import shipped_compact_tables, shipped_path

    compact = shipped_compact_tables()
    assert compact is not None and len(compact.keys) > 0
    assert shipped_path().stat().st_size <= 10_000_000
