"""njit_uncounted: kernels without numba's reference counting."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.errors import NumbaError

from py2048._uncounted import njit_uncounted


@njit_uncounted(nogil=True)
def _row_sum(table: np.ndarray, row: int) -> float:
    view = table[row]  # a view of the caller's array needs no counting
    total = 0.0
    for value in view:
        total += value
    return total


@njit_uncounted
def _returns_a_new_array(n: int) -> np.ndarray:
    return np.zeros(n)


@njit_uncounted
def _uses_a_new_array(table: np.ndarray) -> float:
    copy = table.copy()
    return float(copy[0])


def test_an_uncounted_kernel_reads_the_arrays_it_is_given() -> None:
    table = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert _row_sum(table, 1) == 4 + 5 + 6 + 7
    assert _row_sum(table, 2) == 8 + 9 + 10 + 11


def test_an_uncounted_kernel_that_allocates_fails_to_compile() -> None:
    with pytest.raises(NumbaError, match="zeros"):
        _returns_a_new_array(3)
    with pytest.raises(NumbaError, match="NRT required"):
        _uses_a_new_array(np.ones(3))
