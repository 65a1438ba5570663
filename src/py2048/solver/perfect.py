"""Perfect play where it is known: the solver's door to the 3x3 table.

3x3 is solved exactly (:mod:`py2048.tables.perfect`, built with ``2048 tables``): for every
position the table knows each direction's optimal expected score still to come, the move's own
points included. Where it is built, hints on 3x3 answer from it (``Hint.source`` "perfect") and
a review of a 3x3 game grades every move against it, in points. Everywhere else, and on 3x3
when it is not built, the search answers as on any size.

The table module is imported only when a board of a size it could hold is asked about, so the
other sizes never load it; a table found is kept for the process, a missing one is looked for
again next time (it may have been built meanwhile).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

from py2048.engine.size import BoardSize

PERFECT_SIZES = (BoardSize(3, 3),)
"""The sizes a perfect-play table can exist for."""


class MoveValues(Protocol):
    """What the solver reads from a perfect-play table."""

    def move_values(self, exponents: Sequence[int]) -> list[float | None]:
        """Each direction's optimal expected score still to come, in Direction order (the
        move's own points included); None where the direction does not move."""
        ...


_found: dict[BoardSize, MoveValues] = {}
_lock = threading.Lock()


def perfect_values(size: BoardSize) -> MoveValues | None:
    """The perfect-play table for boards of ``size``, or None (no such table, or not built)."""
    if size not in PERFECT_SIZES:
        return None
    with _lock:
        found = _found.get(size)
        if found is None:
            try:
                from py2048.tables.perfect import perfect_table
            except ImportError:
                return None
            found = perfect_table(size)
            if found is not None:
                _found[size] = found
        return found


def use_table(size: BoardSize, table: MoveValues | None) -> None:
    """Make ``table`` the perfect-play table of ``size`` for this process (None: forget it,
    and look again next time); for tests and for a table opened from a folder of one's own."""
    with _lock:
        if table is None:
            _found.pop(size, None)
        else:
            _found[size] = table
