"""The progress bar of ``2048 tables build``: positions done, their rate and the time left.

Its own module so that the command loads rich's progress only when a build runs.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    """Positions per second."""

    def render(self, task: Task) -> Text:
        if task.speed is None:
            return Text("- positions/s", style="progress.data.speed")
        return Text(f"{task.speed / 1e6:.2f} M positions/s", style="progress.data.speed")


class TimeLeftColumn(TimeRemainingColumn):
    """Time left, once a few seconds of this run give a speed to go by."""

    def render(self, task: Task) -> Text:
        if not task.finished and (task.elapsed or 0.0) < 3.0:
            return Text("-:--:-- left", style="progress.remaining")
        return Text.assemble(super().render(task), " left")


def build_progress(console: Console) -> Progress:
    """The bar of one table's build, gone from the screen when it ends."""
    return Progress(
        "  {task.description}",
        BarColumn(),
        TaskProgressColumn(),
        RateColumn(),
        TimeLeftColumn(),
        console=console,
        transient=True,
    )
