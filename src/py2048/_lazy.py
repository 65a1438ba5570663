"""Names a package loads on first use, each written once: in the package's ``if TYPE_CHECKING:``
imports.

A package whose names need slow modules (compiled kernels, FastAPI) imports those names under
``if TYPE_CHECKING:``, where type checkers and readers see them with their types, and ends with
``__getattr__, __dir__, lazy = lazy_names(__name__)`` with ``lazy`` in its ``__all__``. The
first time such a name is asked for, the module its ``from ... import`` statement names is
imported and the name is kept in the package. Every import stays an ordinary statement (the
import graph shows it); nothing else lists the names, so the imports, ``__all__`` and the
loader cannot disagree.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from typing import Any


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def lazy_sources(source: str) -> dict[str, str]:
    """``{name: module}`` for every ``from module import name`` under ``if TYPE_CHECKING:``."""
    sources: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and _is_type_checking(node.test)):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom) or not statement.module:
                raise ValueError("only 'from module import name' may stand under TYPE_CHECKING")
            for alias in statement.names:
                name = alias.asname or alias.name
                if name in sources:
                    raise ValueError(f"{name!r} is imported twice under TYPE_CHECKING")
                sources[name] = statement.module
    return sources


def lazy_names(
    package: str,
) -> tuple[Callable[[str], Any], Callable[[], list[str]], tuple[str, ...]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (being imported), and its lazy names."""
    module = sys.modules[package]
    spec = module.__spec__
    text = spec.loader.get_source(package) if spec and spec.loader else None  # type: ignore[attr-defined]
    if text is None:
        raise ImportError(f"{package} needs its source to find the names it loads on first use")
    sources = lazy_sources(text)
    namespace = vars(module)

    def __getattr__(name: str) -> Any:
        if name not in sources:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(sources[name]), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(sources))

    return __getattr__, __dir__, tuple(sources)
