"""The presets: one source for every front end, loaded without the search."""

from __future__ import annotations

import subprocess
import sys

from py2048.solver.presets import DEFAULT_PRESET, PRESETS, QUICKEST_PRESET, describe_presets


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
