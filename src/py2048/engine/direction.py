"""The four moves, numbered as the original game and Gymnasium 2048 environments number them."""

from __future__ import annotations

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
        if isinstance(value, Direction):
            return value
        if isinstance(value, str):
            found = _BY_TEXT.get(value.strip().lower())
            if found is not None:
                return found
        elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
            return cls(value)
        raise ValueError(
            f"unknown direction {value!r}: expected 'up', 'right', 'down' or 'left' "
            "(or 0-3, or U/R/D/L)"
        )


_BY_TEXT: dict[str, Direction] = {d.name.lower(): d for d in Direction} | {
    d.letter.lower(): d for d in Direction
}

DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
