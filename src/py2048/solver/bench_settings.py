"""What a ``2048 bench`` plays: its board size, games, seeds, search budget, spawns, evaluation,
move cap and workers.

:class:`BenchSettings` holds them and checks them (for API callers too); nothing compiled loads
until a bench runs. Off 4x4 the games play with the heuristic (the only evaluation that judges
every size), without endgame tables, and with py2048's own spawns.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from py2048.engine.integers import is_int
from py2048.engine.rng import SEED_LIMIT
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size
from py2048.solver.presets import DEFAULT_PRESET, PRESETS
from py2048.solver.spawns import RNGS

if TYPE_CHECKING:
    from py2048.solver.search import SearchPlan


@dataclass(frozen=True)
class BenchSettings:
    """Everything a bench needs; :meth:`checked` rejects bad values with a clear message."""

    games: int = 100
    seed: int = 2001
    depth: int | None = None
    time_ms: float | None = None
    preset: str | None = None
    workers: int | None = None
    rng: str = "py2048"
    evaluator: str | None = None
    ray_address: str | None = None
    json_path: str | None = None
    tables: bool = True
    """Let the built endgame tables answer where they fit (``2048 tables build``)."""
    budget: str = "time"
    """How a preset caps each move: ``"time"`` or ``"nodes"`` (the same games under any load)."""
    size: BoardSize = DEFAULT_SIZE
    """The board: 4x4, or any of 3 to 8 rows and columns."""
    max_moves: int | None = None
    """Stop each game after this many moves (reported as capped); None plays every game out."""

    def checked(self) -> BenchSettings:
        """Validate every field (for API callers too) and return self."""
        parse_size(self.size, "size")
        if self.max_moves is not None and (not is_int(self.max_moves) or self.max_moves < 1):
            raise ValueError(f"max_moves must be 1 or more, got {self.max_moves!r}")
        for name in ("games", "seed"):
            value = getattr(self, name)
            if not is_int(value):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        if self.games < 1:
            raise ValueError(f"games must be 1 or more, got {self.games}")
        if self.seed < 0:
            raise ValueError(f"seed must be 0 or more, got {self.seed}")
        if self.rng not in RNGS:
            raise ValueError(f"unknown rng {self.rng!r}; choose one of {', '.join(RNGS)}")
        from py2048.solver import crand

        limit = crand.SEED_LIMIT if self.rng == "c-rand" else SEED_LIMIT
        if self.seed + self.games > limit:
            raise ValueError(
                f"game seeds run from seed to seed + games - 1 = {self.seed + self.games - 1}, "
                f"past {limit - 1}, the largest seed the {self.rng} generator takes"
            )
        if self.workers is not None and (
            isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1
        ):
            raise ValueError(f"workers must be 1 or more, got {self.workers!r}")
        self.plan()
        if not self.board_size.classic:
            if self.rng != "py2048":
                raise ValueError(
                    f"rng {self.rng!r} reproduces another program's 4x4 games; a "
                    f"{self.board_size} bench spawns with py2048's own generator"
                )
            from py2048.solver.hint import check_grid_evaluator

            check_grid_evaluator(self.evaluator, self.board_size)
        else:
            from py2048.evaluation.ntuple import check_named_network
            from py2048.evaluation.registry import (
                DEFAULT_EVALUATOR,
                NETWORK_EVALUATORS,
                get_evaluator,
            )

            if (self.evaluator or DEFAULT_EVALUATOR) in NETWORK_EVALUATORS:
                check_named_network()  # measure the network asked for, or stop
            get_evaluator(self.evaluator)
        if self.json_path is not None:
            path = Path(self.json_path)
            if path.is_dir():
                raise ValueError(f"--json {path} is a directory; give a file name")
            if not path.parent.is_dir():
                raise ValueError(f"--json {path}: the folder {path.parent} does not exist")
        return self

    @property
    def board_size(self) -> BoardSize:
        """:attr:`size` as a :class:`~py2048.engine.size.BoardSize` (it may be given as "5x5")."""
        return parse_size(self.size, "size")

    @property
    def uses_tables(self) -> bool:
        """Endgame tables answer where they fit: asked for, and on 4x4 (their only size); on
        3x3 the perfect-play table, where it is built."""
        if not self.tables:
            return False
        if self.board_size.classic:
            return True
        from py2048.solver.perfect import perfect_values

        return perfect_values(self.board_size) is not None

    def evaluator_name(self) -> str:
        """The evaluation the games play with, by name (loading it on 4x4)."""
        if not self.board_size.classic:
            from py2048.evaluation.lines import NAME

            return NAME
        from py2048.evaluation.registry import get_evaluator

        return get_evaluator(self.evaluator).name

    def plan(self) -> SearchPlan:
        from py2048.solver.hint import resolve_plan

        classic = self.board_size.classic
        return resolve_plan(self.depth, self.time_ms, self.preset, self.budget, classic=classic)

    def label(self) -> str:
        if self.depth is not None:
            return f"d{self.depth}"
        if self.time_ms is not None:
            return f"{self.time_ms:g} ms/move"
        name = self.preset or DEFAULT_PRESET
        if self.budget == "nodes":
            return f"preset {name}, {PRESETS[name].nodes:,} positions/move"
        return f"preset {name}"

    def worker_count(self) -> int:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return max(1, min(self.games, self.workers or cores or 1))
