"""Types for the ``2048`` command's flags, shared by the commands that declare them.

Each turns the text of a flag into its value or raises ``argparse.ArgumentTypeError`` with a
message for the user, so argparse reports, for example, ``argument --games: expected a whole
number of 1 or more, got 'ten'``.
"""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """A whole number of 1 or more (a count of games, of workers)."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """A whole number of 0 or more (a seed, a depth)."""
    return _whole_number(text, 0)


def port_number(text: str) -> int:
    """A TCP port: a whole number from 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected a port number from 0 to 65535 (0 picks a free one), got {text!r}"
        )
    return value


def _whole_number(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of {least} or more, got {text!r}"
        ) from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be {least} or more, got {value}")
    return value
