"""The presets: one source for every front end, loaded without the search."""

from __future__ import annotations

import subprocess
import sys

from py2048.solver.hint import resolve_plan
from py2048.solver.presets import (
    DEFAULT_PRESET,
    NODES_PER_MS,
    PRESETS,
    QUICKEST_PRESET,
    describe_presets,
)


def test_the_presets_load_without_the_search_and_its_kernels() -> None:
    script = (
        "import sys\n"
        "from py2048.solver import DEFAULT_PRESET, PRESETS\n"
        "print(sorted(m for m in sys.modules if m.startswith('py2048.solver')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['py2048.solver', 'py2048.solver.presets']"


def test_the_presets_run_quickest_first_and_name_a_default() -> None:
    limits = [preset.time_ms for preset in PRESETS.values()]
    assert limits == sorted(limits)
    assert next(iter(PRESETS)) == QUICKEST_PRESET
    assert DEFAULT_PRESET in PRESETS
    assert all(name == preset.name for name, preset in PRESETS.items())


def test_help_texts_name_every_preset() -> None:
    assert describe_presets() == "fast (5 ms), balanced (50 ms) or strong (500 ms)"
    assert describe_presets(limits=False) == "fast, balanced or strong"


def test_every_preset_has_a_budget_in_positions_that_stands_for_its_time_cap() -> None:
    budgets = [preset.nodes for preset in PRESETS.values()]
    assert budgets == sorted(budgets) and budgets[0] > 0
    for name, preset in PRESETS.items():
        assert preset.nodes == round(preset.time_ms * NODES_PER_MS)
        by_time = resolve_plan(preset=name)
        by_nodes = resolve_plan(preset=name, budget="nodes")
        assert (by_nodes.seconds, by_nodes.nodes) == (0.0, preset.nodes)
        assert (by_time.seconds, by_time.nodes) == (preset.time_ms / 1000.0, 0)
        assert by_nodes[:2] == by_time[:2] and by_nodes.adaptive and by_time.adaptive


def test_boards_of_other_sizes_search_their_own_depth_range() -> None:
    for name, preset in PRESETS.items():
        for budget in ("time", "nodes"):
            classic = resolve_plan(preset=name, budget=budget)
            other = resolve_plan(preset=name, budget=budget, classic=False)
            assert classic[:2] == (preset.min_depth, preset.max_depth) == preset.depths()
            assert other[:2] == preset.grid_depths == preset.depths(classic=False)
            assert other[2:] == classic[2:]  # the same cap
        low, high = preset.grid_depths
        assert 0 <= low <= high <= preset.max_depth
    grid = [preset.grid_depths for preset in PRESETS.values()]
    assert grid == sorted(grid)
