"""Atomic writes (py2048.files): a write replaces the whole file or nothing, whatever happens."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from py2048.files import LEFTOVER_AGE_S, TEMPORARY_PATTERN, atomic_write, remove_leftovers


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob(TEMPORARY_PATTERN))


def test_a_write_replaces_the_file_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    for text in (b"first", b"second"):
        with atomic_write(path) as handle:
            handle.write(text)
    assert path.read_bytes() == b"second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_missing_folders_are_created(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "w.npz"
    with atomic_write(path) as handle:
        handle.write(b"data")
    assert path.read_bytes() == b"data"


def test_an_error_while_writing_keeps_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "w.npz"
    target.write_bytes(b"previous")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write(b"partial")
        raise RuntimeError("disk full")
    assert target.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.npz"]


def test_a_rename_that_fails_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "game.json"
    target.write_bytes(b"previous")

    def power_cut(source: str, destination: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError, match="Input/output"), atomic_write(target) as handle:
        handle.write(b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"previous"
    assert leftovers(tmp_path) == []


def test_a_new_file_gets_the_permissions_open_would_give(tmp_path: Path) -> None:
    if os.name != "posix":
        pytest.skip("POSIX permissions")
    mask = os.umask(0o027)
    try:
        with atomic_write(tmp_path / "w.npz") as handle:
            handle.write(b"data")
        (tmp_path / "plain").write_bytes(b"data")
    finally:
        os.umask(mask)
    modes = {stat.S_IMODE((tmp_path / name).stat().st_mode) for name in ("w.npz", "plain")}
    assert modes == {0o640}


KILL_LOOP = """
import sys
from pathlib import Path
from py2048.files import atomic_write
path = Path(sys.argv[1])
texts = [b"A" * 300_000, b"B" * 200_000]
with atomic_write(path) as handle:
    handle.write(texts[0])
print("ready", flush=True)
n = 0
while True:
    n += 1
    with atomic_write(path) as handle:
        handle.write(texts[n % 2])
"""


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.013, 0.037])
def test_killing_the_program_during_writes_never_corrupts_the_file(
    tmp_path: Path, delay: float
) -> None:
    path = tmp_path / "game.json"
    child = subprocess.Popen(
        [sys.executable, "-c", KILL_LOOP, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert path.read_bytes() in (b"A" * 300_000, b"B" * 200_000)


def test_leftovers_of_ended_programs_go_at_once_and_others_when_old(tmp_path: Path) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    ).stdout.strip()
    files = {
        "ended": tmp_path / f".game.json.{ended}.abc123.tmp",
        "running": tmp_path / f".game.json.{os.getpid()}.def456.tmp",
        "unknown, young": tmp_path / ".game.json.ghi789.tmp",
        "unknown, old": tmp_path / ".w.npz.jkl012.tmp",
    }
    for path in files.values():
        path.write_bytes(b"partial")
    old = time.time() - 2 * LEFTOVER_AGE_S
    os.utime(files["unknown, old"], (old, old))
    removed = remove_leftovers(tmp_path)
    gone = {name for name, path in files.items() if not path.exists()}
    expected = {"unknown, old"} | ({"ended"} if os.name == "posix" else set())
    assert gone == expected and sorted(removed) == sorted(files[name] for name in gone)


def test_a_temporary_file_names_the_process_writing_it(tmp_path: Path) -> None:
    with atomic_write(tmp_path / "game.json") as handle:
        handle.write(b"x")
        assert leftovers(tmp_path)[0].startswith(f".game.json.{os.getpid()}.")
