"""Where a position lives in a table file: its rank within its tile-sum layer.

A position gives each free cell a rank ``d`` (the tile ``2**d``, 0 empty); its *layer* is half
the sum of its free tiles, ``L = sum(w(d))`` with ``w(0) = 0`` and ``w(d) = 2**(d - 1)``. A
move keeps the layer and a spawn of a 2 or a 4 raises it by 1 or 2, so a table is solved from
the highest layer down, and a layer's positions read only the two layers above it.

A table file stores the layers one after another, lowest first, and each layer's positions in
lexicographic order of their ranks, the first free cell (in increasing cell order) most
significant. With ``ways[k][s]`` the number of ways the free cells ``k, k+1, ...`` can hold
the layer ``s`` (each within its radix), a position's place in the file is

    ``offset = RANKS[0, 0, L] + sum over the cells k with d_k > 0 of RANKS[k, d_k, s_k]``

where ``s_k = L - w(d_0) - ... - w(d_{k-1})`` is what is left for the cells from ``k`` on (so
``s_k = w(d_k) + ... + w(d_{n-1})``), ``RANKS[k, d, s]`` (``d > 0``) counts the ways of
holding ``s`` in cells ``k`` on with less than ``d`` on cell ``k`` (``sum over r < d of
ways[k + 1][s - w(r)]``), ``RANKS[0, 0, L]`` is where layer ``L`` starts, and every other
``RANKS[k, 0, s]`` is 0 (an empty cell adds nothing, so the look-up skips it). One small array
per formation (cells x ranks x layers, a few hundred kB): a read per occupied cell.

The *index* of a position (``sum(d_k * place_values[k])``, the dense mixed-radix number of
:attr:`~py2048.tables.formations.Formation.place_values`) stays its name everywhere else
(compact table keys, tests); :func:`offsets_of_indices` maps indices to file offsets.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from py2048.tables.formations import Formation

SUM_PADDING = 3
"""``RANKS`` covers layer sums up to the last layer plus this, so that a child's sum one or
two above a layer that cannot hold it reads a defined (unused) entry, not past the array."""


def weight(rank: int) -> int:
    """Half the tile of ``rank``: what one cell adds to its position's layer."""
    return 0 if rank == 0 else 1 << (rank - 1)


def top_layer(formation: Formation) -> int:
    """The highest layer: every free cell holding its largest tile."""
    return sum(weight(radix - 1) for radix in formation.radices)


def layer_sizes(formation: Formation) -> np.ndarray:
    """int64, one per layer ``0 .. top_layer``: how many positions each layer holds."""
    return _ways(formation.radices, top_layer(formation) + 1 + SUM_PADDING)[0][
        : top_layer(formation) + 1
    ].copy()


def layer_starts(formation: Formation) -> np.ndarray:
    """int64, ``layers + 1`` entries: where each layer starts in the file (the last: all)."""
    sizes = layer_sizes(formation)
    starts = np.zeros(sizes.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    return starts


def _ways(radices: tuple[int, ...], sums: int) -> np.ndarray:
    """``ways[k][s]`` for ``k = 0 .. n`` (``n``: no cell left, one way to hold nothing)."""
    ways = np.zeros((len(radices) + 1, sums), dtype=np.int64)
    ways[len(radices), 0] = 1
    for k in range(len(radices) - 1, -1, -1):
        for rank in range(radices[k]):
            shift = weight(rank)
            ways[k, shift:] += ways[k + 1, : sums - shift]
    return ways


def ranks_array(formation: Formation) -> np.ndarray:
    """``RANKS``: int64 of shape ``(free cells, largest radix, top_layer + 1 + SUM_PADDING)``
    (see the module's docstring), read-only."""
    radices = formation.radices
    sums = top_layer(formation) + 1 + SUM_PADDING
    ways = _ways(radices, sums)
    ranks = np.zeros((len(radices), max(radices), sums), dtype=np.int64)
    for k, radix in enumerate(radices):
        below = np.zeros(sums, dtype=np.int64)
        for rank in range(radix):
            ranks[k, rank] = below
            shift = weight(rank)
            below = below.copy()
            below[shift:] += ways[k + 1, : sums - shift]
    np.cumsum(ways[0, : sums - 1], out=ranks[0, 0, 1:])
    ranks.flags.writeable = False
    return ranks


@njit(cache=True, nogil=True, inline="always")
def digits_offset(digits: np.ndarray, ranks: np.ndarray) -> int:
    """The file offset of the position whose free cells hold ``digits`` (canonical order)."""
    layer = 0
    for k in range(digits.size):
        if digits[k] > 0:
            layer += 1 << (digits[k] - 1)
    offset = ranks[0, 0, layer]
    for k in range(digits.size):
        if digits[k] > 0:
            offset += ranks[k, digits[k], layer]
            layer -= 1 << (digits[k] - 1)
    return offset


@njit(cache=True, nogil=True, inline="always")
def unrank(rank: int, layer: int, radices: np.ndarray, ranks: np.ndarray, digits: np.ndarray):
    """Write into ``digits`` the position of layer ``layer`` at ``rank`` within it (0-based)."""
    left = rank
    for k in range(digits.size):
        digit = radices[k] - 1
        while digit > 0 and ranks[k, digit, layer] > left:
            digit -= 1
        digits[k] = digit
        if digit > 0:
            left -= ranks[k, digit, layer]
            layer -= 1 << (digit - 1)


def ways_array(formation: Formation) -> np.ndarray:
    """``ways[k][s]``: int64 of shape ``(free cells + 1, top_layer + 1 + SUM_PADDING)``, the
    ways the free cells ``k`` on can hold the layer ``s`` (see the module's docstring)."""
    return _ways(formation.radices, top_layer(formation) + 1 + SUM_PADDING)


@njit(cache=True, nogil=True, inline="always")
def left_sums(digits: np.ndarray, left: np.ndarray) -> None:
    """``left[k]``: what the cells from ``k`` on hold (``s_k``) for these digits."""
    held = 0
    for k in range(digits.size - 1, -1, -1):
        if digits[k] > 0:
            held += 1 << (digits[k] - 1)
        left[k] = held


@njit(cache=True, nogil=True, inline="always")
def next_in_layer(digits: np.ndarray, left: np.ndarray, radices: np.ndarray, ways: np.ndarray):
    """Step ``digits`` (and their :func:`left_sums`) to the next position of their layer in
    rank order; False (digits unchanged) at the layer's last position."""
    n = digits.size
    for k in range(n - 2, -1, -1):
        held = left[k]
        for digit in range(digits[k] + 1, radices[k]):
            cost = 1 << (digit - 1)
            if cost > held:
                break
            if ways[k + 1, held - cost] > 0:
                digits[k] = digit
                rest = held - cost
                for j in range(k + 1, n):  # the first way the cells after k hold the rest
                    left[j] = rest
                    smallest = 0
                    while ways[j + 1, rest - (0 if smallest == 0 else 1 << (smallest - 1))] == 0:
                        smallest += 1
                    digits[j] = smallest
                    if smallest > 0:
                        rest -= 1 << (smallest - 1)
                return True
    return False


@njit(parallel=True, cache=True)
def _offsets(indices: np.ndarray, radices: np.ndarray, ranks: np.ndarray, out: np.ndarray):
    for i in prange(indices.size):
        digits = np.empty(radices.size, dtype=np.int64)
        index = indices[i]
        for k in range(radices.size):
            digits[k] = index % radices[k]
            index //= radices[k]
        out[i] = digits_offset(digits, ranks)


def offsets_of_indices(formation: Formation, indices: np.ndarray) -> np.ndarray:
    """int64: the file offset of each position given by its dense index."""
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    out = np.empty(indices.size, dtype=np.int64)
    radices = np.array(formation.radices, dtype=np.int64)
    _offsets(indices.ravel(), radices, ranks_array(formation), out)
    return out.reshape(np.shape(indices))
