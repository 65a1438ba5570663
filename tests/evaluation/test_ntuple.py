from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack_exponents, unpack
from py2048.evaluation.ntuple import int16_evaluator, weights_path
from py2048.evaluation.storage import QUANTISED_LIMIT, load_int16_weights, quantise
from py2048.evaluation.tuples import DOWNGRADE_FROM, downgraded_board, network_board
from py2048.learn.network import NTupleNetwork, load_weights, network_evaluator
from py2048.learn.play import play_greedy
from py2048.solver import available_evaluators, best_move
from tests.networks import SMALL_TUPLES, whole_weights

exponent_lists = st.lists(st.integers(0, 17), min_size=16, max_size=16).filter(
    lambda cells: cells.count(17) <= 1
)


NETWORK = whole_weights(NTupleNetwork.zeros(SMALL_TUPLES), low=0)
EVALUATOR = network_evaluator(NETWORK)


@settings(max_examples=300, deadline=None)
@given(cells=exponent_lists)
def test_the_evaluation_is_the_network_value(cells: list[int]) -> None:
    lo, hi = pack_exponents(cells)
    assert EVALUATOR(lo, hi) == NETWORK.value_packed(lo, hi)


NOISY = NTupleNetwork.zeros(SMALL_TUPLES)
NOISY.weights[:] = np.random.default_rng(3).normal(0, 100, NOISY.weights.size)


@settings(max_examples=300, deadline=None)
@given(cells=exponent_lists)
def test_the_evaluation_rounds_each_entry_by_at_most_half_a_step(cells: list[int]) -> None:
    scale = np.abs(NOISY.weights).max() / QUANTISED_LIMIT
    reads = 8 * len(SMALL_TUPLES)
    lo, hi = pack_exponents(cells)
    exact = max(NOISY.value_packed(lo, hi), 0.0)
    assert abs(network_evaluator(NOISY)(lo, hi) - exact) <= reads * scale / 2 + 1e-9 * abs(exact)


Tuples = tuple[tuple[int, ...], ...]


def whole_network(tuples: Tuples, stages: tuple[int, ...] = ()) -> NTupleNetwork:
    return whole_weights(NTupleNetwork.zeros(tuples, stages), seed=len(tuples))


SHAPES = [
    whole_network(((0, 5, 10, 15), (3, 6, 9, 12, 1))),  # scattered cells: many runs
    whole_network(((0, 1, 2), (7, 11, 15), (12, 13, 8, 9))),  # cells out of order
    whole_network(SMALL_TUPLES, (256, 16384)),  # three stages
    whole_network(((15, 14, 13, 12, 11),), (4096,)),  # read backwards, two stages
]


@settings(max_examples=300, deadline=None)
@given(cells=exponent_lists, shape=st.integers(0, len(SHAPES) - 1))
def test_the_compiled_kernel_reads_every_layout_as_the_network_does(
    cells: list[int], shape: int
) -> None:
    network = SHAPES[shape]
    lo, hi = pack_exponents(cells)
    assert network_evaluator(network)(lo, hi) == max(network.value_packed(lo, hi), 0.0)


@pytest.mark.parametrize("top", range(1, 18))
def test_the_compiled_kernel_picks_the_stage_of_every_largest_tile(top: int) -> None:
    rng = np.random.default_rng(top)
    for network in SHAPES[2:]:
        evaluator = network_evaluator(network)
        for _ in range(20):
            cells = [int(e) for e in rng.integers(0, top, 16)]
            cells[int(rng.integers(16))] = top
            lo, hi = pack_exponents(cells)
            assert evaluator(lo, hi) == max(network.value_packed(lo, hi), 0.0)


def downgrading_evaluator(network: NTupleNetwork, tile: int = DOWNGRADE_FROM):
    scale, entries = quantise(network.weights)
    return int16_evaluator(network.layout, scale, entries, "ntuple", downgrade_from=tile)


@settings(max_examples=300, deadline=None)
@given(cells=exponent_lists, shape=st.integers(0, len(SHAPES) - 1))
def test_a_downgrading_kernel_reads_the_downgraded_board(cells: list[int], shape: int) -> None:
    network = SHAPES[shape]
    lo, hi = pack_exponents(cells)
    read = int(downgraded_board(np.uint64(network_board(np.uint64(lo), np.uint64(hi))), 14))
    assert downgrading_evaluator(network)(lo, hi) == max(network.value_packed(read, 0), 0.0)
    if max(cells) < 14:
        assert downgrading_evaluator(network)(lo, hi) == network_evaluator(network)(lo, hi)


def test_a_downgrading_tile_must_be_a_power_of_two() -> None:
    with pytest.raises(ValueError, match="downgrade_from"):
        downgrading_evaluator(SHAPES[0], 3000)


@pytest.fixture(scope="module")
def shipped() -> NTupleNetwork:
    return load_weights(weights_path())


def test_the_shipped_network_searches_with_the_entries_of_its_file(shipped: NTupleNetwork) -> None:
    weights = load_int16_weights(weights_path())
    with np.load(weights_path()) as archive:
        assert weights.scale == float(archive["scale"])
        bitmap = archive["stored" if "stored" in archive.files else "nonzero"]
        stored = np.unpackbits(bitmap, count=shipped.weights.size).astype(bool)
        planes = np.ascontiguousarray(archive["value_planes"].T)
        assert np.array_equal(weights.entries[stored], planes.view("<i2").ravel())
        fill = archive["fill"][()] if "fill" in archive.files else 0
        assert np.all(weights.entries[~stored] == fill)
    assert np.array_equal(weights.entries, quantise(shipped.weights)[1])


def test_no_board_is_worth_less_than_a_lost_game() -> None:
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = -1.0
    assert network.value_packed(0x21, 0) < 0
    assert network_evaluator(network)(0x21, 0) == 0.0


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(st.integers(0, 12), min_size=16, max_size=16))
def test_depth_0_plays_the_networks_greedy_move(cells: list[int]) -> None:
    lo, hi = pack_exponents(cells)
    board = unpack(lo, hi)
    hint = best_move(board, depth=0, evaluator=EVALUATOR)
    greedy = NETWORK.greedy_direction(lo, hi)
    if greedy is None:
        assert hint.direction is None
        return
    assert hint.values[hint.direction] == hint.values[greedy]


def test_the_ntuple_evaluator_is_available_by_name() -> None:
    assert "ntuple" in available_evaluators()
    board = [[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
    hint = best_move(board, depth=1, evaluator="ntuple")
    assert hint.evaluator == "ntuple"
    assert hint.direction in hint.values


def test_the_shipped_network_reaches_2048_greedily(shipped: NTupleNetwork) -> None:
    games = play_greedy(shipped, 20, seed=12345)
    assert sum(game.max_exponent >= 11 for game in games) >= 16
