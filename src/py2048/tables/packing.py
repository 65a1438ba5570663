"""Pack a built 2-byte table to 1 byte a value (``2048 tables pack``, ``build --bytes 1``).

The 2-byte file is checked whole first, then read through its memory map layer by layer; each
layer's codes (:data:`.codebook.PACK`) go to a temporary file ``.NAME.table.packing`` beside
the destination, with the layers' digests making the new checksum. The new file is synced, read
back whole and compared, layer by layer, with the source packed again (so a bad write or a bad
disk is caught before anything is replaced), and only then renamed over ``NAME.table``. Until
that rename the 2-byte table stays as it was, and a packing stopped in any way leaves only the
temporary file (removed by the next packing). Packing gives byte for byte the file a 1-byte
build gives (``build_seconds``, ``cores`` and ``threads`` are the 2-byte build's).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np

from py2048.files import fsync_folder, open_regular
from py2048.tables.codebook import PACK
from py2048.tables.formations import Formation
from py2048.tables.ranking import layer_starts
from py2048.tables.storage import (
    DTYPE,
    PAYLOAD_OFFSET,
    SEAL_SUFFIX,
    TableError,
    TableHeader,
    check_file,
    combined_checksum,
    encode_header,
    file_size,
    layer_digest,
    table_path,
    tables_dir,
)

PACKING_SUFFIX = ".packing"
DISK_MARGIN = 1_000_000


def packing_path(target: Path) -> Path:
    """The temporary file a packing writes before it replaces ``target``."""
    return target.with_name(f".{target.name}{PACKING_SUFFIX}")


def pack_table(
    formation: Formation,
    directory: str | os.PathLike[str] | None = None,
    destination: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Pack the 2-byte table of ``formation`` in ``directory`` to 1 byte a value, in
    ``destination`` (default: in place, replacing it once the new file is checked).

    ``progress(positions_done, positions)`` is called after each layer. Returns the new file's
    path. Raises :class:`.storage.TableError` when the source is missing or bad, ValueError
    when it is already 1 byte a value, OSError (ENOSPC) when the destination's disk has no
    room, and RuntimeError when the file read back differs from what was written (the source
    is kept).
    """
    source = table_path(formation.name, directory)
    header = check_file(source, formation)
    if header.width == 1:
        raise ValueError(f"table {formation.name} ({source}) is already 1 byte a value")
    folder = tables_dir(destination if destination is not None else directory)
    folder.mkdir(parents=True, exist_ok=True)
    target = table_path(formation.name, folder)
    temporary = packing_path(target)
    temporary.unlink(missing_ok=True)
    size = file_size(formation, 1)
    free = shutil.disk_usage(folder).free
    if size + DISK_MARGIN > free:
        raise OSError(
            errno.ENOSPC,
            f"{os.strerror(errno.ENOSPC)} (the 1-byte table needs {size / 1e6:,.1f} MB there, "
            f"{free / 1e6:,.1f} MB is free)",
            str(temporary),
        )
    values = np.memmap(
        source, dtype=DTYPE, mode="r", offset=PAYLOAD_OFFSET, shape=formation.entries
    )
    starts = layer_starts(formation)
    try:
        digests = []
        with open(temporary, "wb") as handle:
            handle.write(b"\0" * PAYLOAD_OFFSET)
            for layer in range(starts.size - 1):
                codes = PACK[values[starts[layer] : starts[layer + 1]]]
                handle.write(memoryview(codes).cast("B"))
                digests.append(layer_digest(memoryview(codes).cast("B")))
                if progress is not None:
                    progress(int(starts[layer + 1]), formation.entries)
            packed = TableHeader(
                formation,
                formation.entries,
                combined_checksum(digests),
                header.build_seconds,
                header.cores,
                header.threads,
                1,
                header.peak_memory,
            )
            handle.seek(0)
            handle.write(encode_header(packed))
            handle.flush()
            os.fsync(handle.fileno())
        _compare(temporary, packed, values, starts)
        del values
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise
    fsync_folder(folder)
    with contextlib.suppress(OSError):
        target.with_suffix(SEAL_SUFFIX).unlink(missing_ok=True)
    return target


def _compare(path: Path, header: TableHeader, values: np.ndarray, starts: np.ndarray) -> None:
    """RuntimeError unless the file at ``path`` holds ``header`` and the source packed."""
    with open_regular(path) as handle:
        if handle.read(PAYLOAD_OFFSET) != encode_header(header):
            raise RuntimeError(f"{path}: the header read back differs from the one written")
        for layer in range(starts.size - 1):
            count = int(starts[layer + 1] - starts[layer])
            data = handle.read(count)
            codes = PACK[values[starts[layer] : starts[layer + 1]]]
            if len(data) != count or data != codes.tobytes():
                raise RuntimeError(
                    f"{path}: layer {layer} read back differs from what was written (a bad "
                    "disk?); the 2-byte table is kept"
                )
        if handle.read(1):
            raise RuntimeError(f"{path} is longer than written")


__all__ = ["TableError", "pack_table", "packing_path"]
