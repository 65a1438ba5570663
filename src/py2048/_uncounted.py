"""``njit_uncounted``: numba's ``njit`` for the hot kernels, without reference counting.

numba counts the arrays a kernel holds (its *NRT*, numba runtime): every array taken out of a
record or handed to an inlined helper is counted up when bound and down when dropped, with
atomic instructions. In the search tree and the trainer's play loop that happens on every node
or move: ``perf record`` put it at a third of a d2 search's compiled time and 14% of a training
thread's. A kernel compiled with ``_nrt=False`` does no counting at all, which is safe when it
neither allocates nor keeps array views beyond the arrays its caller holds: it then fails to
compile if it tries to (np.empty, a slice kept in a variable), instead of running slower.

``_nrt`` is a numba option without public documentation (``numba.core.options``); a numba
release without it makes every kernel compiled here fail at its first call, loudly, not run
slower. This is its one home.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, overload

from numba import njit

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

_FunctionT = TypeVar("_FunctionT", bound=Callable[..., object])


@overload
def njit_uncounted(function: _FunctionT, /) -> Dispatcher[_FunctionT]: ...


@overload
def njit_uncounted(
    signature: Any = None, /, **options: Any
) -> Callable[[_FunctionT], Dispatcher[_FunctionT]]: ...


def njit_uncounted(*args: Any, **options: Any) -> Any:
    """``njit(*args, **options)`` with reference counting off (see the module docstring)."""
    return njit(*args, _nrt=False, **options)  # type: ignore[call-overload]  # numba's private option
