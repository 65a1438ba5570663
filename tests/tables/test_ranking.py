"""Ranking within tile-sum layers: a bijection from positions onto file offsets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.tables import Formation
from py2048.tables.builder import layer_count
from py2048.tables.ranking import (
    digits_offset,
    layer_sizes,
    layer_starts,
    left_sums,
    next_in_layer,
    offsets_of_indices,
    ranks_array,
    unrank,
    ways_array,
    weight,
)
from tests.tables.conftest import SMALL


def formation_of(radices: tuple[int, ...]) -> Formation:
    """A formation whose free cells (the last ones) have these radices (caps 2**(radix-1))."""
    free = len(radices)
    caps = tuple(1 << (radix - 1) for radix in radices)
    target = 2 * max(caps)
    return Formation(
        "r", fixed=tuple(range(16 - free)), target=target, target_cells=(16 - free,),
        caps=caps if any(cap != target // 2 for cap in caps) else (),
    )  # fmt: skip


RADICES = [(3,), (4, 4, 4, 4), (5, 5, 5, 5), (6, 6, 6), (5, 3, 4, 3), (3, 6, 4), (7, 3, 3, 5, 4)]
FORMATIONS = [*SMALL, *(formation_of(radices) for radices in RADICES)]


def layer_of(digits: tuple[int, ...]) -> int:
    return sum(weight(d) for d in digits)


@pytest.mark.parametrize("formation", FORMATIONS, ids=lambda f: f"{f.name}{f.radices}")
def test_every_layer_ranks_its_positions_once_in_lexicographic_order(formation: Formation):
    positions = list(itertools.product(*(range(r) for r in formation.radices)))
    sizes = layer_sizes(formation)
    starts = layer_starts(formation)
    ranks = ranks_array(formation)
    assert sizes.size == layer_count(formation) and sizes.sum() == formation.entries
    by_layer: dict[int, list[tuple[int, ...]]] = {}
    for digits in positions:  # itertools.product is lexicographic, the first cell first
        by_layer.setdefault(layer_of(digits), []).append(digits)
    radices = np.array(formation.radices, dtype=np.int64)
    out = np.empty(len(formation.radices), dtype=np.int64)
    for layer, members in by_layer.items():
        assert sizes[layer] == len(members)
        for rank, digits in enumerate(members):
            offset = digits_offset(np.array(digits, dtype=np.int64), ranks)
            assert offset == starts[layer] + rank
            unrank(rank, layer, radices, ranks, out)
            assert tuple(out) == digits
    assert set(by_layer) == {layer for layer in range(sizes.size) if sizes[layer]}


@pytest.mark.parametrize("formation", FORMATIONS, ids=lambda f: f"{f.name}{f.radices}")
def test_offsets_of_the_dense_indices_are_a_permutation(formation: Formation) -> None:
    offsets = offsets_of_indices(formation, np.arange(formation.entries))
    assert np.array_equal(np.sort(offsets), np.arange(formation.entries))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(3, 11), min_size=1, max_size=14), st.data())
def test_large_formations_rank_within_their_layer_and_decode_back(radices, data) -> None:
    """Formations too large to list (up to 11**14 positions): sampled positions."""
    formation = formation_of(tuple(radices))
    ranks = ranks_array(formation)
    sizes = layer_sizes(formation)
    starts = layer_starts(formation)
    assert int(sizes.sum()) == formation.entries
    radices_array = np.array(radices, dtype=np.int64)
    out = np.empty(len(radices), dtype=np.int64)
    for _ in range(20):
        digits = tuple(data.draw(st.integers(0, r - 1)) for r in radices)
        layer = layer_of(digits)
        offset = digits_offset(np.array(digits, dtype=np.int64), ranks)
        assert starts[layer] <= offset < starts[layer + 1]
        unrank(offset - starts[layer], layer, radices_array, ranks, out)
        assert tuple(out) == digits


@pytest.mark.parametrize("formation", FORMATIONS, ids=lambda f: f"{f.name}{f.radices}")
def test_stepping_through_a_layer_visits_its_ranks_in_order(formation: Formation) -> None:
    ranks = ranks_array(formation)
    ways = ways_array(formation)
    radices = np.array(formation.radices, dtype=np.int64)
    digits = np.empty(radices.size, dtype=np.int64)
    left = np.empty(radices.size, dtype=np.int64)
    expected = np.empty(radices.size, dtype=np.int64)
    for layer, size in enumerate(layer_sizes(formation)):
        if size == 0:
            continue
        unrank(0, layer, radices, ranks, digits)
        left_sums(digits, left)
        for rank in range(1, size):
            assert next_in_layer(digits, left, radices, ways)
            unrank(rank, layer, radices, ranks, expected)
            assert digits.tolist() == expected.tolist()
            assert left[0] == layer
        assert not next_in_layer(digits, left, radices, ways)
