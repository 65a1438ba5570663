"""``2048 tables build 3x3`` and the 3x3 table's line in ``2048 tables list``.

:mod:`.command` hands these the names ``3x3`` (or ``perfect-3x3``); the table itself is
:mod:`.perfect`'s, loaded only when it is built or listed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

NAMES = ("3x3", "perfect-3x3")
"""What ``2048 tables build`` takes for the 3x3 perfect-play table."""
POSITIONS = 48_713_519
"""The positions of the whole 3x3 game (one per symmetry class), as the build lists them."""
FILE_BYTES = 974_405_432
"""The size of the table's file."""
HELP = (
    "`2048 tables build 3x3` solves the whole 3x3 game for perfect play (hints and reviews on "
    "3x3 then say what best play expects): 48.7 million positions, a 974 MB file, about 5 "
    "minutes and 0.65 GB of memory on a 2-core machine. It is built only by name, and a "
    "stopped 3x3 build starts over."
)
"""What ``build --help`` says of it (docs/tables.md has the measured figures)."""


def split(names: list[str]) -> tuple[list[str], bool]:
    """The names without the 3x3 table's, and whether it was named."""
    rest = [name for name in names if name not in NAMES]
    return rest, len(rest) != len(names)


def build(folder: Path, console: Console, *, force: bool, threads: int | None) -> int:
    """Build the 3x3 table with a progress bar (unless built and whole, or ``force``); 0 when
    built, 130 if stopped by Ctrl-C and 1 if the disk refused a write (no table is left)."""
    from py2048.tables.perfect import (
        NAME,
        PerfectProgress,
        PerfectTableError,
        build_perfect_table,
        check_perfect_file,
        perfect_path,
    )
    from py2048.tables.progress import build_progress

    path = perfect_path(folder)
    if not force and path.exists():
        try:
            header = check_perfect_file(path)
        except PerfectTableError as error:
            console.print(f"{NAME}: the file is bad ({error.problem}); rebuilding.")
        else:
            console.print(
                f"{NAME}: already built ({header.file_size / 1e6:.1f} MB, {path}); "
                "--force rebuilds it."
            )
            return 0
    console.print(
        f"{NAME}: perfect play on 3x3, {POSITIONS:,} positions, {FILE_BYTES / 1e6:.0f} MB on "
        "disk; listing the positions, then solving them"
    )
    bar = build_progress(console)
    listing = bar.add_task(f"{NAME} (listing, by tile sum)", total=None)
    solving = bar.add_task(f"{NAME} (solving)", total=POSITIONS, visible=False)

    def advance(now: PerfectProgress) -> None:
        if now.stage == "listing":
            bar.update(listing, description=f"{NAME} (listing: tile sum {2 * now.done})")
        else:
            bar.update(listing, visible=False)
            bar.update(solving, visible=True, total=now.total, completed=now.done)

    started = time.monotonic()
    try:
        with bar:
            built = build_perfect_table(folder, progress=advance, threads=threads)
    except (KeyboardInterrupt, OSError) as error:
        why = "" if isinstance(error, KeyboardInterrupt) else f" ({error.strerror or error})"
        console.print(f"{NAME}: stopped{why}; no table was written. Run the command again.")
        return 130 if isinstance(error, KeyboardInterrupt) else 1
    seconds = time.monotonic() - started
    console.print(
        f"{NAME}: built in {seconds / 60:.1f} min, {built.stat().st_size / 1e6:.1f} MB: {built}"
    )
    return 0


def list_row(folder: Path) -> tuple[str, str, str, str, str, str]:
    """The 3x3 table's row in ``2048 tables list``: name, target, positions, size, build
    time, state. Its name there is ``3x3``, what ``build`` takes (``perfect-3x3`` too), short
    enough to leave the state column its width."""
    from py2048.tables.perfect import PerfectTableError, perfect_path, read_perfect_header

    path = perfect_path(folder)
    build_time = ""
    try:
        header = read_perfect_header(path)
        actual = path.stat().st_size
        if actual != header.file_size:
            raise PerfectTableError(path, f"wrong size ({actual:,} bytes)")
    except PerfectTableError as error:
        state = "build by name" if error.problem == "not built" else f"[red]bad: {error.problem}[/]"
    else:
        state = "[green]built[/]"
        minutes, seconds = divmod(round(header.build_seconds), 60)
        build_time = f"{minutes} min {seconds:02d} s"
    return (
        "3x3",
        "1024",
        f"{POSITIONS:,}",
        f"{FILE_BYTES / 1e6:.1f} MB",
        build_time,
        state,
    )
