"""The progress bar of ``2048 tables build``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rich.console import Console

from py2048.tables.progress import RateColumn, TimeLeftColumn, build_progress


def test_a_build_that_has_just_started_shows_no_rate_and_no_time_left_yet() -> None:
    progress = build_progress(Console(file=None, force_terminal=False))
    task_id = progress.add_task("snake11", total=1_000_000)
    task = progress.tasks[task_id]
    assert RateColumn().render(task).plain == "- positions/s"
    assert TimeLeftColumn().render(task).plain == "-:--:-- left"


def test_the_bar_shows_the_rate_in_millions_and_the_time_left() -> None:
    task: Any = SimpleNamespace(
        speed=2_500_000.0, finished=False, elapsed=10.0, time_remaining=75, total=1
    )
    assert RateColumn().render(task).plain == "2.50 M positions/s"
    assert TimeLeftColumn().render(task).plain == "0:01:15 left"
