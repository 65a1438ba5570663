"""Networks a user installs beside the shipped one, and the measured strength each carries.

The shipped network must fit in the wheel; a stronger one, trained on the user's own machine
(``2048 train --export``), is installed with ``2048 train install PATH``, which measures it
and puts it in the networks folder: ``PY2048_NETWORKS_DIR`` if set, else ``networks`` in the
user cache folder (:func:`py2048.user_folders.cache_folder`, as the endgame tables choose
theirs). The solver then plays with the strongest network it finds
(:func:`py2048.evaluation.ntuple.chosen_network`).

An installed network ``NAME`` is two files:

- ``NAME.npz``: its weights file, as ``2048 train --export`` writes it
  (:mod:`py2048.evaluation.storage`);
- ``NAME.json``: its *figures*, what was measured of that file (:class:`NetworkFigures`).

**The figures file** (UTF-8 JSON, written atomically after the weights file):

=================  ============================================================================
key                value
=================  ============================================================================
``format``         ``"py2048-network-figures"``
``version``        1
``sha256``         the SHA-256 of the weights file measured (64 hex digits)
``bytes``          its size
``tuples``         its tuples, as ``--tuples`` writes them (``"0,1,2,3,4,5/4,5,6,7,8,9"``)
``stage_tiles``    its stage tiles (``[]`` for one stage)
``greedy``         greedy play's strength: ``games``, ``first_seed`` (game ``i`` has seed
                   ``first_seed + i``), ``rng`` (``"c-rand"``), ``mean_score`` and ``reached``,
                   the share of games whose largest tile was at least 16384 and 32768
                   (``{"16384": 0.408, "32768": 0.0}``)
=================  ============================================================================

Greedy play is ``2048 bench --depth 0 --evaluator ntuple --no-tables --rng c-rand --seed
2001``: the protocol of the shipped network's own figures (package data,
``weights/ntuple-4x6.json``: 204,158 over 1,000 games), so the figures compare. A weights file
without figures (copied into the folder by hand) is listed but never chosen: only what was
measured can be ranked.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from py2048.engine.integers import is_int
from py2048.evaluation.storage import Int16Weights, WeightsError, load_int16_weights
from py2048.evaluation.tuples import format_tuples, parse_tuples, validate_stage_tiles
from py2048.files import atomic_write
from py2048.user_folders import cache_folder

NETWORKS_VARIABLE = "PY2048_NETWORKS_DIR"
WEIGHTS_SUFFIX = ".npz"
FIGURES_SUFFIX = ".json"
FIGURES_FORMAT = "py2048-network-figures"
FIGURES_VERSION = 1
SHIPPED_NAME = "shipped"
"""How lists and reasons name the network py2048 ships (no installed network may take it)."""
SHIPPED_FIGURES = "ntuple-8x6.json"
GREEDY_FIRST_SEED = 2001
GREEDY_RNG = "c-rand"
REPORTED_TILES = (16384, 32768)
"""The tiles whose shares the figures keep: where greedy play's networks differ."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_CHUNK = 1 << 20
_FIGURES_BYTES = 1 << 16


@dataclass(frozen=True)
class GreedyStrength:
    """How greedy play (depth 0, no endgame tables) with a network did."""

    games: int
    first_seed: int
    rng: str
    mean_score: float
    reached: dict[int, float]
    """The share of games whose largest tile was at least each of :data:`REPORTED_TILES`."""

    @property
    def last_seed(self) -> int:
        return self.first_seed + self.games - 1


@dataclass(frozen=True)
class NetworkFigures:
    """What was measured of one weights file: which file (its SHA-256 and size), its shape, and
    greedy play's strength with it."""

    sha256: str
    bytes: int
    tuples: tuple[tuple[int, ...], ...]
    stage_tiles: tuple[int, ...]
    greedy: GreedyStrength

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FIGURES_FORMAT,
            "version": FIGURES_VERSION,
            "sha256": self.sha256,
            "bytes": self.bytes,
            "tuples": format_tuples(self.tuples),
            "stage_tiles": list(self.stage_tiles),
            "greedy": {
                "games": self.greedy.games,
                "first_seed": self.greedy.first_seed,
                "rng": self.greedy.rng,
                "mean_score": self.greedy.mean_score,
                "reached": {str(tile): share for tile, share in self.greedy.reached.items()},
            },
        }

    @classmethod
    def from_json(cls, data: Any) -> NetworkFigures:
        """Figures from their JSON; ValueError, KeyError or TypeError if they are not."""
        if data["format"] != FIGURES_FORMAT:
            raise ValueError(f"its format is {data['format']!r}, not {FIGURES_FORMAT!r}")
        if data["version"] != FIGURES_VERSION:
            raise ValueError(
                f"version {data['version']!r}; this py2048 reads version {FIGURES_VERSION}"
            )
        greedy = data["greedy"]
        reached = {int(tile): _share(share) for tile, share in greedy["reached"].items()}
        if set(reached) != set(REPORTED_TILES):
            raise ValueError(f"its shares are for tiles {sorted(reached)}")
        sha256 = data["sha256"]
        if not isinstance(sha256, str) or not re.fullmatch(r"[0-9a-f]{64}", sha256):
            raise ValueError("its sha256 is not 64 hex digits")
        mean = greedy["mean_score"]
        if isinstance(mean, bool) or not isinstance(mean, int | float) or not mean >= 0:
            raise ValueError(f"its mean score {mean!r} is not a score")
        return cls(
            sha256=sha256,
            bytes=_count(data["bytes"], 0),
            tuples=parse_tuples(data["tuples"]),
            stage_tiles=validate_stage_tiles(_count(tile, 4) for tile in data["stage_tiles"]),
            greedy=GreedyStrength(
                games=_count(greedy["games"], 1),
                first_seed=_count(greedy["first_seed"], 0),
                rng=str(greedy["rng"]),
                mean_score=float(mean),
                reached=reached,
            ),
        )


def _count(value: object, least: int) -> int:
    if not is_int(value) or value < least:
        raise ValueError(f"expected a whole number of at least {least}, got {value!r}")
    return value


def _share(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"a share is from 0 to 1, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class InstalledNetwork:
    """A weights file in the networks folder, and its figures when they can be read."""

    name: str
    path: Path
    figures: NetworkFigures | None
    problem: WeightsError | None = None
    """Why the figures cannot be used: None when they can, or when there are none (a file
    never measured), which is no damage."""


def networks_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """``directory`` if given, else ``PY2048_NETWORKS_DIR``, else the user cache's networks
    folder."""
    return cache_folder("networks", NETWORKS_VARIABLE, directory)


def check_name(name: str) -> str:
    """``name`` if it can name an installed network (letters, digits, ``.``, ``_`` and ``-``,
    starting with a letter or digit, and not ``shipped``), else ValueError."""
    if not _NAME.fullmatch(name) or name.lower().endswith((WEIGHTS_SUFFIX, FIGURES_SUFFIX)):
        raise ValueError(
            f"{name!r} cannot name a network: use letters, digits, '.', '_' and '-', starting "
            f"with a letter or digit, without {WEIGHTS_SUFFIX} or {FIGURES_SUFFIX}"
        )
    if name == SHIPPED_NAME:
        raise ValueError(f"{SHIPPED_NAME!r} names the network py2048 ships; choose another name")
    return name


def weights_file(name: str, folder: Path) -> Path:
    return folder / f"{name}{WEIGHTS_SUFFIX}"


def figures_file(name: str, folder: Path) -> Path:
    return folder / f"{name}{FIGURES_SUFFIX}"


def installed_networks(folder: Path | None = None) -> list[InstalledNetwork]:
    """Every weights file in the networks folder, by name, with its figures (none if the
    folder does not exist or is not a folder)."""
    folder = networks_dir(folder)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob(f"*{WEIGHTS_SUFFIX}")):
        name = path.name.removesuffix(WEIGHTS_SUFFIX)
        if name.startswith(".") or not path.is_file():
            continue
        figures_path = figures_file(name, folder)
        if not figures_path.exists():
            found.append(InstalledNetwork(name, path, None))
            continue
        try:
            found.append(InstalledNetwork(name, path, read_figures(figures_path)))
        except WeightsError as problem:
            found.append(InstalledNetwork(name, path, None, problem))
    return found


def read_figures(path: Path) -> NetworkFigures:
    """A figures file, checked; :class:`WeightsError` naming it if it cannot be used."""
    try:
        with path.open("rb") as handle:
            text = handle.read(_FIGURES_BYTES + 1)
    except OSError as exc:
        raise WeightsError(path, f"cannot be read ({exc.strerror or exc})") from None
    if len(text) > _FIGURES_BYTES:
        raise WeightsError(path, "is too large to be a network's figures")
    try:
        return NetworkFigures.from_json(json.loads(text.decode("utf-8")))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        problem = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise WeightsError(path, f"is not a network's figures or is damaged ({problem})") from None


def write_figures(path: Path, figures: NetworkFigures) -> None:
    """Write a figures file atomically."""
    text = json.dumps(figures.to_json(), indent=1) + "\n"
    with atomic_write(path) as handle:
        handle.write(text.encode("utf-8"))


def shipped_figures() -> NetworkFigures:
    """The shipped network's own figures (package data beside its weights file)."""
    path = Path(str(files("py2048.evaluation") / "weights" / SHIPPED_FIGURES))
    return read_figures(path)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file, in 64 hex digits, read a megabyte at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def stronger_networks(
    installed: Iterable[InstalledNetwork], shipped: NetworkFigures
) -> list[InstalledNetwork]:
    """The installed networks whose greedy mean beats the shipped one's, strongest first (ties
    by name); the shipped network keeps its place on a tie."""
    stronger = [
        network
        for network in installed
        if network.figures is not None
        and network.figures.greedy.mean_score > shipped.greedy.mean_score
    ]
    return sorted(stronger, key=lambda n: (-_mean(n), n.name))


def _mean(network: InstalledNetwork) -> float:
    assert network.figures is not None
    return network.figures.greedy.mean_score


def load_measured(path: Path, figures: NetworkFigures) -> Int16Weights:
    """The network of an installed weights file, checked against its figures: the same size,
    a sound file, the shape measured and the same bytes. :class:`WeightsError` naming the file
    says what is wrong (cut short, damaged, made for another shape, changed since measured)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise WeightsError(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        weights = load_int16_weights(path)
    except WeightsError as exc:
        if size < figures.bytes:
            raise WeightsError(
                path, f"is cut short: {size:,} bytes, {figures.bytes:,} when it was measured"
            ) from exc
        raise
    if (weights.tuples, weights.stage_tiles) != (figures.tuples, figures.stage_tiles):
        raise WeightsError(
            path,
            "is made for another shape: its tuples are "
            f"{describe_shape(weights.tuples, weights.stage_tiles)}, the network its figures "
            f"measured {describe_shape(figures.tuples, figures.stage_tiles)}",
        )
    if size != figures.bytes or file_digest(path) != figures.sha256:
        raise WeightsError(
            path, "has changed since it was measured; install it again to measure it"
        )
    return weights


def describe_shape(tuples: tuple[tuple[int, ...], ...], stage_tiles: tuple[int, ...]) -> str:
    """A network's shape in a few characters: ``4x6`` (four tuples of six cells),
    ``2x6+2x4``, and its stages (``4x6 staged at 16384``)."""
    counts: dict[int, int] = {}
    for cells in tuples:
        counts[len(cells)] = counts.get(len(cells), 0) + 1
    shape = "+".join(f"{count}x{length}" for length, count in sorted(counts.items())[::-1])
    stages = f" staged at {','.join(map(str, stage_tiles))}" if stage_tiles else ""
    return f"{shape}{stages}"
