"""What ``2048 bench`` shows: the bar while its games play, and the table of their figures."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from py2048.solver.stats import Summary


def games_progress(console: Console) -> Progress:
    """The bar of games played (description, bar, games done of all, time elapsed), gone from
    the screen when they end: ``2048 bench``'s, and ``2048 train install``'s while it measures a
    network."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


def summary_table(summary: Summary, label: str) -> Table:
    """Scores, tile rates with 95% Wilson intervals, moves and speed, as one rich table."""
    table = Table(title=f"py2048 solver, {label}", show_header=True, header_style="bold")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_row("games", f"{summary.games:,}", "")
    table.add_row("mean score", f"{summary.mean_score:,.0f}", "")
    table.add_row("median score", f"{summary.median_score:,.0f}", "")
    table.add_row("max score", f"{summary.max_score:,}", "")
    for rate in summary.rates:
        table.add_row(
            f"reached {rate.tile}",
            f"{rate.share:.1%} ({rate.games})",
            f"{rate.low:.1%} - {rate.high:.1%}",
        )
    if summary.capped:
        table.add_row("games stopped by --max-moves", f"{summary.capped:,}", "")
    table.add_row("moves per game (mean)", f"{summary.mean_moves:,.0f}", "")
    table.add_row("moves, all games", f"{summary.total_moves:,}", "")
    table.add_row("moves/s per worker", f"{summary.moves_per_second_per_worker:,.0f}", "")
    table.add_row("moves chosen by endgame tables", f"{summary.table_move_share:.1%}", "")
    table.add_row("wall time", f"{summary.wall_seconds:,.1f} s", "")
    return table
