"""The wheel carries everything the server serves: the static files, the page frame and the
pages' content, and the documents of docs/ it reads, where ``py2048.web.docs`` looks for them in
an installed package."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from py2048.web.docs import DOCS_PACKAGED, SHIPPED
from py2048.web.frame import CONTENT_DIR, STATIC_DIR, TEMPLATE_PATH, WEB_DIR

PACKAGE_ROOT = WEB_DIR.parents[1]  # the folder holding py2048/
REPO_ROOT = PACKAGE_ROOT.parent


def wheel_name(path: Path) -> str:
    return path.relative_to(PACKAGE_ROOT).as_posix()


@pytest.mark.slow
def test_the_wheel_ships_the_pages_the_template_and_the_solver_doc(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    served = [p for p in STATIC_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert served
    for path in [*served, *CONTENT_DIR.glob("*.html"), TEMPLATE_PATH]:
        assert wheel_name(path) in names
    for name in SHIPPED:
        packaged = wheel_name(DOCS_PACKAGED / name)
        assert packaged in names, f"pyproject must force-include docs/{name}"
        with zipfile.ZipFile(wheel) as archive:
            assert archive.read(packaged) == (REPO_ROOT / "docs" / name).read_bytes()


@pytest.mark.slow
def test_the_wheel_ships_no_developer_document(wheel: Path) -> None:
    """Of docs/, the wheel carries only what the server reads: the solver reference, the
    results record and the other developer pages stay in the source."""
    names = set(zipfile.ZipFile(wheel).namelist())
    docs = wheel_name(DOCS_PACKAGED) + "/"
    shipped_docs = {name for name in names if name.endswith(".md") or name.startswith(docs)}
    assert shipped_docs == {wheel_name(DOCS_PACKAGED / name) for name in SHIPPED}
