"""The source as a newcomer reads it: short argument lists (records instead of long ones)."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "py2048"

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
