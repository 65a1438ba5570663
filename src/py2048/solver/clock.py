"""A monotonic clock that compiled code can read, so a search can stop at its deadline.

numba has no clock of its own; this calls the operating system's monotonic clock by name
(``clock_gettime`` on Linux and macOS, ``QueryPerformanceCounter`` on Windows), which keeps the
kernels cacheable. Python code compares against it through :func:`monotonic`.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, types

if sys.platform == "win32":
    _query_counter = types.ExternalFunction("QueryPerformanceCounter", types.int32(types.voidptr))
    _query_frequency = types.ExternalFunction(
        "QueryPerformanceFrequency", types.int32(types.voidptr)
    )

    @njit("f8()", cache=True, nogil=True)
    def monotonic() -> float:
        """Seconds since an arbitrary fixed point, never going back."""
        ticks = np.zeros(2, dtype=np.int64)
        _query_counter(ticks[0:].ctypes)
        _query_frequency(ticks[1:].ctypes)
        return ticks[0] / ticks[1]

else:
    _CLOCK_MONOTONIC = 6 if sys.platform == "darwin" else 1
    _clock_gettime = types.ExternalFunction(
        "clock_gettime", types.int32(types.int32, types.voidptr)
    )

    @njit("f8()", cache=True, nogil=True)
    def monotonic() -> float:
        """Seconds since an arbitrary fixed point, never going back."""
        spec = np.zeros(2, dtype=np.int64)
        _clock_gettime(_CLOCK_MONOTONIC, spec.ctypes)  # type: ignore[call-overload]  # C's
        return spec[0] + spec[1] * 1e-9
