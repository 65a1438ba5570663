"""A disk too small for a table stops its build at the start with a message (exit status 1),
not with SIGBUS from a write through the memory map, and loses nothing."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from py2048.cli import main
from py2048.tables import builder, table_path
from py2048.tables.builder import build_table, partial_layers
from py2048.tables.formations import get_formation
from py2048.tables.storage import PAYLOAD_OFFSET, partial_path
from tests.tables.conftest import SNAKE11

SMALLEST = get_formation("snake8-128")
"""The smallest built-in table (5.8 million positions, 11.5 MB): `2048 tables build` takes names."""


def mount_tmpfs(where: Path, size: str, *, remount: bool = False) -> bool:
    options = f"remount,size={size}" if remount else f"size={size}"
    command = ["mount", "-t", "tmpfs", "-o", options, f"py2048-{uuid.uuid4().hex[:8]}", str(where)]
    try:
        done = subprocess.run(command, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs (root only; skipped where it cannot be mounted)."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.name != "posix" or os.geteuid() != 0 or not mount_tmpfs(where, "1m"):
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30, check=False)


def tables_build(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "py2048", "tables", "build", SMALLEST.name, "--dir", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_a_disk_too_small_stops_the_build_with_a_message_and_it_builds_once_there_is_room(
    small_disk: Path,
) -> None:
    done = tables_build(small_disk)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)  # not -7, SIGBUS
    partial = partial_path(SMALLEST.name, small_disk)
    assert f"No space left on device (the table needs 11.5 MB there): {partial}" in done.stdout
    assert f"The work so far is kept in {small_disk} ({SMALLEST.name}.partial)" in done.stdout
    assert f"run `2048 tables build {SMALLEST.name}` again to resume" in done.stdout
    assert partial.stat().st_blocks == 0  # the failed reservation holds no space
    assert mount_tmpfs(small_disk, "16m", remount=True)
    done = tables_build(small_disk)
    assert done.returncode == 0, (done.stdout, done.stderr)
    path = table_path(SMALLEST.name, small_disk)
    assert path.stat().st_size == PAYLOAD_OFFSET + 2 * SMALLEST.entries
    assert not partial.exists()


def no_space(descriptor: int, offset: int, length: int) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_refused_reservation_names_the_file_and_what_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "posix_fallocate", no_space, raising=False)
    monkeypatch.setattr(builder, "_solve_layer", None)  # nothing may be solved
    partial = partial_path(SNAKE11.name, tmp_path)
    with pytest.raises(OSError) as error:
        build_table(SNAKE11, tmp_path)
    assert error.value.errno == errno.ENOSPC
    assert error.value.filename == str(partial)
    assert f"the table needs {(PAYLOAD_OFFSET + 2 * SNAKE11.entries) / 1e6:.1f} MB" in str(
        error.value
    )
    assert partial.stat().st_size == 0  # emptied: a fresh build keeps no blocks
    assert partial_layers(SNAKE11, tmp_path) is None


def test_a_refused_reservation_on_resuming_keeps_the_layers_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = build_table(SNAKE11, tmp_path / "whole").read_bytes()[PAYLOAD_OFFSET:]
    solve = builder._solve_layer
    calls: list[int] = []

    def interrupted(*args: object) -> None:
        calls.append(1)
        if len(calls) > 4:
            raise KeyboardInterrupt
        solve(*args)

    monkeypatch.setattr(builder, "_solve_layer", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_table(SNAKE11, tmp_path)
    layers = partial_layers(SNAKE11, tmp_path)
    assert layers is not None and layers > 0
    kept = partial_path(SNAKE11.name, tmp_path).read_bytes()
    monkeypatch.setattr(builder, "_solve_layer", None)  # nothing may be solved
    monkeypatch.setattr(os, "posix_fallocate", no_space, raising=False)
    with pytest.raises(OSError, match="No space left on device"):
        build_table(SNAKE11, tmp_path)
    assert partial_layers(SNAKE11, tmp_path) == layers
    assert partial_path(SNAKE11.name, tmp_path).read_bytes() == kept
    # a forced rebuild that cannot reserve leaves no record of the old build's layers
    with pytest.raises(OSError, match="No space left on device"):
        build_table(SNAKE11, tmp_path, restart=True)
    assert partial_layers(SNAKE11, tmp_path) is None
    monkeypatch.undo()
    assert build_table(SNAKE11, tmp_path).read_bytes()[PAYLOAD_OFFSET:] == whole


def test_build_help_says_what_a_stopped_build_keeps(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tables", "build", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "resumes where it stopped" not in text  # a kill does not: it loses recent work
    for case in ("Ctrl-C", "a full disk", "killed", "loses at most the layer it was solving"):
        assert case in text
