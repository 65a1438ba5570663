"""The 1-byte value format: one fixed code book of 256 success probabilities.

A 1-byte table stores each position's success probability as a code ``c`` (uint8) that means
the probability :data:`CODE_BOOK` ``[c]``:

- code 0 is exactly 0 (no chance: the solver leaves such a board to the search) and code 255
  is exactly 1 (the target is sure); no other probability gets either code;
- codes 1 to 254 are spaced uniformly in logit, ``log(p / (1 - p))``, from ``LOGIT_LOW``
  (-8) to ``LOGIT_HIGH`` (11.09): ``CODE_BOOK[c] = 1 / (1 + exp(-x))``, ``x = LOGIT_LOW + (c -
  1) * LOGIT_STEP``, ``LOGIT_STEP = (LOGIT_HIGH - LOGIT_LOW) / 253`` (about 0.0755).

So the codes are dense where the tables' decisions are made, near 1 (a failure chance of
0.1% against 0.107%: the logit tells those apart, a linear step of 1/255 does not) and near 0
(a 2% chance against 1%), and coarsest at 1/2, where a step is ``LOGIT_STEP / 4`` in
probability. The top code, ``sigmoid(11.09)`` = 1 - 1.53e-5, sits just below the 2-byte scale's
last step (65534 / 65535), so every failure chance a 2-byte value tells apart from 0 keeps a
code of its own size: the solver's play runs mostly through positions it is almost sure to
win, and choosing among those is choosing among small failure chances. A book symmetric over
±8, which merges every failure chance under 0.034% into one code, lost nine points of 32768
over 200 whole games at d2 (24.5% against 33.5% with the same tables at 2 bytes); this one
measured 30.5% (``docs/tables.md``, "1-byte tables", has the runs and the other books tried).

A probability is stored as the code nearest to it in probability (:func:`encode`; ties to
the lower code), never 0 or 255 unless it is exactly 0 or 1. The code book is the same for
every table and every version of py2048 that writes version-3 files: a build writes each
1-byte layer as it finishes it, and a reader checks the file's header names this code book
(:data:`CODE_BOOK_NAME`, and :data:`CODE_BOOK_DIGEST` of its float64 bytes).

Built values are computed at 2 bytes (``round(p * 65535)``, :mod:`.builder`) and packed from
those (:data:`PACK`, 65,536 entries), so a 1-byte table is exactly its 2-byte table packed
position by position. The largest error of a packed value, :data:`MAX_ERROR`, is about 0.0094
(near 1/2); below 0.01 and above 0.99 it is under 0.0004.
"""

from __future__ import annotations

import hashlib

import numpy as np

LOGIT_LOW = -8.0
"""Code 1 stands for ``sigmoid(-8)`` = 0.000335."""
LOGIT_HIGH = 11.09
"""Code 254 stands for ``sigmoid(11.09)`` = 0.9999847, just below 65534 / 65535."""
CODES = 256
LOGIT_STEP = (LOGIT_HIGH - LOGIT_LOW) / (CODES - 3)
CODE_BOOK_NAME = f"logit{LOGIT_LOW:+g}{LOGIT_HIGH:+g}"
"""The code book's name in a 1-byte file's header."""


def make_code_book(low: float = LOGIT_LOW, high: float = LOGIT_HIGH) -> np.ndarray:
    """float64 (256,): the probability of each code, for codes 1-254 uniform in logit over
    ``[low, high]`` (the shipped book is ``make_code_book()``)."""
    book = np.empty(CODES, dtype=np.float64)
    logits = low + np.arange(CODES - 2, dtype=np.float64) * ((high - low) / (CODES - 3))
    book[0] = 0.0
    book[1:-1] = 1.0 / (1.0 + np.exp(-logits))
    book[-1] = 1.0
    book.flags.writeable = False
    return book


CODE_BOOK = make_code_book()
"""float64 (256,): the probability each code means; read-only."""
CODE_BOOK_DIGEST = hashlib.blake2b(CODE_BOOK.tobytes(), digest_size=16).hexdigest()
SCALED_CODE_BOOK = CODE_BOOK * 65535.0
"""The code book on the 2-byte scale (the kernels divide by 65535 as for 2-byte values)."""
SCALED_CODE_BOOK.flags.writeable = False


def code_bounds(book: np.ndarray) -> np.ndarray:
    """The probabilities halfway between consecutive codes of ``book`` (255 of them)."""
    bounds: np.ndarray = (book[:-1] + book[1:]) / 2
    return bounds


def encode(probabilities: np.ndarray, book: np.ndarray = CODE_BOOK) -> np.ndarray:
    """uint8: the nearest code of ``book`` to each probability (ties to the lower code); only
    exactly 0 gets code 0 and only exactly 1 gets code 255."""
    p = np.asarray(probabilities, dtype=np.float64)
    codes = np.searchsorted(code_bounds(book), p, side="left")
    codes = np.clip(codes, 1, CODES - 2)
    codes = np.where(p <= 0.0, 0, np.where(p >= 1.0, CODES - 1, codes))
    return codes.astype(np.uint8)


def pack_table(book: np.ndarray = CODE_BOOK) -> np.ndarray:
    """uint8 (65536,): the code of each 2-byte value ``v`` (the probability ``v / 65535``)."""
    table = encode(np.arange(65536, dtype=np.float64) / 65535.0, book)
    table.flags.writeable = False
    return table


PACK = pack_table()
"""uint8 (65536,): a 2-byte value's code (``PACK[v]``)."""


def pack(values: np.ndarray) -> np.ndarray:
    """uint8: the codes of 2-byte values (uint16)."""
    codes: np.ndarray = PACK[np.asarray(values, dtype=np.uint16)]
    return codes


def decode(codes: np.ndarray) -> np.ndarray:
    """float64: the probabilities of codes (uint8)."""
    return CODE_BOOK[np.asarray(codes, dtype=np.uint8)]


MAX_ERROR = float(np.abs(CODE_BOOK[PACK] - np.arange(65536) / 65535.0).max())
"""The largest difference between a 2-byte value's probability and its code's."""
