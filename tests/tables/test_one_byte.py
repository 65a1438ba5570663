"""1-byte tables: the code book, 1-byte builds (stopped, killed, resumed), packing a 2-byte table,
reading either width in the look-up and the solver, and refusing a bad 1-byte file."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from py2048.engine.board import ROW_TABLES, pack
from py2048.solver.endgame import TableSet, table_choice
from py2048.tables import BuildProgress, Formation, build_table, open_table, table_path
from py2048.tables.builder import BuildError, build_needs, layer_count, partial_layers
from py2048.tables.codebook import (
    CODE_BOOK,
    CODE_BOOK_NAME,
    LOGIT_HIGH,
    LOGIT_LOW,
    LOGIT_STEP,
    MAX_ERROR,
    PACK,
    code_bounds,
    decode,
    encode,
)
from py2048.tables.compact import decode_chance
from py2048.tables.distillation import (
    board_index,
    compact_answers,
    direction_chances,
    expected_visits,
)
from py2048.tables.packing import pack_table, packing_path
from py2048.tables.storage import (
    MAGIC,
    PACKED_VERSION,
    PAYLOAD_OFFSET,
    TableError,
    TableHeader,
    encode_header,
    exact_path,
    partial_path,
    progress_path,
    read_header,
    verify_file,
)
from tests.tables.conftest import (
    CAPPED,
    KILLED,
    SMALL,
    SNAKE11,
    fixed_clock,
    kill_a_build_midway,
    no_memory,
)
from tests.tables.test_lookup import all_ranks

# --- the code book ------------------------------------------------------------------------


def test_the_code_book_is_monotone_with_0_and_1_exact() -> None:
    assert CODE_BOOK.shape == (256,)
    assert CODE_BOOK[0] == 0.0 and CODE_BOOK[255] == 1.0
    assert np.all(np.diff(CODE_BOOK) > 0)
    assert 0.0 < CODE_BOOK[1] < 1e-3 and 1 - 1e-3 < CODE_BOOK[254] < 1.0
    logits = np.log(CODE_BOOK[1:-1] / (1 - CODE_BOOK[1:-1]))
    assert np.allclose(np.diff(logits), LOGIT_STEP)
    assert logits[0] == pytest.approx(LOGIT_LOW) and logits[-1] == pytest.approx(LOGIT_HIGH)
    # every 2-byte value but exactly 1 keeps a code below 255, and the top code is the
    # nearest to the 2-byte scale's last step below 1
    assert CODE_BOOK[254] < 65534 / 65535 < (CODE_BOOK[254] + 1) / 2


def test_every_code_round_trips_and_only_0_and_1_get_the_end_codes() -> None:
    codes = np.arange(256, dtype=np.uint8)
    assert np.array_equal(encode(decode(codes)), codes)
    assert PACK[0] == 0 and PACK[65535] == 255
    assert PACK[1] == 1 and PACK[65534] == 254
    assert np.all(np.diff(PACK.astype(np.int64)) >= 0)


def test_the_documented_error_bounds() -> None:
    exact = np.arange(65536) / 65535.0
    error = np.abs(CODE_BOOK[PACK] - exact)
    assert error.max() == MAX_ERROR < 0.0095  # near 1/2: LOGIT_STEP / 8
    assert MAX_ERROR <= LOGIT_STEP / 8 + 1e-12
    ends = (exact < 0.01) | (exact > 0.99)
    assert error[ends].max() < 0.0004


@given(st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
def test_a_probability_gets_its_nearest_code(p: float) -> None:
    code = int(encode(np.array([p]))[0])
    if p in (0.0, 1.0):
        assert code == (0 if p == 0.0 else 255)
        return
    assert 1 <= code <= 254
    for other in range(1, 255):
        assert abs(CODE_BOOK[code] - p) <= abs(CODE_BOOK[other] - p)


@given(
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
)
def test_encoding_keeps_the_order(p: float, q: float) -> None:
    low, high = sorted((p, q))
    codes = encode(np.array([low, high]))
    assert codes[0] <= codes[1]


def test_code_bounds_lie_between_codes() -> None:
    bounds = code_bounds(CODE_BOOK)
    assert np.all((CODE_BOOK[:-1] < bounds) & (bounds < CODE_BOOK[1:]))


# --- building at 1 byte -------------------------------------------------------------------


@pytest.fixture(scope="module")
def built_one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the tables of SMALL built at 1 byte."""
    folder = tmp_path_factory.mktemp("one-byte")
    for formation in SMALL:
        build_table(formation, folder, clock=fixed_clock, memory=no_memory, width=1)
    return folder


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_a_1_byte_build_is_the_2_byte_build_packed_position_by_position(
    formation: Formation, built: Path, built_one: Path
) -> None:
    two = open_table(formation, built)
    one = open_table(formation, built_one)
    assert (two.width, one.width) == (2, 1)
    assert one.values.dtype == np.uint8
    assert np.array_equal(np.asarray(one.values), PACK[np.asarray(two.values)])
    assert one.path.stat().st_size == PAYLOAD_OFFSET + formation.entries
    header = read_header(one.path)
    assert header.width == 1 and header.version == PACKED_VERSION
    data = json.loads(one.path.read_bytes()[16:PAYLOAD_OFFSET].rstrip(b"\0"))
    assert data["dtype"] == "u1" and data["code_book"] == CODE_BOOK_NAME
    assert "scale" not in data
    assert sorted(p.name for p in built_one.iterdir() if formation.name in p.name) == [
        f"{formation.name}.table",
        f"{formation.name}.verified",
    ] or sorted(p.name for p in built_one.iterdir() if formation.name in p.name) == [
        f"{formation.name}.table"
    ]


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_packing_a_2_byte_table_gives_the_1_byte_build(
    formation: Formation, built: Path, built_one: Path, tmp_path: Path
) -> None:
    source = table_path(formation.name, built).read_bytes()
    path = pack_table(formation, built, tmp_path)
    assert path.read_bytes() == table_path(formation.name, built_one).read_bytes()
    assert table_path(formation.name, built).read_bytes() == source  # kept
    assert not packing_path(path).exists()
    with pytest.raises(ValueError, match="already 1 byte"):
        pack_table(formation, tmp_path)


def test_packing_in_place_replaces_the_2_byte_table(built: Path, tmp_path: Path) -> None:
    shutil.copy(table_path(CAPPED.name, built), tmp_path)
    path = pack_table(CAPPED, tmp_path)
    assert path == table_path(CAPPED.name, tmp_path)
    assert open_table(CAPPED, tmp_path).width == 1
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_packing_that_fails_keeps_the_2_byte_table(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(table_path(CAPPED.name, built), tmp_path)
    before = table_path(CAPPED.name, tmp_path).read_bytes()

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pack_table(CAPPED, tmp_path, progress=stop)
    assert table_path(CAPPED.name, tmp_path).read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [f"{CAPPED.name}.table"]

    calls = []

    def header_that_changes(header: TableHeader) -> bytes:
        calls.append(1)
        block = encode_header(header)
        return block if len(calls) < 2 else block[:-1] + b"x"

    monkeypatch.setattr("py2048.tables.packing.encode_header", header_that_changes)
    with pytest.raises(RuntimeError, match="read back differs"):
        pack_table(CAPPED, tmp_path)
    assert table_path(CAPPED.name, tmp_path).read_bytes() == before


def stop_after(layers: int):  # type: ignore[no-untyped-def]
    def progress(state: BuildProgress) -> None:
        if state.layers_done - state.layers_done_at_start >= layers:
            raise KeyboardInterrupt

    return progress


@pytest.fixture(scope="module")
def uninterrupted(built_one: Path) -> bytes:
    return table_path(SNAKE11.name, built_one).read_bytes()


@pytest.mark.parametrize("stops", [[1], [2], [5, 7], [layer_count(SNAKE11) - 1]])
def test_a_stopped_1_byte_build_resumes_byte_identical(
    tmp_path: Path, uninterrupted: bytes, stops: list[int]
) -> None:
    done = 0
    for layers in stops:
        with pytest.raises(KeyboardInterrupt):
            build_table(
                SNAKE11,
                tmp_path,
                progress=stop_after(layers),
                clock=fixed_clock,
                memory=no_memory,
                width=1,
            )
        done += layers
        assert partial_layers(SNAKE11, tmp_path) == done
        assert partial_path(SNAKE11.name, tmp_path).stat().st_size == (
            PAYLOAD_OFFSET + SNAKE11.entries
        )
        assert sum(exact_path(SNAKE11.name, k, tmp_path).exists() for k in range(3)) == min(done, 3)
    seen: list[BuildProgress] = []
    # without a width it resumes at the stopped build's
    path = build_table(SNAKE11, tmp_path, progress=seen.append, clock=fixed_clock, memory=no_memory)
    assert seen[0].layers_done == done
    assert path.read_bytes() == uninterrupted
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_record_one_layer_behind_its_side_file_still_gives_the_same_file(
    tmp_path: Path, uninterrupted: bytes
) -> None:
    """A crash after a layer's side file is written and before the record: that layer is
    redone from the two side files the record names, which the new one did not replace."""
    with pytest.raises(KeyboardInterrupt):
        build_table(
            SNAKE11, tmp_path, progress=stop_after(9), clock=fixed_clock, memory=no_memory, width=1
        )
    record = progress_path(SNAKE11.name, tmp_path)
    behind = record.read_text()
    with pytest.raises(KeyboardInterrupt):
        build_table(
            SNAKE11, tmp_path, progress=stop_after(1), clock=fixed_clock, memory=no_memory, width=1
        )
    record.write_text(behind)
    assert (
        build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=no_memory).read_bytes()
        == uninterrupted
    )


@pytest.mark.parametrize("damage", ["missing", "changed"])
def test_a_damaged_side_file_is_refused(tmp_path: Path, uninterrupted: bytes, damage: str) -> None:
    with pytest.raises(KeyboardInterrupt):
        build_table(
            SNAKE11, tmp_path, progress=stop_after(6), clock=fixed_clock, memory=no_memory, width=1
        )
    lowest = layer_count(SNAKE11) - 6
    side = exact_path(SNAKE11.name, lowest % 3, tmp_path)
    if damage == "missing":
        side.unlink()
    else:
        data = bytearray(side.read_bytes())
        data[0] ^= 1
        side.write_bytes(bytes(data))
    with pytest.raises(BuildError, match=f"the exact values of layer {lowest}"):
        build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=no_memory)
    assert build_table(
        SNAKE11, tmp_path, restart=True, clock=fixed_clock, memory=no_memory, width=1
    ).read_bytes() == (uninterrupted)


def test_a_stopped_build_of_the_other_width_is_not_mixed_in(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        build_table(
            SNAKE11, tmp_path, progress=stop_after(3), clock=fixed_clock, memory=no_memory, width=1
        )
    with pytest.raises(BuildError, match="--bytes 1"):
        build_table(SNAKE11, tmp_path, clock=fixed_clock, memory=no_memory, width=2)
    path = build_table(
        SNAKE11, tmp_path, restart=True, clock=fixed_clock, memory=no_memory, width=2
    )
    assert read_header(path).width == 2
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_1_byte_build_needs_half_the_disk() -> None:
    two = build_needs(SNAKE11, 2)
    one = build_needs(SNAKE11, 1)
    assert two.disk == PAYLOAD_OFFSET + 2 * SNAKE11.entries
    assert PAYLOAD_OFFSET + SNAKE11.entries < one.disk < two.disk


def test_a_killed_1_byte_build_resumes_to_the_same_file(tmp_path: Path) -> None:
    whole = build_table(
        KILLED, tmp_path / "whole", clock=fixed_clock, memory=no_memory, width=1
    ).read_bytes()
    folder = tmp_path / "killed"
    done = kill_a_build_midway(folder, width=1)
    seen: list[BuildProgress] = []
    path = build_table(KILLED, folder, progress=seen.append, clock=fixed_clock, memory=no_memory)
    assert seen[0].layers_done_at_start == done
    assert path.read_bytes() == whole


# --- reading 1-byte tables ----------------------------------------------------------------


def real_board(formation: Formation, ranks: tuple[int, ...]) -> list[list[int]]:
    """The position as a real board whose large tiles continue the chain: a checkerboard of
    the target and twice it on the fixed cells (no two neighbours equal)."""
    tiles = {}
    for cell in formation.fixed:
        tiles[cell] = formation.target << ((cell // 4 + cell % 4) % 2)
    for cell, rank in zip(formation.free_cells, ranks, strict=True):
        tiles[cell] = (1 << rank) if rank else 0
    return [[tiles.get(4 * r + c, 0) for c in range(4)] for r in range(4)]


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_the_look_up_reads_1_byte_values_through_the_code_book(
    formation: Formation, built: Path, built_one: Path
) -> None:
    two = open_table(formation, built)
    one = open_table(formation, built_one)
    rng = random.Random(2)
    positions = list(all_ranks(formation))
    for ranks in rng.sample(positions, min(200, len(positions))):
        board = real_board(formation, ranks)
        exact = two.lookup(board)
        packed = one.lookup(board)
        assert (exact is None) == (packed is None)
        if exact is None or packed is None:
            continue
        for e, p in zip(exact.values, packed.values, strict=True):
            assert (e < 0) == (p < 0)
            assert abs(e - p) <= MAX_ERROR + 1e-12
            assert (e == 0) == (p == 0) and (e == 1) == (p == 1)
    indices = np.arange(formation.entries)
    assert np.allclose(one.probabilities(indices), two.probabilities(indices), atol=MAX_ERROR)


@pytest.mark.parametrize("formation", SMALL, ids=lambda f: f.name)
def test_the_solver_chooses_the_same_moves_from_a_1_byte_table(
    formation: Formation, built: Path, built_one: Path
) -> None:
    """Where the 2-byte values of the best two moves differ by more than twice the code book's
    largest error, the 1-byte table must choose the same move; a set mixing both widths reads
    each table at its own."""
    two = open_table(formation, built)
    one = open_table(formation, built_one)
    other = open_table(CAPPED if formation != CAPPED else SNAKE11, built)
    mixed = TableSet.of([one, other], min_probability=0.0, min_tail=0)
    labels = dict(zip(mixed.names, mixed.labels, strict=True))  # as reports show them
    assert labels == {formation.name: f"{formation.name} (1 byte)", other.name: other.name}
    sets = [
        TableSet.of([two], min_probability=0.0, min_tail=0).record,
        TableSet.of([one], min_probability=0.0, min_tail=0).record,
        mixed.record,
    ]
    compared = 0
    out = np.empty(4)
    for ranks in all_ranks(formation):
        lo, hi = pack(real_board(formation, ranks))
        answers = []
        for record in sets:
            out[:] = -1.0
            chosen = table_choice(np.uint64(lo), np.uint64(hi), record, ROW_TABLES, out)
            answers.append((chosen, out.copy()))
        (t2, v2), (t1, v1), (tm, vm) = answers
        assert (t2 < 0) == (t1 < 0)
        if t2 < 0:
            continue
        if mixed.names[tm] == formation.name:
            assert np.array_equal(v1, vm)  # the same table read in a mixed set
        top = np.sort(v2)[::-1]
        if top[0] - top[1] > 2 * MAX_ERROR:
            assert np.argmax(v1) == np.argmax(v2)
            compared += 1
    assert compared > 0


# --- refusing bad 1-byte files ------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        ("truncated", "truncated"),
        ("longer", "longer than its header says"),
        ("a code changed", "corrupted: its contents do not match its checksum"),
        ("another code book", "the code book 'logit-9"),
        ("a 2-byte version", "its header is damaged"),
    ],
)
def test_a_bad_1_byte_file_is_refused_with_a_clear_error(
    built_one: Path, tmp_path: Path, damage: str, why: str
) -> None:
    path = table_path(CAPPED.name, tmp_path)
    data = bytearray(table_path(CAPPED.name, built_one).read_bytes())
    if damage == "truncated":
        del data[-10:]
    elif damage == "longer":
        data += b"\0"
    elif damage == "a code changed":
        data[PAYLOAD_OFFSET + 700] ^= 1
    elif damage == "another code book":
        data[:PAYLOAD_OFFSET] = data[:PAYLOAD_OFFSET].replace(
            f'"{CODE_BOOK_NAME}"'.encode(), b'"logit-9+11.09"'
        )
    else:
        data[8:12] = (2).to_bytes(4, "little")
    assert data[:8] == MAGIC
    path.write_bytes(bytes(data))
    with pytest.raises(TableError, match=why) as error:
        verify_file(path, CAPPED)
    assert f"2048 tables build {CAPPED.name}" in str(error.value)
    with pytest.raises(TableError):
        open_table(CAPPED, tmp_path)


# --- distillation and the command line ----------------------------------------------------


@pytest.mark.parametrize("min_probability", [0.0, 0.3])
def test_distillation_follows_a_1_byte_tables_own_moves(
    built_one: Path, min_probability: float
) -> None:
    from tests.tables.test_distillation import board_of, plain_visits

    table = open_table(SNAKE11, built_one)
    start = board_of({12: 2, 15: 2})
    expected = plain_visits(table, start, min_probability)
    first = board_index(table, *pack(start))
    indices, visits = expected_visits(
        table, np.array([first]), min_probability=min_probability, min_visits=0.0
    )
    assert dict(zip(indices.tolist(), visits.tolist(), strict=True)) == pytest.approx(expected)
    board = board_of({11: 4, 13: 2, 14: 8})
    index = board_index(table, *pack(board))
    answer = table.lookup(board)
    assert answer is not None
    assert direction_chances(table, np.array([index]))[0].tolist() == pytest.approx(
        list(answer.values)
    )
    compact = compact_answers([table], {table.name: np.array([index])}, "test")
    assert [decode_chance(b) for b in compact.chances[0]] == pytest.approx(
        list(answer.values), abs=0.02
    )


def test_the_commands_pack_build_list_and_verify_1_byte_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from py2048.cli import main
    from py2048.tables import formations as formations_module
    from py2048.tables.storage import ENVIRONMENT_VARIABLE

    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    monkeypatch.setattr(formations_module, "FORMATIONS", [SNAKE11, CAPPED])

    def run(*argv: str) -> tuple[int, str]:
        status = main(["tables", *argv])
        return status, capsys.readouterr().out

    assert run("build", "--bytes", "1", SNAKE11.name)[0] == 0
    assert read_header(table_path(SNAKE11.name)).width == 1
    status, out = run("build", "--bytes", "1", SNAKE11.name)
    assert (status, "already built" in out, "1 byte a value" in out) == (0, True, True)
    assert run("build", CAPPED.name)[0] == 0
    status, out = run("list")
    rows = {
        line.split()[1]: line for line in out.splitlines() if "capped" in line or "snake" in line
    }
    assert "built (1 byte)" in rows[SNAKE11.name] and "byte" not in rows[CAPPED.name]

    other = tmp_path / "packed"
    status, out = run("pack", CAPPED.name, "--to", str(other))
    assert status == 0 and "packed to 1 byte a value" in out
    assert read_header(table_path(CAPPED.name)).width == 2  # kept
    assert read_header(table_path(CAPPED.name, other)).width == 1
    status, out = run("build", "--bytes", "1", CAPPED.name)  # packs in place
    assert status == 0 and "packed to 1 byte a value" in out
    assert table_path(CAPPED.name).read_bytes() == table_path(CAPPED.name, other).read_bytes()
    status, out = run("pack", CAPPED.name)
    assert status == 0 and "already 1 byte a value" in out
    status, out = run("verify")
    assert status == 0 and out.count("1 byte a value, checksum matches") == 2
