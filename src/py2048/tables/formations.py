"""Formations: which cells hold the large tiles, and which tile to build where.

A :class:`Formation` names the cells that hold large tiles (``fixed``: they must never move),
the tile to build (``target``) and the free cells where building it counts as success
(``target_cells``). Cells are numbered ``4 * row + column``, row 0 at the top. The other cells
are free; a position of the formation gives each free cell a rank ``0 .. t - 1`` (the tile
``2**rank``, 0 empty), where ``t = log2(target)``, or up to its cap (``caps``).

:data:`FORMATIONS` is the plain list of the built-in formations; the set will be tuned by
measurement, so it is data and nothing else. :func:`get_formation` and
:func:`default_formations` read the list when called, so a test may extend it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from py2048.engine.geometry import CELLS, SNAKE
from py2048.engine.integers import is_int

MIN_TARGET = 8
MAX_TARGET = 2048
MIN_CAP = 4
"""The smallest cap: a free cell must take both new tiles, 2 and 4."""
DEFAULT_MAX_ENTRIES = 1_200_000_000
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
    caps: tuple[int, ...] = ()
    """The largest tile each free cell may hold, in increasing cell order; empty: half the
    target everywhere. A position with a larger tile on a capped cell is outside the table
    (it counts as failure), which keeps large free regions small enough to solve: far from
    the target cell, small tiles are all that good play keeps."""

    def __post_init__(self) -> None:
        where = f"formation {self.name!r}"
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(
                f"{where}: a name is 1 to 40 lower-case letters, digits and '-', "
                "starting with a letter or digit"
            )
        for field in ("fixed", "target_cells"):
            cells = getattr(self, field)
            if not isinstance(cells, tuple) or not all(is_int(cell) for cell in cells):
                raise ValueError(f"{where}: {field} must be a tuple of cell numbers")
            if any(not 0 <= cell < CELLS for cell in cells):
                raise ValueError(f"{where}: {field} holds a cell outside 0..15: {cells}")
            if len(set(cells)) != len(cells):
                raise ValueError(f"{where}: {field} names a cell twice: {cells}")
        target = self.target
        if (
            not is_int(target)
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
        if not isinstance(self.caps, tuple):
            raise ValueError(f"{where}: caps must be a tuple of tiles")
        if self.caps and (
            len(self.caps) != len(self.free_cells)
            or not all(
                is_int(cap) and MIN_CAP <= cap <= self.target // 2 and not cap & (cap - 1)
                for cap in self.caps
            )
        ):
            raise ValueError(
                f"{where}: caps must give each of the {len(self.free_cells)} free cells a power "
                f"of two from {MIN_CAP} to half the target, got {self.caps}"
            )

    def can_build_target(self) -> bool:
        """Whether the last merge can happen: half the target fits on a target cell and on a
        free cell next to it. Caps that forbid it make every position of the table a failure."""
        caps = self.caps or (self.target // 2,) * len(self.free_cells)
        cap = dict(zip(self.free_cells, caps, strict=True))
        half = self.target // 2
        for cell in self.target_cells:
            row, column = divmod(cell, 4)
            neighbours = [
                4 * r + c
                for r, c in (
                    (row - 1, column),
                    (row + 1, column),
                    (row, column - 1),
                    (row, column + 1),
                )
                if 0 <= r < 4 and 0 <= c < 4
            ]
            if cap[cell] >= half and any(cap.get(n, 0) >= half for n in neighbours):
                return True
        return False

    @property
    def free_cells(self) -> tuple[int, ...]:
        """The cells that are not fixed, in increasing order (the order of the index digits)."""
        return tuple(cell for cell in range(CELLS) if cell not in self.fixed)

    @property
    def rank_limit(self) -> int:
        """``t = log2(target)``: free cells hold ranks ``0 .. t - 1``, rank ``t`` is the target."""
        return self.target.bit_length() - 1

    @property
    def radices(self) -> tuple[int, ...]:
        """How many ranks each free cell can hold, in increasing cell order: ``t`` (empty up
        to half the target), or ``log2(cap) + 1`` on a capped cell."""
        if not self.caps:
            return (self.rank_limit,) * len(self.free_cells)
        return tuple(cap.bit_length() for cap in self.caps)

    @property
    def entries(self) -> int:
        """Positions in the table: the product of the radices (``t ** n`` without caps)."""
        return math.prod(self.radices)

    @property
    def place_values(self) -> tuple[int, ...]:
        """Per cell, what one rank adds to a position's index (0 on fixed cells).

        ``index = sum(rank[cell] * place_values[cell])``: the k-th free cell in increasing
        order is digit k of the index written in the mixed radix of :attr:`radices` (base t
        without caps).
        """
        values = [0] * CELLS
        place = 1
        for cell, radix in zip(self.free_cells, self.radices, strict=True):
            values[cell] = place
            place *= radix
        return tuple(values)

    def to_json(self) -> dict[str, Any]:
        """The formation as a JSON object (stored in every table file's header; ``caps``
        only when there are some, so uncapped tables keep the header they always had)."""
        data: dict[str, Any] = {
            "name": self.name,
            "fixed": list(self.fixed),
            "target": self.target,
            "target_cells": list(self.target_cells),
        }
        if self.caps:
            data["caps"] = list(self.caps)
        return data

    @classmethod
    def from_json(cls, data: object) -> Formation:
        """The formation of :meth:`to_json`; raises ValueError on anything else."""
        keys = {"name", "fixed", "target", "target_cells"}
        if not isinstance(data, dict) or set(data) - {"caps"} != keys:
            raise ValueError(f"not a formation: {json.dumps(data)[:200]}")
        fixed, target_cells, caps = data["fixed"], data["target_cells"], data.get("caps", [])
        if not all(isinstance(cells, list) for cells in (fixed, target_cells, caps)):
            raise ValueError(f"not a formation: {json.dumps(data)[:200]}")
        return cls(data["name"], tuple(fixed), data["target"], tuple(target_cells), tuple(caps))


def _snake(length: int, target: int, caps_along: tuple[int, ...] = ()) -> Formation:
    """The snake's first ``length`` cells fixed, ``target`` on the next one; ``caps_along``
    caps the free cells in snake order from the target cell on (their caps fall with the
    distance from it)."""
    caps = dict(zip(SNAKE[length:], caps_along, strict=True)) if caps_along else {}
    fixed = tuple(sorted(SNAKE[:length]))
    return Formation(
        f"snake{length}-{target}",
        fixed=fixed,
        target=target,
        target_cells=(SNAKE[length],),
        caps=tuple(caps[cell] for cell in range(CELLS) if cell not in fixed) if caps else (),
    )


_CAPS_FOR_512 = (256, 256, 128, 128, 64, 64, 32, 32, 16, 16, 16)
"""What a free cell may hold on the way to a 512, along the snake from the target cell."""

_CAPS_FOR_2048 = (1024, 1024, 512, 256, 128, 64, 64, 32, 32, 16, 16, 16)
"""What a free cell may hold on the way to a 2048 behind four large tiles, along the snake from
the target cell: the chain 1024 .. 16 the build needs, and small tiles beyond it."""

FORMATIONS: list[Formation] = [
    _snake(8, 128),
    _snake(8, 256),
    _snake(7, 128),
    _snake(7, 256),
    _snake(6, 128),
    _snake(6, 256),
    _snake(7, 512, caps_along=_CAPS_FOR_512[:9]),
    _snake(6, 512, caps_along=_CAPS_FOR_512[:10]),
    _snake(5, 512, caps_along=_CAPS_FOR_512),
    _snake(4, 2048, caps_along=_CAPS_FOR_2048),
]
"""The built-in formations: snakes of 5 to 8 large tiles from the top-left corner (any corner,
through the look-up's symmetries), each with the tile to build next to its last one; the 512
tables cap their free cells to stay near a billion positions. Chosen by measurement
(``docs/solver-reference.md``, "Playing with the tables"): the solver asks a table only where the
smallest large tile is at least 256 (``MIN_TAIL``: 128 with the network shipped before) and the
target is that tile or half of it; a capped snake of five building a 256 made the late game worse. A
capped snake of five building a 1024 (1.9 billion positions) answered too seldom to help, and
snakes of four building a 512 or a 1024 (near-certain goals in twelve cells) made it worse.
snake4-2048 builds the 2048 that completes a chain of four (16384, 8192, 4096, 2048: its success
is the 32768) in twelve capped cells: 19.2 billion positions, 38.4 GB, built only by name;
tighter caps (8 on the last row, 4.7 billion positions) made play worse."""


_SIX = "together, late-game set A at d2: 12 of 110 positions reach 32768, against 1 with no table"
_THREE_512 = "added to the six, set A at d2: 21 of 110 reach 32768, against 12"
MEASURED: dict[str, str] = {
    **dict.fromkeys(
        ("snake8-128", "snake8-256", "snake7-128", "snake7-256", "snake6-128", "snake6-256"), _SIX
    ),
    **dict.fromkeys(("snake7-512", "snake6-512", "snake5-512"), _THREE_512),
    "snake4-2048": (
        "added to the nine, 200 whole games reach 32768 at d2 in 35.5% against 33.5%, with "
        "balanced in 31.5% against 32.0%, and 100 with strong in 36.0% against 36.0%; with the "
        "late game read downgraded, d2 45.0% against 45.5%: no change shown"
    ),
}
"""What each built-in table was measured to add to play (``2048 tables list`` shows it; the
runs and their commands are in ``docs/results.md``, "Endgame tables"). Tables measured
together share one line."""


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
