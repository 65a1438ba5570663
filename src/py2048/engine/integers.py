"""Integers as py2048 accepts them: never a bool, although Python counts True and False as ints.

Every check of an integer argument or of a number read from a file goes through these two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from typing_extensions import TypeIs


def is_int(value: object) -> TypeIs[int]:
    """A Python int that is not a bool: what JSON's whole numbers read as."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_integer(value: object) -> TypeIs[int | np.integer[Any]]:
    """A Python int or a numpy integer, not a bool: what an argument may be."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
