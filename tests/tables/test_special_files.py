"""A named pipe, a device or a folder where a table's files belong is refused at once (reading a
named pipe would wait for a writer forever), and a tables folder that is a file is named."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from py2048.cli import main
from py2048.solver import endgame
from py2048.tables import TableError, open_table, table_path
from py2048.tables import formations as formations_module
from py2048.tables.builder import build_table
from py2048.tables.lookup import available_tables
from py2048.tables.storage import (
    ENVIRONMENT_VARIABLE,
    PARTIAL_SUFFIX,
    PAYLOAD_OFFSET,
    PROGRESS_SUFFIX,
    SEAL_SUFFIX,
)
from tests.tables.conftest import ROW3, SNAKE11

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
T = TypeVar("T")
PIPE = "it is a named pipe, not a regular file"


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    monkeypatch.setattr(formations_module, "FORMATIONS", [ROW3, SNAKE11])
    return tmp_path


def without_waiting(call: Callable[[], T], *pipes: Path) -> T:
    """``call()``'s answer; fails (after letting it go) if it waits on one of ``pipes``."""
    answers: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            answers.append(call())
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout=10)
    if worker.is_alive():  # the old behaviour: blocked opening a pipe; give it a writer
        for pipe in pipes:
            with contextlib.suppress(OSError):
                os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=10)
        pytest.fail(f"waited on a named pipe: {', '.join(map(str, pipes))}")
    if errors:
        raise errors[0]
    return answers[0]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["tables", *argv])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_a_named_pipe_as_a_table_is_refused_without_waiting(folder: Path) -> None:
    pipe = table_path(ROW3.name)
    os.mkfifo(pipe)

    def opened() -> str:
        with pytest.raises(TableError) as error:
            open_table(ROW3)
        return str(error.value)

    message = without_waiting(opened, pipe)
    assert str(pipe) in message and PIPE in message
    assert f"`2048 tables build {ROW3.name}`" in message
    assert without_waiting(available_tables, pipe) == []


def test_the_solver_leaves_a_named_pipe_out_and_goes_on(
    folder: Path, built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(table_path(SNAKE11.name, built), folder)
    pipe = table_path(ROW3.name)
    os.mkfifo(pipe)
    monkeypatch.setattr(formations_module, "FORMATIONS", [ROW3, SNAKE11])
    endgame.forget_tables()
    try:
        tables = without_waiting(endgame.endgame_tables, pipe)
    finally:
        endgame.forget_tables()
    assert SNAKE11.name in tables.names and ROW3.name not in tables.names


def test_a_named_pipe_as_a_seal_is_ignored(folder: Path, built: Path) -> None:
    shutil.copy(table_path(ROW3.name, built), folder)
    seal = table_path(ROW3.name).with_suffix(SEAL_SUFFIX)
    os.mkfifo(seal)
    table = without_waiting(lambda: open_table(ROW3), seal)
    assert table.header.entries == ROW3.entries


def test_list_verify_and_build_refuse_a_named_pipe_and_build_replaces_it(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # room for the state's words on one line
    pipe = table_path(ROW3.name)
    os.mkfifo(pipe)
    status, out = without_waiting(lambda: cli(capsys, "list"), pipe)
    assert status == 0 and "bad: it is a named pipe" in out, out
    status, out = without_waiting(lambda: cli(capsys, "verify"), pipe)
    assert status == 1 and f"BAD {ROW3.name}" in out and PIPE in out
    status, out = without_waiting(lambda: cli(capsys, "build", ROW3.name), pipe)
    assert status == 0 and f"the file is bad ({PIPE}); rebuilding" in out
    assert pipe.is_file()
    assert cli(capsys, "verify")[0] == 0


def test_a_named_pipe_as_a_build_record_is_not_trusted(
    folder: Path, built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = folder / f"{ROW3.name}{PROGRESS_SUFFIX}"
    os.mkfifo(record)
    status, out = without_waiting(lambda: cli(capsys, "list"), record)
    assert status == 0 and "not built" in out.split(ROW3.name)[1].splitlines()[0]
    status, out = without_waiting(lambda: cli(capsys, "build", ROW3.name), record)
    assert status == 0
    payload = table_path(ROW3.name).read_bytes()[PAYLOAD_OFFSET:]
    assert payload == table_path(ROW3.name, built).read_bytes()[PAYLOAD_OFFSET:]
    assert not record.exists()


def test_a_named_pipe_as_a_partial_build_is_refused(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    partial = folder / f"{ROW3.name}{PARTIAL_SUFFIX}"
    os.mkfifo(partial)
    status, out = without_waiting(lambda: cli(capsys, "build", ROW3.name), partial)
    assert status == 2
    assert f"{partial} is not a regular file: remove it" in out
    with pytest.raises(ValueError, match="not a regular file"):
        without_waiting(lambda: build_table(ROW3, folder), partial)


@pytest.mark.parametrize("command", ["list", "verify"])
def test_a_tables_folder_that_is_a_file_is_named_and_exits_1(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    a_file = tmp_path / "tables"
    a_file.write_text("my notes")
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(a_file))
    status, out = cli(capsys, command)
    assert status == 1
    assert f"the tables' folder {a_file} (set by --dir or ${ENVIRONMENT_VARIABLE}) is a file" in out
    assert "No table is built" not in out
    assert a_file.read_text() == "my notes"
