from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack_exponents, unpack
from py2048.learn.evaluation import network_evaluator, shipped_network
from py2048.learn.network import NTupleNetwork
from py2048.learn.play import play_greedy
from py2048.solver import available_evaluators, best_move
from tests.learn.conftest import SMALL_TUPLES

exponent_lists = st.lists(st.integers(0, 17), min_size=16, max_size=16).filter(
    lambda cells: cells.count(17) <= 1
)


def small_network() -> NTupleNetwork:
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = np.abs(np.random.default_rng(2).normal(0, 100, network.weights.size))
    return network


NETWORK = small_network()
EVALUATOR = network_evaluator(NETWORK)


@settings(max_examples=300, deadline=None)
@given(cells=exponent_lists)
def test_the_evaluation_is_the_network_value(cells: list[int]) -> None:
    lo, hi = pack_exponents(cells)
    assert EVALUATOR(lo, hi) == NETWORK.value_packed(lo, hi)


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


def test_the_shipped_network_reaches_2048_greedily() -> None:
    games = play_greedy(shipped_network(), 20, seed=12345)
    assert sum(game.max_exponent >= 11 for game in games) >= 16
