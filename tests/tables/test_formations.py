"""A formation names its cells, its target and, optionally, a cap on each free cell."""

from __future__ import annotations

import pytest

from py2048.tables import FORMATIONS, Formation
from py2048.tables.formations import MEASURED
from tests.tables.conftest import CAPPED, ROW3


def test_caps_number_positions_in_a_mixed_radix() -> None:
    assert CAPPED.radices == (5, 3, 4, 4, 5)  # 16, 4, 8, 8, 16: empty or 4, 2, 3, 3, 4 tiles
    assert CAPPED.entries == 5 * 3 * 4 * 4 * 5
    assert [CAPPED.place_values[c] for c in CAPPED.free_cells] == [1, 5, 15, 60, 240]
    assert ROW3.radices == (4, 4, 4, 4) and ROW3.entries == 4**4


def test_a_formation_reads_back_from_its_json() -> None:
    assert Formation.from_json(CAPPED.to_json()) == CAPPED
    assert Formation.from_json(ROW3.to_json()) == ROW3
    assert "caps" not in ROW3.to_json()  # headers of tables without caps stay as they were


@pytest.mark.parametrize(
    "caps",
    [(16, 8, 8, 4), (16, 8, 8, 4, 4, 4), (32, 8, 8, 4, 4), (16, 8, 8, 4, 2), (16, 8, 12, 4, 4)],
    ids=["too few", "too many", "the target", "below 4", "not a power of two"],
)
def test_caps_that_do_not_fit_the_free_cells_are_refused(caps: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="caps must give each of the 5 free cells"):
        Formation("bad", fixed=tuple(range(11)), target=32, target_cells=(11,), caps=caps)


def test_every_built_in_formation_can_build_its_target() -> None:
    assert all(formation.can_build_target() for formation in FORMATIONS)


def test_every_built_in_table_says_what_it_was_measured_to_add() -> None:
    names = {formation.name for formation in FORMATIONS}
    assert set(MEASURED) == names
    assert all(MEASURED[name].strip() for name in names)


def test_caps_that_forbid_the_last_merge_are_seen() -> None:
    # the target cell (11) may hold a 16, but its one free neighbour (15) only an 8
    blocked = Formation("b", tuple(range(11)), target=32, target_cells=(11,), caps=(16, 4, 8, 8, 8))
    assert not blocked.can_build_target()
    assert CAPPED.can_build_target() and ROW3.can_build_target()
    lonely = Formation("l", tuple(range(15)), target=8, target_cells=(15,))  # no free neighbour
    assert not lonely.can_build_target()
