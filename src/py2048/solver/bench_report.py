"""What a ``2048 bench`` reports besides its table (:mod:`py2048.solver.report`): the line
naming the endgame tables its games play with, and the ``--json`` document.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from py2048.solver.bench_settings import BenchSettings
from py2048.solver.stats import Summary

if TYPE_CHECKING:
    from py2048.solver.autoplay import GameRecord


def bench_report(
    settings: BenchSettings, records: list[GameRecord], summary: Summary
) -> dict[str, Any]:
    """The ``--json`` document: the settings, the summary and every game."""
    return {
        "settings": {
            "size": str(settings.board_size),
            "max_moves": settings.max_moves,
            "games": settings.games,
            "seed": settings.seed,
            "depth": settings.depth,
            "time_ms": settings.time_ms,
            "preset": settings.preset,
            "budget": settings.budget,
            "plan": settings.plan()._asdict(),
            "rng": settings.rng,
            "evaluator": settings.evaluator_name(),
            "network": _network(settings),
            "tables": list(_table_names(settings)),
            "table_checksums": _table_checksums(settings),
            "table_policy": _table_policy(settings),
            "workers": None if settings.ray_address else settings.worker_count(),
            "ray": settings.ray_address is not None,
        },
        "summary": asdict(summary),
        "games": [asdict(r) for r in records],
    }


def network_line(settings: BenchSettings) -> str | None:
    """The header line that says which network the games play with and what chose it: the
    shipped one, the file ``PY2048_NTUPLE_WEIGHTS`` names, or the strongest measured of those
    ``2048 train install`` installed (None for an evaluation that uses none)."""
    network = _network(settings)
    if network is None:
        return None
    if network["shipped"]:
        return f"network: the shipped one (sha256 {network['sha256']})"
    if network["name"] is None:
        return f"network: {network['file']} (sha256 {network['sha256']}, PY2048_NTUPLE_WEIGHTS)"
    return (
        f"network: {network['name']}, the strongest measured of those installed "
        f"({network['file']}, sha256 {network['sha256']})"
    )


def _network(settings: BenchSettings) -> dict[str, object] | None:
    if not settings.evaluator_name().startswith("ntuple"):
        return None
    from py2048.evaluation.ntuple import network_in_use

    return network_in_use()


def tables_line(settings: BenchSettings) -> str:
    """The header line that says which endgame tables the games play with, and from where (the
    same names as the JSON's ``settings.tables``)."""
    if not settings.tables:
        return "tables: none (--no-tables)"
    if not settings.board_size.classic:
        if settings.uses_tables:
            from py2048.tables import tables_dir

            return f"tables: perfect play on {settings.board_size} in {tables_dir()}"
        return (
            f"tables: none (the endgame tables are for 4x4; this bench plays {settings.board_size})"
        )
    from py2048.tables import tables_dir

    names = _table_names(settings)
    full = [name for name in names if not name.endswith(" (compact)")]
    compact = len(names) - len(full)
    built = ", ".join(full) if full else "none built"
    return (
        f"tables: {built} in {tables_dir()}; the compact table for {compact} formation(s) more"
        if compact
        else f"tables: {built} in {tables_dir()}"
    )


def _table_checksums(settings: BenchSettings) -> dict[str, str]:
    """Each built table's checksum by its label (as in ``tables``): two builds of one name
    with other caps, or the same values at 1 byte, are different tables."""
    if not settings.uses_tables or not settings.board_size.classic:
        return {}
    from py2048.solver.endgame import endgame_tables

    loaded = endgame_tables()
    built = loaded.labels[: len(loaded.checksums)]  # the compact table's formations come after
    return dict(zip(built, loaded.checksums, strict=True))


def _table_policy(settings: BenchSettings) -> dict[str, object] | None:
    """When the 4x4 tables' answers are taken (``py2048.solver.endgame.TablePolicy``: the
    smallest chain they answer for, the chances they need), so that a run says the settings it
    played with; None where no 4x4 table is asked."""
    if not settings.uses_tables or not settings.board_size.classic:
        return None
    from py2048.solver.endgame import endgame_tables

    return dict(endgame_tables().record.policy._asdict())


def _table_names(settings: BenchSettings) -> tuple[str, ...]:
    """The endgame tables this process plays with (the workers open the same folder)."""
    if not settings.uses_tables:
        return ()
    if not settings.board_size.classic:
        return (f"perfect-{settings.board_size}",)
    from py2048.solver.endgame import endgame_tables

    return endgame_tables().labels
