"""A table file that is missing, cut short, corrupted or of another formation is never used."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from py2048.tables import Formation, TableError, open_table, table_path, tables_dir
from py2048.tables.storage import (
    ENVIRONMENT_VARIABLE,
    PAYLOAD_OFFSET,
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
    assert header.checksum.startswith("blake2b-256:")
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

    assert (
        header.checksum
        == "blake2b-256:" + hashlib.blake2b(values.tobytes(), digest_size=32).hexdigest()
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
