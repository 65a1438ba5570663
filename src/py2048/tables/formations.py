"""Formations: which cells hold the large tiles, and which tile to build where.

A :class:`Formation` names the cells that hold large tiles (``fixed``: they must never move),
the tile to build (``target``) and the free cells where building it counts as success
(``target_cells``). Cells are numbered ``4 * row + column``, row 0 at the top. The other cells
are free; a position of the formation gives each free cell a rank ``0 .. t - 1`` (the tile
``2**rank``, 0 empty), where ``t = log2(target)``.

:data:`FORMATIONS` is the plain list of the built-in formations; the set will be tuned by
measurement, so it is data and nothing else. :func:`get_formation` and
:func:`default_formations` read the list when called, so a test may extend it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

CELLS = 16
MIN_TARGET = 8
MAX_TARGET = 2048
DEFAULT_MAX_ENTRIES = 1_100_000_000
"""``2048 tables build`` with no names builds every formation of at most this many entries."""

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class Formation:
    """Large tiles held in ``fixed`` cells, and the ``target`` tile to build on ``target_cells``.

    Example: ``Formation("snake8-128", fixed=(0, 1, 2, 3, 4, 5, 6, 7), target=128,
    target_cells=(8,))`` -- the top two rows hold the large tiles, and the table gives the
    probability of building a 128 at the left end of row 2 without moving them.
    """

    name: str
    fixed: tuple[int, ...]
    target: int
    target_cells: tuple[int, ...]

    def __post_init__(self) -> None:
        where = f"formation {self.name!r}"
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(
                f"{where}: a name is 1 to 40 lower-case letters, digits and '-', "
                "starting with a letter or digit"
            )
        for field in ("fixed", "target_cells"):
            cells = getattr(self, field)
            if not isinstance(cells, tuple) or not all(
                isinstance(cell, int) and not isinstance(cell, bool) for cell in cells
            ):
                raise ValueError(f"{where}: {field} must be a tuple of cell numbers")
            if any(not 0 <= cell < CELLS for cell in cells):
                raise ValueError(f"{where}: {field} holds a cell outside 0..15: {cells}")
            if len(set(cells)) != len(cells):
                raise ValueError(f"{where}: {field} names a cell twice: {cells}")
        target = self.target
        if (
            isinstance(target, bool)
            or not isinstance(target, int)
            or target < MIN_TARGET
            or target > MAX_TARGET
            or target & (target - 1)
        ):
            raise ValueError(
                f"{where}: target must be a power of two from {MIN_TARGET} to {MAX_TARGET}, "
                f"got {target!r}"
            )
        if not self.free_cells:
            raise ValueError(f"{where}: every cell is fixed; a formation needs a free cell")
        if not self.target_cells:
            raise ValueError(f"{where}: target_cells is empty")
        if not set(self.target_cells) <= set(self.free_cells):
            raise ValueError(f"{where}: target_cells must be free cells, got {self.target_cells}")

    @property
    def free_cells(self) -> tuple[int, ...]:
        """The cells that are not fixed, in increasing order (the order of the index digits)."""
        return tuple(cell for cell in range(CELLS) if cell not in self.fixed)

    @property
    def rank_limit(self) -> int:
        """``t = log2(target)``: free cells hold ranks ``0 .. t - 1``, rank ``t`` is the target."""
        return self.target.bit_length() - 1

    @property
    def entries(self) -> int:
        """Positions in the table: ``t ** n`` for ``n`` free cells."""
        return self.rank_limit ** len(self.free_cells)

    @property
    def place_values(self) -> tuple[int, ...]:
        """Per cell, what one rank adds to a position's index (0 on fixed cells).

        ``index = sum(rank[cell] * place_values[cell])``: the k-th free cell in increasing
        order is digit k of the index written in base t.
        """
        values = [0] * CELLS
        for k, cell in enumerate(self.free_cells):
            values[cell] = self.rank_limit**k
        return tuple(values)

    def to_json(self) -> dict[str, Any]:
        """The formation as a JSON object (stored in every table file's header)."""
        return {
            "name": self.name,
            "fixed": list(self.fixed),
            "target": self.target,
            "target_cells": list(self.target_cells),
        }

    @classmethod
    def from_json(cls, data: object) -> Formation:
        """The formation of :meth:`to_json`; raises ValueError on anything else."""
        if not isinstance(data, dict) or set(data) != {"name", "fixed", "target", "target_cells"}:
            raise ValueError(f"not a formation: {json.dumps(data)[:200]}")
        fixed, target_cells = data["fixed"], data["target_cells"]
        if not isinstance(fixed, list) or not isinstance(target_cells, list):
            raise ValueError(f"not a formation: {json.dumps(data)[:200]}")
        return cls(data["name"], tuple(fixed), data["target"], tuple(target_cells))


SNAKE = (0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12)
"""The snake with the largest tile in the top-left corner: row 0 left to right, row 1 right to
left, row 2 left to right, row 3 right to left."""


def _snake(length: int, target: int) -> Formation:
    return Formation(
        f"snake{length}-{target}",
        fixed=tuple(sorted(SNAKE[:length])),
        target=target,
        target_cells=(SNAKE[length],),
    )


FORMATIONS: list[Formation] = [
    _snake(8, 128),
    _snake(8, 256),
    _snake(7, 128),
    _snake(7, 256),
    _snake(6, 128),
    _snake(6, 256),
]
"""The built-in formations, smallest first: snakes of 6 to 8 large tiles from the top-left
corner (any corner, through the look-up's symmetries), each with the tile to build next to
its last one. Chosen by measurement (``docs/solver-notes.md``): the solver asks a table only
where the smallest large tile is at least 256 and the target is that tile or half of it,
which before a 32768 only these formations can meet; with smaller targets the tables answered
more moves and the late game went worse."""


def get_formation(name: str) -> Formation:
    """The formation of :data:`FORMATIONS` with this name; ValueError naming the known ones."""
    for formation in FORMATIONS:
        if formation.name == name:
            return formation
    known = ", ".join(formation.name for formation in FORMATIONS)
    raise ValueError(f"unknown table {name!r}; the tables are: {known}")


def default_formations(max_entries: int = DEFAULT_MAX_ENTRIES) -> list[Formation]:
    """The formations ``2048 tables build`` builds when given no names."""
    return [formation for formation in FORMATIONS if formation.entries <= max_entries]
