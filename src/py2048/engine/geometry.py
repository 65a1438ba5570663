"""The board's geometry, shared by the evaluation and the endgame tables: how cells are numbered,
the board's eight symmetries, and the snake.

Cells are numbered ``4 * row + column``, row 0 at the top (:data:`CELLS` of them), as in the
packed board (:mod:`py2048.engine.board`).
"""

from __future__ import annotations

from py2048.engine.board import SIZE

CELLS = SIZE * SIZE


def _transform(k: int, row: int, col: int) -> tuple[int, int]:
    """Where symmetry ``k`` sends (row, col): four rotations, then four reflections."""
    last = SIZE - 1
    return (
        (row, col),  # identity
        (col, last - row),  # quarter turn clockwise
        (last - row, last - col),  # half turn
        (last - col, row),  # quarter turn anticlockwise
        (col, row),  # main diagonal
        (last - col, last - row),  # anti-diagonal
        (row, last - col),  # left-right mirror
        (last - row, col),  # top-bottom mirror
    )[k]


SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        SIZE * r + c for r, c in (_transform(k, cell // SIZE, cell % SIZE) for cell in range(CELLS))
    )
    for k in range(8)
)
"""``SYMMETRIES[k][real_cell]``: the canonical cell that ``real_cell`` plays under symmetry k
(symmetry 0 is the identity). 2048's rules treat every direction alike, so a move on a board is
the symmetric move on its image."""

SNAKE = (0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12)
"""The snake with the largest tile in the top-left corner: row 0 left to right, row 1 right to
left, row 2 left to right, row 3 right to left. Its images under :data:`SYMMETRIES` start in
every corner, along a row or along a column."""
