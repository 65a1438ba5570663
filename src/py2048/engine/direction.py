"""The four moves, numbered as the original game and Gymnasium 2048 environments number them."""

from __future__ import annotations

import operator
from enum import IntEnum


class Direction(IntEnum):
    """A move direction. ``int(d)`` is the action number: 0 up, 1 right, 2 down, 3 left."""

    UP = 0
    RIGHT = 1
    DOWN = 2
    LEFT = 3

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def letter(self) -> str:
        """One-letter code used in saved move histories: U, R, D or L."""
        return self.name[0]

    @classmethod
    def parse(cls, value: Direction | str | int) -> Direction:
        """Accept a Direction, a name ("up", "Left"), a history letter ("U") or an action number."""
        try:
            found = _ACCEPTED.get(value)
        except TypeError:  # unhashable
            found = None
        if found is not None and type(value) in (Direction, str, int):
            return found
        if isinstance(value, str) and (found := _ACCEPTED.get(value.strip().lower())):
            return found
        if hasattr(type(value), "__index__") and not isinstance(value, bool):  # numpy integers
            number = operator.index(value)  # type: ignore[arg-type]  # any __index__
            if 0 <= number <= 3:
                return cls(number)
        raise ValueError(
            f"unknown direction {value!r}: expected 'up', 'right', 'down' or 'left' "
            "(or 0-3, or U/R/D/L)"
        )


_ACCEPTED: dict[object, Direction] = {
    key: d for d in Direction for key in (d, d.name.lower(), d.name, d.letter, d.letter.lower())
}
"""Every spelling parse() accepts as is (Direction members double as the numbers 0-3)."""

LETTERS = "".join(d.letter for d in Direction)
"""Each direction's letter, in the directions' order: "URDL"."""
HISTORY_LETTERS = frozenset(LETTERS)
"""The letters a saved move history is written in."""

DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
