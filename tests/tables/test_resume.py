"""A build stopped part way resumes, and ends with the same file as one that never stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from py2048.tables import BuildProgress, build_table, table_path
from py2048.tables.builder import BuildError, layer_count, partial_layers
from py2048.tables.ranking import layer_starts
from py2048.tables.storage import PAYLOAD_OFFSET, partial_path, progress_path, read_header
from tests.tables.conftest import (
    KILLED,
    ROW3_32,
    SNAKE11,
    fixed_clock,
    kill_a_build_midway,
    no_memory,
)


def stop_after(layers: int):
    def progress(state: BuildProgress) -> None:
        if state.layers_done - state.layers_done_at_start >= layers:
            raise KeyboardInterrupt

    return progress


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("whole")
    return build_table(SNAKE11, folder, clock=fixed_clock, memory=no_memory).read_bytes()


@pytest.mark.parametrize("stops", [[1], [5, 7], [layer_count(SNAKE11) - 1]])
def test_a_build_stopped_and_resumed_ends_byte_identical(
    tmp_path: Path, uninterrupted: bytes, stops: list[int]
) -> None:
    done = 0
    for layers in stops:
        with pytest.raises(KeyboardInterrupt):
            build_table(
                SNAKE11, tmp_path, progress=stop_after(layers), clock=fixed_clock, memory=no_memory
            )
        done += layers
        assert not table_path(SNAKE11.name, tmp_path).exists()
        assert partial_layers(SNAKE11, tmp_path) == done
    seen: list[BuildProgress] = []
    path = build_table(SNAKE11, tmp_path, progress=seen.append, clock=fixed_clock, memory=no_memory)
    assert seen[0].layers_done == done and seen[0].positions_at_start > 0
    assert seen[-1].positions_done == SNAKE11.entries
    assert path.read_bytes() == uninterrupted
    assert not partial_path(SNAKE11.name, tmp_path).exists()
    assert not progress_path(SNAKE11.name, tmp_path).exists()


def test_a_resumed_build_records_the_most_memory_any_of_its_runs_held(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        build_table(
            SNAKE11, tmp_path, progress=stop_after(3), clock=fixed_clock, memory=lambda: 7_000_000
        )
    path = build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=lambda: 5_000_000)
    assert read_header(path).peak_memory == 7_000_000
    again = build_table(SNAKE11, tmp_path / "again", clock=fixed_clock, memory=no_memory)
    assert read_header(again).peak_memory is None  # not known: not recorded


def test_a_record_behind_the_partial_file_still_gives_the_same_file(
    tmp_path: Path, uninterrupted: bytes
) -> None:
    """A crash leaves the record a few seconds behind the values: those layers are redone."""
    with pytest.raises(KeyboardInterrupt):
        build_table(SNAKE11, tmp_path, progress=stop_after(20), clock=fixed_clock, memory=no_memory)
    record = progress_path(SNAKE11.name, tmp_path)
    data = json.loads(record.read_text())
    data["layers_done"] = 12
    data["digests"] = data["digests"][:12]
    record.write_text(json.dumps(data))
    assert (
        build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=no_memory).read_bytes()
        == uninterrupted
    )


@pytest.mark.parametrize("damage", ["record of another formation", "no record"])
def test_a_partial_build_that_cannot_be_trusted_starts_over(
    tmp_path: Path, uninterrupted: bytes, damage: str
) -> None:
    with pytest.raises(KeyboardInterrupt):
        build_table(SNAKE11, tmp_path, progress=stop_after(10), clock=fixed_clock, memory=no_memory)
    record = progress_path(SNAKE11.name, tmp_path)
    if damage == "record of another formation":
        data = json.loads(record.read_text())
        data["formation"] = ROW3_32.to_json()
        record.write_text(json.dumps(data))
    else:
        record.unlink()
    assert partial_layers(SNAKE11, tmp_path) is None
    seen: list[BuildProgress] = []
    path = build_table(SNAKE11, tmp_path, progress=seen.append, clock=fixed_clock, memory=no_memory)
    assert seen[0].layers_done == 0
    assert path.read_bytes() == uninterrupted


def test_a_second_build_of_the_same_table_at_once_is_refused(tmp_path: Path) -> None:
    def build_again(state: BuildProgress) -> None:
        if state.layers_done == 1:
            build_table(SNAKE11, tmp_path)

    with pytest.raises(ValueError, match="another build of table snake11-16 is running"):
        build_table(SNAKE11, tmp_path, progress=build_again)
    assert partial_layers(SNAKE11, tmp_path) == 1


@pytest.mark.parametrize("damage", ["cut short", "a layer changed"])
def test_a_damaged_partial_file_is_refused_with_the_command_that_starts_over(
    tmp_path: Path, uninterrupted: bytes, damage: str
) -> None:
    with pytest.raises(KeyboardInterrupt):
        build_table(SNAKE11, tmp_path, progress=stop_after(6), clock=fixed_clock, memory=no_memory)
    partial = partial_path(SNAKE11.name, tmp_path)
    starts = layer_starts(SNAKE11)
    lowest_done = layer_count(SNAKE11) - 6
    if damage == "cut short":
        with open(partial, "r+b") as handle:
            handle.truncate(100)
        why = "is 100 bytes, not"
    else:
        with open(partial, "r+b") as handle:
            handle.seek(PAYLOAD_OFFSET + 2 * int(starts[lowest_done]))
            value = handle.read(1)
            handle.seek(-1, 1)
            handle.write(bytes([value[0] ^ 1]))
        why = f"layer {lowest_done} of {partial} does not match the digest"
    kept = partial.read_bytes()
    with pytest.raises(BuildError) as error:
        build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=no_memory)
    assert why in str(error.value)
    assert f"`2048 tables build --force {SNAKE11.name}`" in str(error.value)
    assert partial.read_bytes() == kept  # refused, never used, nothing lost
    assert not table_path(SNAKE11.name, tmp_path).exists()
    assert build_table(
        SNAKE11, tmp_path, restart=True, clock=fixed_clock, memory=no_memory
    ).read_bytes() == (uninterrupted)


def test_a_killed_build_loses_at_most_its_layer_in_progress_and_resumes_to_the_same_file(
    tmp_path: Path,
) -> None:
    whole = build_table(
        KILLED, tmp_path / "whole", clock=fixed_clock, memory=no_memory
    ).read_bytes()
    folder = tmp_path / "killed"
    done = kill_a_build_midway(folder)
    seen: list[BuildProgress] = []
    path = build_table(KILLED, folder, progress=seen.append, clock=fixed_clock, memory=no_memory)
    assert seen[0].layers_done_at_start == done  # every recorded layer was kept
    assert path.read_bytes() == whole
