"""The n-tuple weights file: what a trained network ships as, and how it is read back.

A weights file is a NumPy ``.npz`` archive (read with ``allow_pickle=False``, so a file can
never run code) that starts with a ``format`` entry naming what it is and a ``version``. It
stores only the entries that carry information: a bitmap of the stored entries, and their
values, either exactly (``float32``) or quantised to ``int16`` with one scale, split into byte
planes (all low bytes, then all high bytes, which zlib compresses better than interleaved
ones). In the first stage those are the entries that differ from the stage's *fill*, its most
common value: most entries of a 6-tuple table are never visited in play and keep their first
value (0 for a network trained from zeros, the starting value for an optimistic one), so this
is a small fraction of the 268 MB that four dense 6-tuple tables take in memory. In each later
stage they are the entries that differ from the stage before; the others are copied from it.
A file whose fill is not 0 is written in version 3 of the format (a ``fill`` entry); others in
version 2, which py2048 releases before version 3 read too.

Files are written atomically (:func:`py2048.files.atomic_write`), so an interrupted save never
destroys the previous file. Every problem reading a file raises :class:`WeightsError` naming
the file and what is wrong with it; :func:`read_archive` does the same for the training
checkpoints of :mod:`py2048.learn.checkpoint`, which share the archive conventions.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np

from py2048.evaluation.tuples import (
    entry_count,
    format_tuples,
    parse_tuples,
    validate_stage_tiles,
)
from py2048.files import atomic_write

_Read = TypeVar("_Read")

WEIGHTS_FORMAT = "py2048-ntuple-weights"
FORMAT_VERSION = 2
"""Version 2 added stage tiles; files of version 1 read as networks of one stage. Training
checkpoints (:mod:`py2048.learn.checkpoint`) are written in this version too."""
FILL_VERSION = 3
"""The weights files whose first stage's unstored entries hold a ``fill`` other than 0."""
_ZIP_MAGIC = b"PK\x03\x04"


class WeightsError(ValueError):
    """A weights or checkpoint file that is missing, damaged, or not one of ours."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def read_archive(
    path: str | os.PathLike[str],
    expected_format: str,
    reader: Callable[[Any], _Read],
    newest: int = FORMAT_VERSION,
) -> _Read:
    """Open an ``.npz`` of ours (of a format version up to ``newest``) and hand it to
    ``reader``, turning every failure into :class:`WeightsError`."""
    source = Path(path)
    if not source.exists():
        raise WeightsError(path, "no such file")
    if source.is_dir():
        raise WeightsError(path, "is a folder, not a file")
    try:
        with source.open("rb") as handle:
            magic = handle.read(len(_ZIP_MAGIC))
    except OSError as exc:
        raise WeightsError(path, f"cannot be read ({exc.strerror})") from None
    if not magic:
        raise WeightsError(path, "is empty")
    if magic != _ZIP_MAGIC:
        raise WeightsError(path, f"is not a {expected_format} file (not an .npz archive)")
    try:
        # numpy leaves a file it opened itself open when the archive is damaged: open it here
        with source.open("rb") as handle, np.load(handle, allow_pickle=False) as archive:
            if "format" not in archive.files or "version" not in archive.files:
                raise WeightsError(path, f"not a {expected_format} file (no format entry)")
            found = str(archive["format"])
            if found != expected_format:
                raise WeightsError(path, f"is a {found!r} file, not a {expected_format} file")
            version = int(archive["version"])
            if version > newest:
                raise WeightsError(
                    path,
                    f"was written in version {version} of the format; this py2048 reads up to "
                    f"version {newest}",
                )
            return reader(archive)
    except WeightsError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise WeightsError(path, f"is truncated or damaged ({exc})") from None
    except KeyError as exc:
        raise WeightsError(path, f"is damaged or incomplete ({exc.args[0]})") from None
    except (OSError, ValueError, TypeError) as exc:
        raise WeightsError(path, f"cannot be read as a {expected_format} file ({exc})") from None


def write_weights(
    path: str | os.PathLike[str],
    tuples: Sequence[Sequence[int]],
    stage_tiles: Sequence[int],
    weights: np.ndarray,
    *,
    quantize: bool = True,
) -> None:
    """Write a network's informative entries, quantised to int16 unless ``quantize`` is False.

    Stored are the first stage's entries that differ from its fill (:func:`_fill_of`: its most
    common value, 0 or the value an optimistic run started from) and, for each later stage, the
    entries that differ from the stage before (a stage split from another differs only where
    the two were trained apart). Unquantised files load back bit for bit; quantised ones lose at
    most half a scale step per entry (``scale`` = the largest magnitude / 16383).
    """
    scale, values = quantise(weights) if quantize else (0.0, weights.astype("<f4", copy=False))
    stages = values.reshape(len(stage_tiles) + 1, -1)
    fill = _fill_of(stages[0])
    stored = np.empty(stages.shape, dtype=bool)
    stored[0] = stages[0] != fill
    stored[1:] = stages[1:] != stages[:-1]
    kept = values[stored.ravel()]
    filled: dict[str, Any] = {"fill": np.array(fill, dtype=kept.dtype)} if fill != 0 else {}
    with atomic_write(path) as handle:
        np.savez_compressed(
            handle,
            format=np.array(WEIGHTS_FORMAT),
            version=np.array(FILL_VERSION if filled else FORMAT_VERSION),
            tuples=np.array(format_tuples(tuples)),
            stage_tiles=np.array(stage_tiles, dtype=np.int64),
            size=np.array(weights.size, dtype=np.int64),
            scale=np.array(scale),
            value_type=np.array(kept.dtype.name),
            stored=np.packbits(stored),
            value_planes=np.ascontiguousarray(kept.view(np.uint8).reshape(-1, kept.itemsize).T),
            **filled,
        )


_FILL_SAMPLE = 1 << 20


def _fill_of(stage: np.ndarray) -> Any:
    """The value the unstored entries of a stage take: 0, unless one other value (the most
    common of an evenly spaced sample) is held by more entries than 0 and by at least a
    quarter of them, as the starting value of an optimistic run is."""
    step = max(1, stage.size // _FILL_SAMPLE)
    found, counts = np.unique(stage[::step], return_counts=True)
    common = found[counts.argmax()]
    if common == 0:  # a network trained from zeros: no full pass over its entries
        return stage.dtype.type(0)
    held = np.count_nonzero(stage == common)
    if held < stage.size // 4 or held <= np.count_nonzero(stage == 0):
        return stage.dtype.type(0)
    return common


_VALUE_TYPES: dict[str, np.dtype[Any]] = {"int16": np.dtype("<i2"), "float32": np.dtype("<f4")}


class Int16Weights(NamedTuple):
    """A network's entries as int16 steps of ``scale``: what the solver reads."""

    tuples: tuple[tuple[int, ...], ...]
    stage_tiles: tuple[int, ...]
    scale: float
    entries: np.ndarray


class Float32Weights(NamedTuple):
    """A network's entries as float32 values: what training starts from."""

    tuples: tuple[tuple[int, ...], ...]
    stage_tiles: tuple[int, ...]
    weights: np.ndarray


def load_float32_weights(path: str | os.PathLike[str]) -> Float32Weights:
    """Read a weights file written by :func:`write_weights` as float32 weights."""

    def read(archive: Any) -> Float32Weights:
        tuples, stage_tiles, stored, values, scale, fill = _read_entries(path, archive)
        if values.dtype == np.int16:
            values = values.astype(np.float64) * scale
            fill = float(fill) * scale
        weights = _spread(stored, values.astype(np.float32), len(stage_tiles) + 1, fill)
        return Float32Weights(tuples, stage_tiles, weights)

    return read_archive(path, WEIGHTS_FORMAT, read, FILL_VERSION)


def load_int16_weights(path: str | os.PathLike[str]) -> Int16Weights:
    """Read a weights file as int16 entries, as :func:`quantise` gives them.

    A quantised file's own entries and scale are used as they are, with no float32 copy of the
    network on the way (half the memory at start-up and no second rounding); a file of exact
    float32 entries is quantised.
    """

    def read(archive: Any) -> Int16Weights:
        tuples, stage_tiles, stored, values, scale, fill = _read_entries(path, archive)
        entries = _spread(stored, values, len(stage_tiles) + 1, fill)
        if entries.dtype != np.int16:
            scale, entries = quantise(entries)
        return Int16Weights(tuples, stage_tiles, scale, entries)

    return read_archive(path, WEIGHTS_FORMAT, read, FILL_VERSION)


def _read_entries(
    path: str | os.PathLike[str], archive: Any
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], np.ndarray, np.ndarray, float, Any]:
    """``(tuples, stage_tiles, stored, values, scale, fill)`` of a weights archive, checked
    (``fill`` 0 in files without one)."""
    tuples = parse_tuples(str(archive["tuples"]))
    stage_tiles = read_stage_tiles(archive)
    size = int(archive["size"])
    expected = entry_count(tuples, stage_tiles)
    if size != expected:
        raise WeightsError(path, f"holds {size} entries, but its tuples and stages need {expected}")
    value_type = _VALUE_TYPES.get(str(archive["value_type"]))
    bitmap = archive["stored" if "stored" in archive.files else "nonzero"]  # version 1
    planes = archive["value_planes"]
    if value_type is None or bitmap.dtype != np.uint8 or planes.dtype != np.uint8:
        raise WeightsError(path, "is damaged: unexpected entry types")
    if bitmap.shape != ((size + 7) // 8,) or planes.ndim != 2:
        raise WeightsError(path, "is damaged: entries of the wrong shape")
    stored = np.unpackbits(bitmap, count=size).astype(bool)
    count = int(np.count_nonzero(stored))
    if planes.shape != (value_type.itemsize, count):
        raise WeightsError(path, f"is damaged: {count} stored entries but not as many values")
    values = np.ascontiguousarray(planes.T).view(value_type).ravel()
    fill = value_type.type(0)
    if "fill" in archive.files:
        found = archive["fill"]
        if found.dtype != value_type or found.shape != ():
            raise WeightsError(path, "is damaged: its fill is not one value of its entries' type")
        fill = found[()]
    return tuples, stage_tiles, stored, values, float(archive["scale"]), fill


def _spread(stored: np.ndarray, values: np.ndarray, stages: int, fill: Any = 0) -> np.ndarray:
    """The full table: stored entries in place, ``fill`` elsewhere in the first stage, and in
    later stages the entry of the stage before."""
    table = np.zeros(stored.size, dtype=values.dtype)
    if fill != 0:
        table[: stored.size // stages] = fill
    table[stored] = values
    by_stage = table.reshape(stages, -1)
    inherited = ~stored.reshape(by_stage.shape)
    for stage in range(1, stages):
        np.copyto(by_stage[stage], by_stage[stage - 1], where=inherited[stage])
    return table


def read_stage_tiles(archive: Any) -> tuple[int, ...]:
    """The stage tiles stored in an archive; none in files written before stages existed."""
    if "stage_tiles" not in archive.files:
        return ()
    return validate_stage_tiles(int(tile) for tile in archive["stage_tiles"])


QUANTISED_LIMIT = 16383
"""The largest step a quantised weight takes: 15 bits of int16's 16. One bit less per stored
entry makes the shipped file ~10 MB (12%) smaller; on 3,000 greedy games the network's play
did not change measurably (docs/ntuple.md, "Weights file format")."""
_QUANTISE_CHUNK = 1 << 22


def quantise(weights: np.ndarray) -> tuple[float, np.ndarray]:
    """``(scale, values)``: int16 values whose products with ``scale`` are nearest the weights.

    ``scale`` is the largest magnitude / :data:`QUANTISED_LIMIT` (0.0 for all-zero weights),
    so every entry moves by at most half a step. Rounded a chunk at a time in float64, so
    quantising the default 268 MB of weights needs no float64 copy of them.
    """
    largest = max(float(weights.max(initial=0.0)), -float(weights.min(initial=0.0)))
    values = np.zeros(weights.size, dtype="<i2")
    if largest == 0.0:
        return 0.0, values
    scale = largest / QUANTISED_LIMIT
    for start in range(0, weights.size, _QUANTISE_CHUNK):
        part = weights[start : start + _QUANTISE_CHUNK].astype(np.float64)
        values[start : start + _QUANTISE_CHUNK] = np.round(part / scale)
    return scale, values
