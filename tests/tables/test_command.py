"""`2048 tables build / list / verify` on small formations in a temporary folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from py2048.cli import main
from py2048.tables import builder, table_path
from py2048.tables import formations as formations_module
from py2048.tables.storage import ENVIRONMENT_VARIABLE, PAYLOAD_OFFSET, read_header
from tests.tables.conftest import ROW3, SNAKE11


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tables go to a temporary PY2048_TABLES_DIR; the known formations are two small ones."""
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    monkeypatch.setattr(formations_module, "FORMATIONS", [ROW3, SNAKE11])
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["tables", *argv])
    return status, capsys.readouterr().out


def test_build_list_and_verify(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "list")
    assert status == 0
    assert f"Endgame tables in {folder}" in out
    assert out.count("not built") == 2
    assert "What each table was measured to add" not in out  # these two were never measured

    status, out = run(capsys, "build", ROW3.name)
    assert status == 0
    assert f"{ROW3.name}: built in" in out
    assert table_path(ROW3.name).stat().st_size == PAYLOAD_OFFSET + 2 * ROW3.entries
    assert not table_path(SNAKE11.name).exists()

    status, out = run(capsys, "build", ROW3.name)
    assert (status, "already built" in out) == (0, True)

    status, out = run(capsys, "list")
    assert out.count("not built") == 1
    row = out.split(ROW3.name)[1].splitlines()[0]
    assert "built" in row
    memory = read_header(table_path(ROW3.name)).peak_memory
    if builder.reset_peak_memory():  # Linux: the build's peak memory is recorded and listed
        assert memory is not None and memory > 0
        below = out.split(ROW3.name)[1].splitlines()[1]
        assert re.search(r"\d s ", row) and re.search(r"\d+\.\d [MG]B", below)

    status, out = run(capsys, "verify")
    assert status == 0
    assert f"ok  {ROW3.name}" in out
    assert SNAKE11.name not in out  # not built: nothing to verify


def test_the_list_says_what_each_table_was_measured_to_add(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        formations_module, "MEASURED", {ROW3.name: "one finding", SNAKE11.name: "one finding"}
    )
    out = run(capsys, "list")[1]
    assert "What each table was measured to add" in out
    assert f"- {ROW3.name}, {SNAKE11.name}: one finding" in out  # measured together: one line


def test_build_without_names_builds_the_default_set(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run(capsys, "build")
    assert status == 0
    assert f"Building the default tables: {ROW3.name}, {SNAKE11.name}" in out
    assert table_path(ROW3.name).exists() and table_path(SNAKE11.name).exists()


def test_verify_reports_a_bad_file_and_exits_1(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "build", ROW3.name, SNAKE11.name)[0] == 0
    path = table_path(SNAKE11.name)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    status, out = run(capsys, "verify")
    assert status == 1
    assert f"ok  {ROW3.name}" in out
    assert f"BAD {SNAKE11.name}" in out
    assert "corrupted: its contents do not match its checksum. Rebuild it with" in out
    assert f"`2048 tables build {SNAKE11.name}`" in out
    assert "1 of 2 tables are bad" in out
    # build replaces the bad file
    status, out = run(capsys, "build", SNAKE11.name)
    assert status == 0 and "the file is bad" in out
    assert run(capsys, "verify")[0] == 0


def test_a_truncated_file_shows_in_the_list(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "build", ROW3.name)[0] == 0
    with open(table_path(ROW3.name), "r+b") as handle:
        handle.truncate(PAYLOAD_OFFSET + 10)
    status, out = run(capsys, "list")
    assert status == 0 and "bad: wrong size" in out


def test_verify_of_a_table_not_built_says_how_to_build_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(capsys, "verify", ROW3.name)
    assert status == 1
    assert f"not built. Build it with `2048 tables build {ROW3.name}`" in out


def test_ctrl_c_leaves_a_build_that_resumes(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = builder.build_table(SNAKE11, folder / "whole").read_bytes()[PAYLOAD_OFFSET:]
    solve = builder._solve_layer
    calls = []

    def interrupted(*args: object) -> None:
        calls.append(1)
        if len(calls) > 6:
            raise KeyboardInterrupt
        solve(*args)

    monkeypatch.setattr(builder, "_solve_layer", interrupted)
    status, out = run(capsys, "build", SNAKE11.name)
    assert status == 130
    assert f"run `2048 tables build {SNAKE11.name}` again to resume" in out
    assert "stopped at layer" in run(capsys, "list")[1]
    monkeypatch.setattr(builder, "_solve_layer", solve)
    status, out = run(capsys, "build", SNAKE11.name)
    assert status == 0
    assert "resuming a stopped build" in out
    assert table_path(SNAKE11.name).read_bytes()[PAYLOAD_OFFSET:] == whole


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["build", "snake99-64"], "unknown table 'snake99-64'; the tables are: row3-16"),
        (["verify", "nope"], "unknown table 'nope'"),
    ],
)
def test_an_unknown_table_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["tables", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv", [[], ["build", "--threads", "0"], ["rebuild"]])
def test_bad_arguments_get_a_usage_error(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tables", *argv])
    assert exit_.value.code == 2


def test_a_tables_folder_that_is_a_file_is_refused_with_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a_file = tmp_path / "tables"
    a_file.write_text("my notes")
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(a_file))
    assert main(["tables", "build", ROW3.name]) == 2
    assert f"the tables' folder {a_file}" in capsys.readouterr().err
    assert a_file.read_text() == "my notes"
    assert main(["tables", "build", "--dir", str(a_file / "below"), ROW3.name]) == 2
    assert f"cannot make the tables' folder {a_file / 'below'}" in capsys.readouterr().err


def test_a_full_disk_stops_the_build_with_a_message_and_it_resumes(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    solve = builder._solve_layer
    calls = []

    def disk_full(*args: object) -> None:
        calls.append(1)
        if len(calls) > 6:
            raise OSError(28, "No space left on device", str(folder / "snake11.partial"))
        solve(*args)

    monkeypatch.setattr(builder, "_solve_layer", disk_full)
    status, out = run(capsys, "build", SNAKE11.name)
    assert status == 1
    assert f"(No space left on device: {folder / 'snake11.partial'})" in out
    assert f"run `2048 tables build {SNAKE11.name}` again to resume" in out
    monkeypatch.setattr(builder, "_solve_layer", solve)
    status, out = run(capsys, "build", SNAKE11.name)
    assert status == 0 and "resuming a stopped build" in out
    assert run(capsys, "verify")[0] == 0
