"""The compact table: the built tables' answers for the positions their play meets most.

The built tables hold every position of their formations, gigabytes of them, most of which no
game ever reaches. The compact table keeps, for the positions table play visits most (chosen
by ``2048 distill``, :mod:`.distillation`), only each table's answer: the success probability
after each direction, in the formation's own orientation, as a byte (:func:`encode_chances`;
255 where the direction is not allowed). It is small enough to ship inside the package
(``py2048/tables/data/compact.npz``), so the solver has the tables' answers for the common
late-game positions without building anything; where it has no answer, the solver searches.

A byte ``b`` means the probability ``1 - (1 - b / 254) ** 4``: steps of a few hundredths
where a move's chance is middling, and of a few hundred-thousandths near certainty, where a
table's near-certain moves differ by that much and its choice between them still matters (a
plain ``round(p * 254)`` played markedly worse: ``docs/solver-reference.md``, "The compact table").

A position is found by its formation and its index in that formation's table (``key = formation
<< 40 | index``, sorted, binary search), read through the same per-symmetry layouts as the full
tables, and each real direction is the symmetric image of one of the formation's directions.
The file stores the gaps between successive keys and the answers, each compressed with LZMA.
"""

from __future__ import annotations

import json
import lzma
import os
import zipfile
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import numpy as np
from numba import njit, types

from py2048.engine.geometry import SYMMETRIES
from py2048.files import atomic_write
from py2048.tables.formations import Formation
from py2048.tables.kernels import fits, position_index
from py2048.tables.layout import LAYOUT_ROWS, layouts

COMPACT_FORMAT = "py2048-compact-tables"
COMPACT_VERSION = 2
"""Version 1 stored ``round(p * 254)`` and the keys themselves; it is not read any more."""
NOT_ALLOWED = 255
STEPS = 254.0
POWER = 4.0
"""A stored byte ``b`` below 255 means the probability ``1 - (1 - b / STEPS) ** POWER``."""
KEY_SHIFT = 40
"""``key = formation << KEY_SHIFT | index``: table indices stay below 2**40."""

_UP, _RIGHT, _DOWN, _LEFT = 0, 1, 2, 3
_STEP = {(-1, 0): _UP, (0, 1): _RIGHT, (1, 0): _DOWN, (0, -1): _LEFT}


def direction_maps() -> np.ndarray:
    """``maps[k, d]``: the formation's direction that real direction ``d`` is under symmetry k.

    Read off the symmetry's cell map: a step from the centre cell (1, 1) in direction ``d``
    lands on a neighbour, whose canonical cell lies one step away in the mapped direction.
    """
    maps = np.zeros((len(SYMMETRIES), 4), dtype=np.int64)
    for k, canonical in enumerate(SYMMETRIES):
        home = divmod(canonical[5], 4)
        for (dr, dc), d in _STEP.items():
            there = divmod(canonical[4 * (1 + dr) + (1 + dc)], 4)
            maps[k, d] = _STEP[(there[0] - home[0], there[1] - home[1])]
    return maps


def encode_chances(chances: np.ndarray) -> np.ndarray:
    """uint8 bytes for success probabilities (any shape); negative ones (a move not allowed)
    become :data:`NOT_ALLOWED`."""
    chances = np.asarray(chances, dtype=np.float64)
    stored = np.rint(STEPS * (1.0 - (1.0 - np.clip(chances, 0.0, 1.0)) ** (1.0 / POWER)))
    return np.where(chances < 0.0, NOT_ALLOWED, stored).astype(np.uint8)


@njit(cache=True, nogil=True, inline="always")
def decode_chance(stored: int) -> float:
    """The probability a stored byte means; -1 for :data:`NOT_ALLOWED`."""
    if stored == NOT_ALLOWED:
        return -1.0
    return 1.0 - (1.0 - stored / STEPS) ** POWER


@dataclass(frozen=True)
class CompactTables:
    """Distilled answers: ``keys`` (sorted uint64) and ``chances`` (uint8, one row of four
    formation directions per key) for ``formations``."""

    formations: tuple[Formation, ...]
    keys: np.ndarray
    chances: np.ndarray
    source: str
    """How the positions were collected (recorded by ``2048 tables distill``)."""

    def __post_init__(self) -> None:
        if self.keys.dtype != np.uint64 or self.keys.ndim != 1:
            raise ValueError("compact tables: keys must be a 1-D uint64 array")
        if self.chances.dtype != np.uint8 or self.chances.shape != (self.keys.size, 4):
            raise ValueError("compact tables: chances must be uint8 of shape (keys, 4)")
        if self.keys.size > 1 and not np.all(self.keys[1:] > self.keys[:-1]):
            raise ValueError("compact tables: keys must be sorted and distinct")

    @property
    def layouts(self) -> np.ndarray:
        """int64 (formations, 8, LAYOUT_ROWS, 16): each formation's arrays for every symmetry."""
        if not self.formations:
            return np.zeros((0, 8, LAYOUT_ROWS, 16), dtype=np.int64)
        return np.ascontiguousarray(np.stack([layouts(f) for f in self.formations]))

    @property
    def rank_limits(self) -> np.ndarray:
        return np.array([f.rank_limit for f in self.formations], dtype=np.int64)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the compact file (an ``.npz`` of LZMA-compressed arrays, no pickles),
        atomically."""
        gaps = np.diff(self.keys, prepend=np.uint64(0)).astype("<u8")
        with atomic_write(path) as handle:
            np.savez(
                handle,
                format=np.array(COMPACT_FORMAT),
                version=np.array(COMPACT_VERSION),
                formations=np.array(json.dumps([f.to_json() for f in self.formations])),
                source=np.array(self.source),
                positions=np.array(self.keys.size),
                key_gaps=_packed(gaps.tobytes()),
                chances=_packed(self.chances.tobytes()),
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CompactTables:
        """Read a compact file; ValueError naming the file if it is not a usable one."""
        try:
            with np.load(path, allow_pickle=False) as archive:
                if str(archive["format"]) != COMPACT_FORMAT:
                    raise ValueError("not a compact tables file")
                if int(archive["version"]) > COMPACT_VERSION:
                    raise ValueError("written by a newer py2048")
                if int(archive["version"]) < COMPACT_VERSION:
                    raise ValueError("written by an older py2048: make it again with 2048 distill")
                formations = tuple(
                    Formation.from_json(f) for f in json.loads(str(archive["formations"]))
                )
                positions = int(archive["positions"])
                gaps = np.frombuffer(_unpacked(archive["key_gaps"]), dtype="<u8")
                chances = np.frombuffer(_unpacked(archive["chances"]), dtype=np.uint8)
                if gaps.size != positions or chances.size != 4 * positions:
                    raise ValueError(f"its arrays do not hold the {positions:,} positions it names")
                return cls(
                    formations,
                    np.cumsum(gaps, dtype=np.uint64),
                    chances.reshape(positions, 4).copy(),
                    str(archive["source"]),
                )
        except (
            OSError, EOFError, KeyError, ValueError, TypeError, lzma.LZMAError,
            zipfile.BadZipFile,
        ) as exc:  # fmt: skip
            raise ValueError(f"{path}: cannot be read as compact tables ({exc})") from None


def _packed(data: bytes) -> np.ndarray:
    return np.frombuffer(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME), dtype=np.uint8)


def _unpacked(array: np.ndarray) -> bytes:
    return lzma.decompress(array.tobytes(), format=lzma.FORMAT_XZ)


SHIPPED = "compact.npz"


def shipped_path() -> Path:
    """The compact table that comes with py2048."""
    return Path(str(files("py2048.tables") / "data" / SHIPPED))


def shipped_compact_tables() -> CompactTables | None:
    """The shipped compact table, or None where the package has none."""
    path = shipped_path()
    return CompactTables.load(path) if path.is_file() else None


_KEYS = types.Array(types.uint64, 1, "C", readonly=True)
_CHANCES = types.Array(types.uint8, 2, "C", readonly=True)


@njit(cache=True, nogil=True)
def _find(keys, key):
    low = 0
    high = keys.shape[0]
    while low < high:
        middle = (low + high) // 2
        if keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low if low < keys.shape[0] and keys[low] == key else -1


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        _KEYS,
        _CHANCES,
        types.int64[:, :, ::1],
        types.int64,
        types.int64[:, ::1],
        types.float64[::1],
    ),
    cache=True,
    nogil=True,
)
def compact_move_values(lo, hi, formation, keys, chances, layouts, rank_limit, maps, out):
    """Like ``best_table_move_values`` for one formation of a compact table: the symmetry
    whose stored answer offers the highest probability (its direction values in ``out``, -1
    where not allowed), or -1 when the board fits under none or its position was not kept."""
    best_symmetry = -1
    best = -2.0
    v0 = v1 = v2 = v3 = -1.0
    for k in range(layouts.shape[0]):
        if not fits(lo, hi, layouts[k], rank_limit):
            continue
        key = np.uint64(formation) << np.uint64(KEY_SHIFT)
        key |= np.uint64(position_index(lo, hi, layouts[k]))
        row = _find(keys, key)
        if row < 0:
            continue
        for d in range(4):
            out[d] = decode_chance(chances[row, maps[k, d]])
        top = max(out[0], out[1], out[2], out[3])
        if top > best:
            best = top
            best_symmetry = k
            v0, v1, v2, v3 = out[0], out[1], out[2], out[3]
    out[0], out[1], out[2], out[3] = v0, v1, v2, v3
    return best_symmetry
