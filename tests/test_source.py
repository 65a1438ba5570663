"""The source as a newcomer reads it: short argument lists (records instead of long ones), and
every fact that several parts share written in one place."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

import py2048

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCE = REPO_ROOT / "src" / "py2048"

MAX_PARAMETERS = 10
"""A kernel that needs more takes records (typed NamedTuples), as ``solver/search.py`` does."""


def _parameter_count(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> int:
    args = function.args
    stars = (args.vararg is not None) + (args.kwarg is not None)
    return len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs) + stars


def _functions() -> list[tuple[str, int]]:
    """Every function, method and lambda of the package: ``(where, parameters)``."""
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                name = getattr(node, "name", "lambda")
                where = f"{path.relative_to(SOURCE.parent)}:{node.lineno} {name}"
                found.append((where, _parameter_count(node)))
    return found


def test_the_parameter_count_sees_every_kind_of_parameter() -> None:
    tree = ast.parse("def f(a, /, b, *c, d, **e): pass")
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    assert _parameter_count(function) == 5


def test_no_function_takes_more_than_ten_parameters() -> None:
    functions = _functions()
    assert len(functions) > 500  # the whole package was read
    too_long = [f"{where} ({count})" for where, count in functions if count > MAX_PARAMETERS]
    assert not too_long, "use records (typed NamedTuples): " + ", ".join(too_long)


def _python_files() -> dict[str, str]:
    """Every Python file of the package and of benchmarks/, by path from the repository root."""
    paths = sorted(SOURCE.rglob("*.py")) + sorted((REPO_ROOT / "benchmarks").rglob("*.py"))
    return {str(p.relative_to(REPO_ROOT)): p.read_text(encoding="utf-8") for p in paths}


SHARED_FACTS = {
    # fact: (a pattern that defines it, the one file allowed to)
    "the spawn odds": (r"\b0\.9\b[^\n]*\b0\.1\b|=\s*0\.9\s*$", "src/py2048/engine/rng.py"),
    "the history letters": (r"URDL", None),
    "the tui's arrows": (r"^ARROWS\s*=", "src/py2048/tui/palette.py"),
    "the board size": (r"^SIZE\s*=", "src/py2048/engine/board.py"),
    "the tiles' colours": (r"#edc22e|#3c3a32|#eee4da", "src/py2048/palette.py"),
    "the solver warm-up": (r"solver-warm-up", "src/py2048/solver/warmup.py"),
    "the version": (r"^__version__\s*=", "src/py2048/__init__.py"),
    "an integer that is not a bool": (
        r"isinstance\((\w+), bool\)[^\n]*isinstance\(\1, (?:int|\(int, np\.integer\))\)"
        r"|isinstance\((\w+), (?:int|\(int, np\.integer\))\)[^\n]*isinstance\(\2, bool\)",
        "src/py2048/engine/integers.py",
    ),
}
"""``None``: derived everywhere (the letters come from ``Direction``), written nowhere."""

CHARTS_MAY_SHARE = {"the tiles' colours"}
"""Facts that benchmarks/ may restate: its charts draw lines in some of the tiles' colours."""

NOT_YET_ONE_SOURCE: set[tuple[str, str]] = set()
"""Copies still to replace by an import: none."""


def _comment_free(text: str) -> str:
    """The code without its docstrings and comments, which may state a fact they explain."""
    kept = []
    tree = ast.parse(text)
    docstrings = {
        node.body[0].value.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    strings = {
        line
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    for number, line in enumerate(text.splitlines(), start=1):
        if number in strings or number in docstrings:
            continue
        kept.append(line.split("  #")[0])
    return "\n".join(kept)


@pytest.mark.parametrize("fact", sorted(SHARED_FACTS))
def test_a_shared_fact_is_written_in_one_place(fact: str) -> None:
    pattern, home = SHARED_FACTS[fact]
    found = {
        path
        for path, text in _python_files().items()
        if re.search(pattern, _comment_free(text), re.MULTILINE)
        and not (fact in CHARTS_MAY_SHARE and path.startswith("benchmarks/"))
    }
    copies = found - {home} - {path for name, path in NOT_YET_ONE_SOURCE if name == fact}
    assert not copies, f"{fact} is written again in {sorted(copies)}: import it from {home}"
    if home is not None:
        assert home in found, f"{fact} is no longer where this test looks for it"


def test_the_integer_pattern_finds_both_spellings() -> None:
    pattern = SHARED_FACTS["an integer that is not a bool"][0]
    assert re.search(pattern, "if isinstance(n, bool) or not isinstance(n, (int, np.integer)):")
    assert re.search(pattern, "ok = isinstance(n, int) and not isinstance(n, bool)")
    assert not re.search(pattern, "if isinstance(flag, bool) or not isinstance(other, int):")
    assert not re.search(pattern, "isinstance(t, bool) or not isinstance(t, (int, float))")


def test_the_spawn_odds_pattern_finds_a_copy() -> None:
    pattern = SHARED_FACTS["the spawn odds"][0]
    assert re.search(pattern, "for e, p in ((1, 0.9), (2, 0.1)):")
    assert re.search(pattern, "SPAWN_2 = 0.9", re.MULTILINE)


def test_the_version_is_written_once_and_installed_as_written() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert importlib.metadata.version("py2048") == py2048.__version__


def _imported_packages(package: str) -> set[str]:
    """The py2048 packages that the modules of ``package`` import (at any level)."""
    found = set()
    for path in (SOURCE / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            found |= {name.split(".")[1] for name in names if name.startswith("py2048.")}
    return found - {package}


def test_the_engine_imports_nothing_of_ours() -> None:
    assert _imported_packages("engine") == set()


def test_evaluation_and_tables_sit_side_by_side_on_the_engine() -> None:
    assert "tables" not in _imported_packages("evaluation")
    assert "evaluation" not in _imported_packages("tables")


NOT_YET_ONE_NAME: set[str] = set()
"""Class names still defined twice: none."""


def test_no_two_classes_of_the_package_share_a_name() -> None:
    where: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(str(path.relative_to(SOURCE)))
    assert "Advice" in where and "TableAnswer" in where  # the package was read
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert set(twice) <= NOT_YET_ONE_NAME, f"one name, one thing: {twice}"


def test_no_class_is_defined_inside_a_function() -> None:
    """A class stands at a module's top level, where a reader finds it (and so do the tests)."""
    nested = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                nested += [
                    f"{path.relative_to(SOURCE)}:{inner.lineno} {inner.name} in {node.name}"
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.ClassDef)
                ]
    assert not nested


def test_the_engine_knows_nothing_of_learners() -> None:
    """What a learner observes of a game lives in ``py2048/observation.py``, not in the rules."""
    found = []
    for path in sorted((SOURCE / "engine").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names = []
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [target.id for target in node.targets if isinstance(target, ast.Name)]
            found += [
                f"{path.name}: {name}"
                for name in names
                if re.search("observ|onehot|mask_row", name, re.IGNORECASE)
            ]
    assert not found
