"""``2048 tables``: build, list and verify the endgame tables.

- ``2048 tables build [NAME ...]``: build tables (the default set without names), with a
  progress bar; run again, a stopped build resumes (:data:`BUILD_KEEPS` says from where).
- ``2048 tables build --bytes 1 NAME``: build at 1 byte a value (:mod:`.codebook`), or pack
  a built 2-byte table to 1 byte.
- ``2048 tables pack NAME ... [--to PATH]``: pack built 2-byte tables to 1 byte a value, in
  place (the 2-byte file is replaced once the new one is checked) or into another folder.
- ``2048 tables list``: every known table, its size, build time and peak memory, and state
  ("built (1 byte)" for a 1-byte table).
- ``2048 tables verify [NAME ...]``: check built tables whole (exit status 1 if one is bad).

The builder (compiled kernels) is imported only when a build runs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from py2048.argtypes import positive_int
from py2048.tables import formations, perfect_command
from py2048.tables.formations import DEFAULT_MAX_ENTRIES, Formation, get_formation
from py2048.tables.storage import (
    ENVIRONMENT_VARIABLE,
    NOT_BUILT,
    TableError,
    TableHeader,
    check_file,
    file_size,
    read_header,
    table_path,
    tables_dir,
    verify_file,
)

if TYPE_CHECKING:
    from rich.console import Console

    from py2048.tables.builder import BuildProgress

HELP = "build, list and verify the solver's endgame tables"
BUILD_KEEPS = (
    "A build writes each layer of positions (those of one tile sum) as it finishes it, synced "
    "to disk, and records it, so a build stopped in any way (by Ctrl-C, by an error such as "
    "a full disk, killed, or lost to a crash or a power cut) loses at most the layer it was "
    "solving (a table has hundreds). Run the same command again to resume; the table comes "
    "out byte-identical to an uninterrupted build. A build first checks that the disk and "
    "memory have room for it."
)
"""What ``build --help`` says a stopped build keeps (see :mod:`.builder`)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The subcommands of ``2048 tables`` and their flags; :func:`run` reads them."""
    parser.description = (
        "Endgame tables: for formations of large tiles held in place, the exact probability "
        "that best play builds the next tile. Files live in $PY2048_TABLES_DIR, else in your "
        "user cache folder."
    )
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", dest="tables_command", required=True
    )
    build = commands.add_parser(
        "build",
        help="build tables (without names: every table of at most "
        f"{DEFAULT_MAX_ENTRIES // 1_000_000}M positions)",
        description=f"Build tables. {BUILD_KEEPS} {perfect_command.HELP}",
    )
    build.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="tables to build (`2048 tables list` names them; 3x3: perfect play on 3x3)",
    )
    build.add_argument("--force", action="store_true", help="rebuild tables that are already built")
    build.add_argument(
        "--threads",
        type=positive_int,
        metavar="N",
        help="threads to build with (default: every core)",
    )
    build.add_argument(
        "--bytes",
        dest="width",
        type=int,
        choices=(1, 2),
        help="bytes a value: 2 (exact to 1/65535; the default) or 1 (half the disk; a fixed "
        "code book, error at most 0.0095 and under 0.0004 near 0 and 1). With 1, a table "
        "already built at 2 bytes is packed instead of built again",
    )
    build.add_argument(
        "--ray",
        dest="ray_address",
        metavar="ADDRESS",
        help="solve each large layer as tasks on this Ray cluster (py2048[ray] on every "
        "machine); the file and the resuming stay on this machine",
    )
    pack = commands.add_parser(
        "pack",
        help="pack built 2-byte tables to 1 byte a value (half the disk)",
        description="Pack built 2-byte tables to 1 byte a value (the fixed code book of "
        "`build --bytes 1`). The new file is written beside the old one, read back and checked, "
        "and only then replaces it; a packing stopped in any way leaves the 2-byte table as "
        "it was.",
    )
    pack.add_argument("names", nargs="+", metavar="NAME", help="tables to pack")
    pack.add_argument(
        "--to",
        metavar="PATH",
        help="write the 1-byte tables into this folder and keep the 2-byte ones",
    )
    list_ = commands.add_parser(
        "list",
        help="show every table: size, build time and memory, state (and which are 1 byte a value)",
    )
    verify = commands.add_parser(
        "verify", help="check built tables whole (exit status 1 if one is bad)"
    )
    verify.add_argument("names", nargs="*", metavar="NAME", help="tables (default: all built)")
    for subparser in (build, pack, list_, verify):
        subparser.add_argument(
            "--dir",
            metavar="PATH",
            help=f"the tables' folder (default: ${ENVIRONMENT_VARIABLE}, else the user cache)",
        )


def run(args: argparse.Namespace) -> int:
    """Run ``2048 tables COMMAND`` with the flags of :func:`add_arguments`."""
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    folder = tables_dir(args.dir)
    if args.tables_command != "build" and folder.exists() and not folder.is_dir():
        console.print(f"{_not_a_folder(folder)}; no table can be in it.")
        return 1
    if args.tables_command == "build":
        return build(
            args.names,
            folder,
            console,
            force=args.force,
            threads=args.threads,
            ray_address=args.ray_address,
            width=args.width,
        )
    if args.tables_command == "pack":
        return pack_tables(args.names, folder, console, destination=args.to)
    if args.tables_command == "list":
        return list_tables(folder, console)
    return verify(args.names, folder, console)


# --- build --------------------------------------------------------------------------------


def build(
    names: list[str],
    folder: Path,
    console: Console,
    *,
    force: bool = False,
    threads: int | None = None,
    ray_address: str | None = None,
    width: int | None = None,
) -> int:
    """Build the named tables (the default set if none); 130 if stopped by Ctrl-C, 1 if the
    disk refused a write. With ``ray_address`` the cluster is reached first (ValueError if it
    cannot be), and stays connected for every table. ``width``: bytes a value (default: a
    stopped build's, else 2); with 1, a table built at 2 bytes is packed."""
    if ray_address is not None:
        from py2048.cluster import ray_connection

        with ray_connection(ray_address):
            return _build_all(names, folder, console, force, threads, ray_address, width)
    return _build_all(names, folder, console, force, threads, None, width)


def _build_all(
    names: list[str],
    folder: Path,
    console: Console,
    force: bool,
    threads: int | None,
    ray_address: str | None,
    width: int | None = None,
) -> int:
    names, perfect = perfect_command.split(names)
    if perfect:
        _make_folder(folder)
        status = perfect_command.build(folder, console, force=force, threads=threads)
        if status or not names:
            return status
    chosen = _chosen(names)
    if not names:
        left_out = [f.name for f in formations.FORMATIONS if f not in chosen]
        line = f"Building the default tables: {', '.join(f.name for f in chosen)}"
        if left_out:
            line += f" ({', '.join(left_out)}: by name only, over {_millions(DEFAULT_MAX_ENTRIES)})"
        console.print(line)
    _make_folder(folder)
    console.print(f"Folder: {folder}")
    for formation in chosen:
        path = table_path(formation.name, folder)
        if not force and path.exists():
            try:
                header = check_file(path, formation)
            except TableError as error:
                console.print(f"{formation.name}: the file is bad ({error.problem}); rebuilding.")
            else:
                if width == 1 and header.width == 2:
                    status = _pack_one(formation, folder, None, console)
                    if status:
                        return status
                    continue
                console.print(
                    f"{formation.name}: already built ({_size(header.file_size)}, "
                    f"{_bytes(header.width)} a value, {path}); --force rebuilds it."
                )
                continue
        status = _build_one(
            formation,
            folder,
            console,
            force=force,
            threads=threads,
            ray_address=ray_address,
            width=width,
        )
        if status:
            return status
    return 0


def _os_problem(error: OSError) -> str:
    """What the system refused, and on which file when it says."""
    problem = error.strerror or str(error)
    return f"{problem}: {error.filename}" if error.filename else problem


def _make_folder(folder: Path) -> None:
    """Create the tables' folder, or say clearly why it cannot be (a ValueError)."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(_not_a_folder(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(
            f"cannot make the tables' folder {folder} ({_WHERE}): {error.strerror or error}"
        ) from None


_WHERE = f"set by --dir or ${ENVIRONMENT_VARIABLE}"


def _not_a_folder(folder: Path) -> str:
    return f"the tables' folder {folder} ({_WHERE}) is a file, not a folder"


def _build_one(
    formation: Formation,
    folder: Path,
    console: Console,
    *,
    force: bool,
    threads: int | None,
    ray_address: str | None = None,
    width: int | None = None,
) -> int:
    """Build one table with a progress bar; 0 when built, 130 if Ctrl-C stopped it and 1 if
    the disk refused a write (both leave it resumable)."""
    from py2048.tables.builder import build_table, layer_count, stopped_build
    from py2048.tables.progress import build_progress

    name = formation.name
    stopped = None if force else stopped_build(formation, folder)
    resumed, stopped_width = stopped if stopped is not None else (None, None)
    chosen = width or stopped_width or 2
    size = _size(file_size(formation, chosen))
    if resumed:
        console.print(
            f"{name}: resuming a stopped build ({resumed} of {layer_count(formation)} layers "
            f"done, {formation.entries:,} positions in all, {_bytes(chosen)} a value)"
        )
    else:
        console.print(
            f"{name}: {formation.entries:,} positions, {size} on disk ({_bytes(chosen)} a value)"
        )
    progress = build_progress(console)
    task = progress.add_task(name, total=formation.entries)
    state: list[BuildProgress] = []

    def advance(now: BuildProgress) -> None:
        if state:
            progress.update(task, completed=now.positions_done)
        else:  # the positions done before this run do not count toward the speed
            progress.reset(task, completed=now.positions_done)
        state[:] = [now]

    started = time.monotonic()
    try:
        with progress:
            path = build_table(
                formation,
                folder,
                progress=advance,
                threads=threads,
                restart=force,
                ray_address=ray_address,
                width=width,
            )
    except (KeyboardInterrupt, OSError) as error:
        done = state[0].positions_done / state[0].positions if state else 0.0
        why = "" if isinstance(error, KeyboardInterrupt) else f" ({_os_problem(error)})"
        console.print(
            f"{name}: stopped at {done:.0%}{why}. The work so far is kept in {folder} "
            f"({name}.partial); run `2048 tables build {name}` again to resume."
        )
        return 130 if isinstance(error, KeyboardInterrupt) else 1
    header = read_header(path, name)
    console.print(
        f"{name}: built in {_duration(time.monotonic() - started)}"
        f"{f' (all runs: {_duration(header.build_seconds)})' if resumed else ''}, "
        f"{_size(header.file_size)}: {path}"
    )
    return 0


# --- pack ---------------------------------------------------------------------------------


def pack_tables(
    names: list[str], folder: Path, console: Console, *, destination: str | None = None
) -> int:
    """Pack the named 2-byte tables to 1 byte a value (into ``destination`` if given); 1 if
    one could not be packed."""
    target = None if destination is None else tables_dir(destination)
    if target is not None:
        _make_folder(target)
    for formation in _chosen(names):
        status = _pack_one(formation, folder, target, console)
        if status:
            return status
    return 0


def _pack_one(formation: Formation, folder: Path, target: Path | None, console: Console) -> int:
    from py2048.tables.packing import pack_table
    from py2048.tables.progress import build_progress

    name = formation.name
    started = time.monotonic()
    progress = build_progress(console)
    task = progress.add_task(f"{name}: packing", total=formation.entries)
    try:
        with progress:
            path = pack_table(
                formation,
                folder,
                target,
                progress=lambda done, _: progress.update(task, completed=done),
            )
    except TableError as error:
        console.print(f"[red]{name}[/]: {error}")
        return 1
    except ValueError as error:
        console.print(f"{name}: {error}.")
        return 0
    except (OSError, RuntimeError) as error:
        why = _os_problem(error) if isinstance(error, OSError) else str(error)
        console.print(f"[red]{name}[/]: not packed ({why}); the 2-byte table is kept.")
        return 1
    except KeyboardInterrupt:
        console.print(f"{name}: packing stopped; the 2-byte table is kept as it was.")
        return 130
    console.print(
        f"{name}: packed to 1 byte a value in {_duration(time.monotonic() - started)}, "
        f"{_size(file_size(formation, 1))} (from {_size(file_size(formation, 2))}): {path}"
    )
    return 0


# --- list and verify ----------------------------------------------------------------------


def list_tables(folder: Path, console: Console) -> int:
    """Print every known table: positions, size, build time and memory, state and file."""
    from rich.table import Table

    from py2048.tables.builder import layer_count, partial_layers

    table = Table(title=f"Endgame tables in {folder} (files NAME.table)", title_justify="left")
    for column in ("table", "target", "positions", "size", "build"):
        numeric = column in ("target", "positions", "size")
        table.add_column(column, justify="right" if numeric else "left", no_wrap=True)
    table.add_column("state")
    for formation in formations.FORMATIONS:
        path = table_path(formation.name, folder)
        size = _size(file_size(formation, 2))
        build_time = ""
        try:
            header = read_header(path, formation.name)
            if header.formation != formation:
                raise TableError(path, formation.name, "built for another formation")
            actual = path.stat().st_size
            if actual != header.file_size:
                raise TableError(path, formation.name, f"wrong size ({actual:,} bytes)")
        except TableError as error:
            layers = partial_layers(formation, folder)
            if error.problem != NOT_BUILT:
                state = f"[red]bad: {error.problem}[/]"
            elif layers is not None:
                state = f"stopped at layer {layers} of {layer_count(formation)}"
            else:
                state = "not built"
            if formation.entries > DEFAULT_MAX_ENTRIES and error.problem == NOT_BUILT:
                state += " (build by name)"
        else:
            # the width only where it is not the default 2 bytes, so the state column keeps
            # room in 80 columns ("bad: wrong size" on one line)
            state = "[green]built[/]" if header.width == 2 else "[green]built[/] (1 byte)"
            build_time = _duration(header.build_seconds)
            if header.peak_memory is not None:  # below the time: the row keeps 80 columns
                build_time += f"\n{_size(header.peak_memory)}"
            size = _size(header.file_size)
        table.add_row(
            formation.name,
            str(formation.target),
            f"{formation.entries:,}",
            size,
            build_time,
            state,
        )
    perfect_row = perfect_command.list_row(folder)
    table.add_row(*perfect_row)
    console.print(table)
    measured: dict[str, list[str]] = {}
    for formation in formations.FORMATIONS:
        if formation.name in formations.MEASURED:
            measured.setdefault(formations.MEASURED[formation.name], []).append(formation.name)
    if measured:
        console.print('What each table was measured to add (docs/results.md, "Endgame tables"):')
        for finding, names in measured.items():
            console.print(f"- {', '.join(names)}: {finding}", highlight=False)
    console.print(
        f"`2048 tables build` builds those of at most {_millions(DEFAULT_MAX_ENTRIES)}, "
        f"`2048 tables verify` checks built files whole. Set {ENVIRONMENT_VARIABLE} to keep "
        "them elsewhere."
    )
    return 0


def verify(names: list[str], folder: Path, console: Console) -> int:
    """Check tables whole (the named ones, else every built one); 1 if any is bad."""
    if names:
        chosen = _chosen(names)
    else:
        chosen = [f for f in formations.FORMATIONS if table_path(f.name, folder).exists()]
        if not chosen:
            console.print(f"No table is built in {folder}. Build them with `2048 tables build`.")
            return 0
    bad = 0
    for formation in chosen:
        path = table_path(formation.name, folder)
        started = time.monotonic()
        try:
            header: TableHeader = verify_file(path, formation)
        except TableError as error:
            bad += 1
            console.print(f"[red]BAD[/] {formation.name}: {error}")
            continue
        console.print(
            f"[green]ok[/]  {formation.name}: {_size(header.file_size)}, "
            f"{_bytes(header.width)} a value, checksum matches "
            f"(checked in {_duration(time.monotonic() - started)}), {path}",
        )
    if bad:
        console.print(f"{bad} of {len(chosen)} tables are bad; the solver will not use them.")
        return 1
    return 0


def _chosen(names: list[str]) -> list[Formation]:
    """The named formations in the order given (once each), or the default set."""
    if not names:
        return formations.default_formations()
    chosen: list[Formation] = []
    for name in names:
        formation = get_formation(name)
        if formation not in chosen:
            chosen.append(formation)
    return chosen


def _size(size: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def _bytes(width: int) -> str:
    return "1 byte" if width == 1 else f"{width} bytes"


def _millions(count: int) -> str:
    return f"{count / 1e6:g}M positions"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes} min {seconds:02d} s"
