"""Named search settings shared by the web page, the terminal game and ``2048 bench``.

This module is the one source of the preset names and limits: the command line's choices, the
web API's schema, the page (which asks the server for them: ``GET /api/presets``) and the
terminal game's strengths all come from :data:`PRESETS`.

A preset searches between ``min_depth`` and ``max_depth``, going deeper on harder boards (see
:func:`py2048.solver.search.adaptive_depth`), and takes at most ``time_ms`` past its minimum
depth: when the chosen depth would not fit, the deepest search that finished in time answers.
``min_depth`` is a floor: it is always searched, even past ``time_ms`` on a loaded machine
(only a board with a single legal move is answered at once, at depth 0). Boards of other sizes
than 4x4 have a depth range of their own, ``grid_depths``: their search is the heuristic's, a
level of it costs far more on a large board (an 8x8 d2 search takes about 19 ms), and a floor
must stay within the cap there too. Their measured strength is in
``docs/solver-reference.md``, "Presets".

A time cap makes a preset's games depend on the machine's speed at the moment (a loaded machine
cuts more searches short). Each preset therefore also has a budget in positions, ``nodes``
(``2048 bench --preset strong --budget nodes``), as chess engines offer a node limit: the same
rule of deepening, counted in positions searched instead of milliseconds, so a game is the same
on any machine under any load. It is the time cap times :data:`NODES_PER_MS`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """Search settings: a depth range and a time cap per move past the minimum depth."""

    name: str
    min_depth: int
    """The shallowest depth searched on 4x4, always searched whole (a floor)."""
    max_depth: int
    """The deepest depth searched on 4x4, on hard boards."""
    time_ms: float
    summary: str
    grid_depths: tuple[int, int]
    """``(min_depth, max_depth)`` on boards other than 4x4."""

    def depths(self, *, classic: bool = True) -> tuple[int, int]:
        """The depth range on 4x4 (``classic``) or on any other size."""
        return (self.min_depth, self.max_depth) if classic else self.grid_depths

    @property
    def nodes(self) -> int:
        """The budget in positions per move that stands for ``time_ms`` (``--budget nodes``)."""
        return round(self.time_ms * NODES_PER_MS)


NODES_PER_MS = 6_400
"""Positions searched per millisecond by the strong preset's 200 measured games on the
reference machine (``docs/results/runs/strong-*.json``: 6.39 million a second over all their
searches, at 43 to 78 moves/s per worker), which turns a time cap into a budget in positions.
Measured with the 4 x 6 network shipped until 2026-12-05; the 8 x 6 network shipped since costs
27% more a position (``docs/ntuple.md``, "Wider shapes"), so with it a budget stood for about
1.37 times the cap's time here; since the search lost numba's reference counting (2026-12-06:
27% more positions a second, ``docs/results.md``, "The search without numba's reference
counting") about 1.08 times. It is kept, so that runs with budgets compare across networks and
across versions."""


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("fast", 2, 3, 5.0, "instant hints: at most 5 ms per move", (1, 2)),
        Preset("balanced", 2, 3, 50.0, "the default: at most 50 ms per move", (2, 3)),
        Preset("strong", 3, 6, 500.0, "for analysis and records: at most 500 ms per move", (3, 6)),
    )
}
"""Every preset by name, quickest first."""
DEFAULT_PRESET = "balanced"
QUICKEST_PRESET = min(PRESETS.values(), key=lambda preset: preset.time_ms).name
"""The preset that warms the solver up, and that the page's fastest autoplay uses."""

BUDGETS = ("time", "nodes")
"""How a preset caps each move's search: ``time_ms`` (for play), or ``nodes`` positions (for
games that are the same under any load; ``2048 bench --budget``)."""


def describe_presets(*, limits: bool = True) -> str:
    """The presets in words, for help texts: "fast (5 ms), balanced (50 ms) or strong (500 ms)",
    or without ``limits`` "fast, balanced or strong"."""
    described = [
        f"{preset.name} ({preset.time_ms:g} ms)" if limits else preset.name
        for preset in PRESETS.values()
    ]
    return f"{', '.join(described[:-1])} or {described[-1]}"
