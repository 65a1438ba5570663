"""A table file that is missing, cut short, corrupted or of another formation is never used."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from py2048.tables import Formation, TableError, open_table, storage, table_path, tables_dir
from py2048.tables.ranking import layer_starts
from py2048.tables.storage import (
    ENVIRONMENT_VARIABLE,
    PAYLOAD_OFFSET,
    SEAL_SUFFIX,
    read_header,
    verify_file,
)
from tests.tables.conftest import ROW3, ROW3_32


@pytest.fixture
def copy(built: Path, tmp_path: Path) -> Path:
    """A folder with a copy of ROW3's table, free to damage."""
    shutil.copy(table_path(ROW3.name, built), tmp_path)
    return tmp_path


def refused(folder: Path, formation: Formation = ROW3) -> str:
    with pytest.raises(TableError) as error:
        open_table(formation, folder)
    message = str(error.value)
    assert str(table_path(formation.name, folder)) in message
    assert f"`2048 tables build {formation.name}`" in message
    return message


def test_a_good_file_opens_read_only_and_says_what_it_holds(copy: Path) -> None:
    table = open_table(ROW3, copy)
    assert table.values.size == ROW3.entries
    assert not table.values.flags.writeable
    header = read_header(table.path)
    assert (header.formation, header.entries, header.build_seconds) == (ROW3, 256, 0.0)
    assert header.checksum.startswith("blake2b-256-layers:")
    assert table.path.stat().st_size == PAYLOAD_OFFSET + 2 * 256


def test_a_truncated_file_is_refused(copy: Path) -> None:
    path = table_path(ROW3.name, copy)
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size - 2)
    assert "truncated" in refused(copy)


def test_a_longer_file_is_refused(copy: Path) -> None:
    with open(table_path(ROW3.name, copy), "ab") as handle:
        handle.write(b"\0\0")
    assert "longer than its header says" in refused(copy)


@pytest.mark.parametrize("offset", [PAYLOAD_OFFSET, PAYLOAD_OFFSET + 300, PAYLOAD_OFFSET + 511])
def test_one_changed_byte_of_the_values_is_refused(copy: Path, offset: int) -> None:
    path = table_path(ROW3.name, copy)
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))
    assert "corrupted" in refused(copy)


def flip_a_value_byte(path: Path, keep_times: bool = False) -> None:
    """Change one payload byte in place, optionally setting the modification time back."""
    before = path.stat()
    with open(path, "r+b") as handle:
        handle.seek(PAYLOAD_OFFSET + 7)
        byte = handle.read(1)[0]
        handle.seek(PAYLOAD_OFFSET + 7)
        handle.write(bytes([byte ^ 0x01]))
    if keep_times:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


@pytest.fixture
def settled(copy: Path) -> Path:
    """The copy, once it is old enough to be sealed."""
    time.sleep(storage.SETTLE_NS / 1e9 + 0.05)
    return copy


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a table's payload is hashed (one entry per hash)."""
    calls: list[int] = []
    real = storage.payload_checksum

    def counting(handle, formation, width: int = 2) -> str:
        calls.append(width)
        return real(handle, formation, width)

    monkeypatch.setattr(storage, "payload_checksum", counting)
    return calls


def test_a_file_found_good_is_sealed_and_not_hashed_again(settled: Path, hashes: list[int]) -> None:
    open_table(ROW3, settled)
    open_table(ROW3, settled)
    assert len(hashes) == 1
    assert table_path(ROW3.name, settled).with_suffix(SEAL_SUFFIX).exists()


def test_a_file_changed_just_now_is_checked_but_not_sealed(copy: Path, hashes: list[int]) -> None:
    open_table(ROW3, copy)
    open_table(ROW3, copy)
    assert len(hashes) == 2
    assert not table_path(ROW3.name, copy).with_suffix(SEAL_SUFFIX).exists()


def test_a_file_changed_after_its_seal_is_hashed_again_and_refused(settled: Path) -> None:
    open_table(ROW3, settled)
    flip_a_value_byte(table_path(ROW3.name, settled), keep_times=True)
    assert "corrupted" in refused(settled)


def test_a_file_replaced_after_its_seal_is_hashed_again(
    settled: Path, built: Path, hashes: list[int]
) -> None:
    open_table(ROW3, settled)
    shutil.copy(table_path(ROW3.name, built), settled / "fresh")
    os.replace(settled / "fresh", table_path(ROW3.name, settled))
    open_table(ROW3, settled)
    assert len(hashes) == 2


@pytest.mark.parametrize("seal", ["{not json", '{"checksum": "blake2b-256:00"}', "[]"])
def test_a_seal_that_does_not_match_is_ignored(copy: Path, hashes: list[int], seal: str) -> None:
    table_path(ROW3.name, copy).with_suffix(SEAL_SUFFIX).write_text(seal)
    assert open_table(ROW3, copy).values.size == ROW3.entries
    assert len(hashes) == 1


def test_a_full_check_finds_damage_its_seal_missed_and_breaks_the_seal(settled: Path) -> None:
    copy = settled
    path = table_path(ROW3.name, copy)
    seal = path.with_suffix(SEAL_SUFFIX)
    open_table(ROW3, copy)
    recorded = json.loads(seal.read_text())
    flip_a_value_byte(path)
    stat = path.stat()  # the seal rewritten as if the file system had not seen the change
    recorded.update(modified_ns=stat.st_mtime_ns, changed_ns=stat.st_ctime_ns)
    seal.write_text(json.dumps(recorded))
    with pytest.raises(TableError, match="corrupted"):
        verify_file(path, ROW3)
    assert not seal.exists()
    assert "corrupted" in refused(copy)


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda data: data.__setitem__(slice(0, 8), b"NOTATABL"), "not a py2048 table file"),
        (lambda data: data.__setitem__(8, 9), "format version 9"),
        (lambda data: data.__setitem__(20, ord("#")), "its header is damaged"),
        (lambda data: data.__setitem__(slice(12, 16), b"\xff\xff\0\0"), "cut short"),
    ],
    ids=["magic", "version", "json", "length"],
)
def test_a_damaged_header_is_refused(copy: Path, damage, problem: str) -> None:
    path = table_path(ROW3.name, copy)
    data = bytearray(path.read_bytes())
    damage(data)
    path.write_bytes(bytes(data))
    assert problem in refused(copy)


def test_a_table_of_another_formation_is_refused(built: Path, tmp_path: Path) -> None:
    shutil.copy(table_path(ROW3_32.name, built), table_path(ROW3.name, tmp_path))
    assert "built for another formation" in refused(tmp_path)


def test_a_missing_table_says_how_to_build_it(tmp_path: Path) -> None:
    message = refused(tmp_path)
    assert "not built. Build it with" in message


def test_the_checksum_covers_the_values_as_stored(copy: Path) -> None:
    path = table_path(ROW3.name, copy)
    header = verify_file(path, ROW3)
    values = np.fromfile(path, dtype="<u2", offset=PAYLOAD_OFFSET)
    import hashlib

    starts = layer_starts(ROW3)
    digests = b"".join(
        hashlib.blake2b(values[begin:end].tobytes(), digest_size=32).digest()
        for begin, end in itertools.pairwise(starts)
    )
    assert header.checksum == (
        "blake2b-256-layers:" + hashlib.blake2b(digests, digest_size=32).hexdigest()
    )
    text = path.read_bytes()[16:PAYLOAD_OFFSET].rstrip(b"\0")
    assert json.loads(text)["formation"] == ROW3.to_json()


def test_the_folder_is_the_environment_variable_or_the_user_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    assert tables_dir() == tmp_path
    assert table_path("x") == tmp_path / "x.table"
    assert tables_dir(tmp_path / "given") == tmp_path / "given"
    monkeypatch.delenv(ENVIRONMENT_VARIABLE)
    assert tables_dir().parts[-2:] == ("py2048", "tables")


def rewrite_header(path: Path, **changes: object) -> None:
    """Give the file at ``path`` a header with these JSON entries changed (None: removed)."""
    block = path.read_bytes()[:PAYLOAD_OFFSET]
    length = int.from_bytes(block[12:16], "little")
    data = json.loads(block[16 : 16 + length])
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    text = json.dumps(data).encode()
    with open(path, "r+b") as handle:
        handle.write(
            (block[:12] + len(text).to_bytes(4, "little") + text).ljust(PAYLOAD_OFFSET, b"\0")
        )


def test_the_build_memory_is_read_where_recorded_and_absent_in_older_files(copy: Path) -> None:
    path = table_path(ROW3.name, copy)
    rewrite_header(path, peak_memory=412_000_000)
    assert read_header(path).peak_memory == 412_000_000
    rewrite_header(path, peak_memory=None)  # a file from before py2048 recorded it
    assert read_header(path).peak_memory is None
    assert open_table(ROW3, copy).values.size == ROW3.entries


@pytest.mark.parametrize("peak", [-1, "412 MB", 1.5])
def test_a_header_with_a_bad_build_memory_is_refused(copy: Path, peak: object) -> None:
    rewrite_header(table_path(ROW3.name, copy), peak_memory=peak)
    assert "its header is damaged" in refused(copy)
