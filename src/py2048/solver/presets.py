"""Named search settings shared by the web page, the terminal game and ``2048 bench``.

A preset searches between ``min_depth`` and ``max_depth``, going deeper on harder boards (see
:func:`py2048.solver.hint.adaptive_depth`), and never takes more than ``time_ms``: when the
chosen depth would not fit, the deepest search that finished in time answers. Their measured
strength is in ``docs/solver.md``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """Search settings with a hard time cap per move."""

    name: str
    min_depth: int
    max_depth: int
    time_ms: float
    summary: str


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("fast", 1, 2, 5.0, "instant hints: at most 5 ms per move"),
        Preset("balanced", 1, 3, 50.0, "the default: at most 50 ms per move"),
        Preset("strong", 3, 6, 500.0, "for analysis and records: at most 500 ms per move"),
    )
}
DEFAULT_PRESET = "balanced"
