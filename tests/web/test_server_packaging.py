"""The wheel carries everything the server serves: the static files, the page template and
docs/solver.md where ``py2048.web.pages`` looks for it in an installed package."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from py2048.web.pages import SOLVER_DOC_PACKAGED, STATIC_DIR, TEMPLATE_PATH, WEB_DIR

PACKAGE_ROOT = WEB_DIR.parents[1]  # the folder holding py2048/
REPO_ROOT = PACKAGE_ROOT.parent


def wheel_name(path: Path) -> str:
    return path.relative_to(PACKAGE_ROOT).as_posix()


@pytest.mark.slow
def test_the_wheel_ships_the_pages_the_template_and_the_solver_doc(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    served = [p for p in STATIC_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert served
    for path in [*served, TEMPLATE_PATH]:
        assert wheel_name(path) in names
    assert wheel_name(SOLVER_DOC_PACKAGED) in names, "pyproject must force-include docs/solver.md"
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read(wheel_name(SOLVER_DOC_PACKAGED))
    assert shipped == (REPO_ROOT / "docs" / "solver.md").read_bytes()
