"""The terminal game's settings, kept beside its save: the autoplay speed, the solver's
strength, practice mode and the board size last played, so that they come back the next time
the game starts.

``settings.json`` in the data directory: ``{"autoplay_speed": 3, "strength": "balanced",
"practice": false, "size": "4x4"}``,
written atomically like the saves. The settings are a convenience: a missing, unreadable or
unknown value means the default, silently, and a failed write loses only the setting.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from py2048.engine.integers import is_int
from py2048.engine.size import DEFAULT_SIZE, parse_size
from py2048.files import atomic_write
from py2048.solver.presets import DEFAULT_PRESET, PRESETS

SETTINGS_FILE = "settings.json"
MAX_SETTINGS_BYTES = 4096
AUTOPLAY_SPEEDS = 6
"""How many autoplay speeds there are (0 the slowest)."""
DEFAULT_SPEED = 3


@dataclass(frozen=True, slots=True)
class Settings:
    autoplay_speed: int = DEFAULT_SPEED
    """0 (slowest) to AUTOPLAY_SPEEDS - 1 (as fast as the solver answers)."""
    strength: str = DEFAULT_PRESET
    """The solver's preset: fast, balanced or strong."""
    practice: bool = False
    """Practice mode: U (or Ctrl+Z) takes moves back."""
    size: str = str(DEFAULT_SIZE)
    """The board size last played ("5x5"): ``2048 play`` without ``--size`` goes back to it."""

    @classmethod
    def load(cls, directory: Path) -> Settings:
        """The settings saved in ``directory``; the defaults for anything missing or wrong."""
        try:
            with (directory / SETTINGS_FILE).open("rb") as file:
                saved = json.loads(file.read(MAX_SETTINGS_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            return cls()
        if not isinstance(saved, dict):
            return cls()
        settings = cls()
        speed = saved.get("autoplay_speed")
        if is_int(speed):
            settings = replace(settings, autoplay_speed=min(max(speed, 0), AUTOPLAY_SPEEDS - 1))
        if saved.get("strength") in PRESETS:
            settings = replace(settings, strength=saved["strength"])
        if isinstance(saved.get("practice"), bool):
            settings = replace(settings, practice=saved["practice"])
        with contextlib.suppress(ValueError):
            settings = replace(settings, size=str(parse_size(saved.get("size", settings.size))))
        return settings

    def save(self, directory: Path) -> None:
        """Keep the settings in ``directory``; a failed write is not worth stopping a game."""
        with contextlib.suppress(OSError), atomic_write(directory / SETTINGS_FILE) as file:
            file.write(json.dumps(asdict(self)).encode("utf-8"))
