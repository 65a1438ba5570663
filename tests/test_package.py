"""The package as users build on it: its public names, and the type information it ships."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from py2048._lazy import lazy_sources

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGE = REPO_ROOT / "src" / "py2048"

PUBLIC_API = {
    "py2048": {
        "BoardError",
        "BoardSize",
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
    "py2048.engine": {
        "SIZES",
        "BoardError",
        "BoardSize",
        "Direction",
        "Game",
        "GameError",
        "MoveResult",
        "SaveError",
        "TileMotion",
        "can_move",
        "slide",
        "trace",
    },
    "py2048.evaluation": {
        "DEFAULT_EVALUATOR",
        "KERNEL_SIGNATURE",
        "Evaluator",
        "available_evaluators",
        "get_evaluator",
        "register_evaluator",
    },
    "py2048.tables": {
        "FORMATIONS",
        "BuildProgress",
        "Formation",
        "Table",
        "TableAnswer",
        "TableError",
        "available_tables",
        "best_table_move_values",
        "build_table",
        "default_formations",
        "get_formation",
        "open_table",
        "table_move_values",
        "table_path",
        "tables_dir",
    },
    "py2048.learn": {
        "DEFAULT_TUPLES",
        "GameResult",
        "NTupleNetwork",
        "Trainer",
        "TrainingConfig",
        "WeightsError",
        "load_weights",
        "parse_tuples",
        "play_greedy",
        "save_weights",
    },
    "py2048.env": {"ENV_ID", "Game2048Env", "Game2048VectorEnv"},
    "py2048.web": {"create_app"},
    "py2048.tui": set(),
    "py2048.tui.screens": set(),
    "py2048.tui.widgets": set(),
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
"""Every public name of every package (and of ``py2048.batch``), written out: a name that
disappears or appears by accident fails. ``docs/api-surface.md`` says what else is public."""

PACKAGES = sorted(
    ".".join(path.parent.relative_to(PACKAGE.parent).parts) for path in PACKAGE.rglob("__init__.py")
)
LAZY_PACKAGES = ("py2048.solver", "py2048.tables", "py2048.web")
"""The packages that load some names on first use (``py2048._lazy``)."""


def public_module(name: str) -> ModuleType:
    if name == "py2048.env":
        pytest.importorskip("gymnasium")
    return importlib.import_module(name)


@pytest.mark.parametrize("name", sorted(PUBLIC_API))
def test_the_public_names_are_exactly_the_documented_ones(name: str) -> None:
    module = public_module(name)
    assert len(module.__all__) == len(set(module.__all__)), "a name is listed twice"
    assert set(module.__all__) == PUBLIC_API[name]


def test_every_package_has_its_public_names_pinned() -> None:
    assert "py2048.tables" in PACKAGES and "py2048.tui.widgets" in PACKAGES
    assert set(PACKAGES) <= set(PUBLIC_API)
    for name in PACKAGES:
        source = (PACKAGE.parent / name.replace(".", "/") / "__init__.py").read_text("utf-8")
        assert "__all__" in source, f"{name} does not say which names are public"


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_a_package_loads_a_lazy_name_from_the_import_that_declares_it(name: str) -> None:
    source = (PACKAGE.parent / name.replace(".", "/") / "__init__.py").read_text("utf-8")
    sources = lazy_sources(source)
    module = public_module(name)
    assert set(sources) <= set(module.__all__)
    assert set(sources) <= set(dir(module))
    for attribute, origin in sources.items():
        assert getattr(module, attribute) is getattr(importlib.import_module(origin), attribute)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = module.nothing_here


def test_a_lazy_name_is_written_once() -> None:
    """In the package's ``if TYPE_CHECKING:`` imports, and nowhere else in its ``__init__``."""
    for name in LAZY_PACKAGES:
        source = (PACKAGE.parent / name.replace(".", "/") / "__init__.py").read_text("utf-8")
        tree = ast.parse(source)
        for attribute in lazy_sources(source):
            strings = [
                node
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and node.value == attribute
            ]
            assert not strings, f"{name}.{attribute} is written again as a string"


def test_the_lazy_imports_accept_only_from_imports() -> None:
    assert lazy_sources("if TYPE_CHECKING:\n    from a.b import c as c, d\n") == {
        "c": "a.b",
        "d": "a.b",
    }
    with pytest.raises(ValueError, match="only 'from module import name'"):
        lazy_sources("if TYPE_CHECKING:\n    import a\n")
    with pytest.raises(ValueError, match="twice"):
        lazy_sources("if TYPE_CHECKING:\n    from a import c\n    from b import c\n")


def test_a_lazy_name_loads_only_its_own_module() -> None:
    script = (
        "import sys\n"
        "from py2048.tables import build_table\n"
        "print('py2048.tables.lookup' in sys.modules, 'py2048.tables.builder' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


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
    assert "py2048/evaluation/weights/ntuple-8x6.npz" in names
    assert "py2048/evaluation/weights/ntuple-8x6.json" in names  # its measured strength
    assert "py2048/tables/data/compact.npz" in names


@pytest.mark.slow
def test_the_wheel_stays_within_100_mb(wheel: Path) -> None:
    assert wheel.stat().st_size <= 100_000_000  # the shipped network must fit (docs/ntuple.md)


def test_the_shipped_compact_table_reads_and_fits_in_10_mb() -> None:
    from py2048.tables.compact import shipped_compact_tables, shipped_path

    compact = shipped_compact_tables()
    assert compact is not None and len(compact.keys) > 0
    assert shipped_path().stat().st_size <= 10_000_000


def _internal_imports_without_a_reason(path: Path) -> list[str]:
    """The ``from py2048.x.y import`` statements of a script, outside the public packages,
    with no ``# internal: why`` comment (of one line or more) above them, or above the imports
    they stand among."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    import_lines = {
        line
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    unexplained = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.module):
            continue
        if not node.module.startswith("py2048") or node.module in PUBLIC_API:
            continue
        line = node.lineno - 1
        while line in import_lines:
            line -= 1
        comment = []
        while line >= 1 and lines[line - 1].strip().startswith("#"):
            comment.insert(0, lines[line - 1].strip())
            line -= 1
        if not (comment and comment[0].startswith("# internal")):
            unexplained.append(f"{path.name}:{node.lineno} {node.module}")
    return unexplained


def test_the_benchmarks_use_the_public_names_or_say_why_not() -> None:
    scripts = sorted((REPO_ROOT / "benchmarks").glob("*.py"))
    assert scripts
    unexplained = [where for path in scripts for where in _internal_imports_without_a_reason(path)]
    assert not unexplained, "import the public names, or say '# internal: why' above"
