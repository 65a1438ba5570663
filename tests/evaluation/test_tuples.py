from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack
from py2048.evaluation.tuples import (
    DEFAULT_SPEC,
    DEFAULT_TUPLES,
    format_tuples,
    layout_plan,
    parse_tuples,
    tuple_layout,
)
from py2048.learn.network import NTupleNetwork
from tests.engine.reference import symmetries
from tests.networks import SMALL_TUPLES

tiles = st.sampled_from([0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 32768])
boards = st.lists(st.lists(tiles, min_size=4, max_size=4), min_size=4, max_size=4)


def test_default_spec_names_the_default_tuples() -> None:
    assert parse_tuples(DEFAULT_SPEC) == DEFAULT_TUPLES
    assert format_tuples(DEFAULT_TUPLES) == DEFAULT_SPEC


def test_shapes_by_name_include_the_shipped_networks() -> None:
    from py2048.evaluation.networks import shipped_figures

    assert parse_tuples("4x6") == DEFAULT_TUPLES
    assert parse_tuples(" 8x6 ") == shipped_figures().tuples
    assert [len(parse_tuples(name)) for name in ("6x6", "8x6")] == [6, 8]
    assert all(len(cells) == 6 for cells in parse_tuples("8x6"))
    with pytest.raises(ValueError, match="comma-separated"):
        parse_tuples("5x6")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty"),
        ("0,1,x", "comma-separated"),
        ("0,1,16", "numbered 0 to 15"),
        ("0,1,1", "twice"),
        ("0,1,2,3,4,5,6,7", "1 to 7"),
        ("/".join(["0,1,2,3,4,5,6"] * 9), "table entries"),
    ],
)
def test_bad_tuple_specs_are_rejected_with_the_reason(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_tuples(spec)


def reference_value(network: NTupleNetwork, board: list[list[int]]) -> float:
    """The definition: each tuple's table read at its cells on all eight images of the board."""
    exponents = np.array([[min(v.bit_length() - 1, 15) if v else 0 for v in row] for row in board])
    total = 0.0
    start = 0
    for cells in network.tuples:
        for image in symmetries(exponents.tolist()):
            flat = np.array(image).ravel()
            total += network.weights[
                start + sum(int(flat[c]) << (4 * i) for i, c in enumerate(cells))
            ]
        start += 16 ** len(cells)
    return total


ODD_TUPLES = ((5, 1, 0, 9), (3, 2, 1, 0, 4), (10,), (12, 13, 14, 15, 11))


@settings(max_examples=100, deadline=None)
@given(board=boards)
def test_the_value_reads_every_tuple_at_every_placement(board: list[list[int]]) -> None:
    network = NTupleNetwork.zeros(ODD_TUPLES)
    network.weights[:] = np.random.default_rng(4).integers(-50, 50, network.weights.size)
    assert network.value(board) == reference_value(network, board)


@settings(max_examples=200, deadline=None)
@given(board=boards)
def test_every_symmetry_of_a_board_has_the_same_value(board: list[list[int]]) -> None:
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = np.random.default_rng(1).normal(0, 100, network.weights.size)
    values = {round(network.value(b), 3) for b in symmetries(board)}
    assert len(values) == 1


def test_the_value_depends_on_the_board(random_network: NTupleNetwork) -> None:
    a = [[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    b = [[4, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert random_network.value(a) != random_network.value(b)


def test_tiles_above_32768_read_as_32768(random_network: NTupleNetwork) -> None:
    big = [[65536, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
    capped = [[32768, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
    assert pack(big)[1] != 0
    assert random_network.value(big) == random_network.value(capped)


def test_a_staged_layout_reads_one_stage_and_an_offset() -> None:
    layout = tuple_layout(((0, 1, 2, 3), (4, 5, 6, 8)), (2048, 32768))
    plan, _, staged, stage_from, stage_size = layout_plan(layout)
    assert staged
    assert len(plan) == 2
    assert stage_from == (11, 15)
    assert stage_size == 2 * 16**4


def test_a_layout_whose_stages_read_other_cells_is_refused() -> None:
    layout = tuple_layout(((0, 1, 2, 3), (4, 5, 6, 8)), (2048,))
    layout[3] = tuple_layout(((0, 1, 2, 3), (4, 5, 6, 7)), (2048,))[3]
    with pytest.raises(ValueError, match="every stage of a layout must read the same tuples"):
        layout_plan(layout)
