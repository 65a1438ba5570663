"""A game review in the terminal's words: the summary that ``2048 review`` prints and that the
terminal game shows after game over (every text about a review is here).

The review itself is :func:`py2048.solver.review`; this module only lays it out with rich:
the game's line, the accuracy, how many moves got each grade, and the costliest moves, each
with a small board of its position, the move played, the better move, what it cost and the
rule book's mistake it matches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from py2048.engine import Game, GameError
from py2048.palette import ColourSystem
from py2048.solver.grades import DEFAULT_SETTING
from py2048.tui.palette import ARROWS, BOARD, EMPTY_CELL, tile_colours
from py2048.tui.widgets.board import label

if TYPE_CHECKING:
    from py2048.solver import GameReview, MoveReview
    from py2048.solver.grades import ReviewSetting

GRADE_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}
STRATEGY_PAGE = "the browser game's 2048 strategy page"


def direction_text(direction: int) -> str:
    return f"{ARROWS[direction]} {['up', 'right', 'down', 'left'][direction]}"


def mini_board(board: tuple[tuple[int, ...], ...], system: ColourSystem) -> RenderableType:
    """A board of any size in coloured cells, each six characters wide (five from six columns
    on, so that an 8x8 board takes 40; a number too wide is written short, 128k)."""
    width = 6 if len(board[0]) <= 5 else 5
    table = Table.grid(padding=(0, 0))
    for _ in board[0]:
        table.add_column(width=width, justify="center")
    for row in board:
        cells = []
        for value in row:
            if value:
                background, text = tile_colours(value, system)
                shown = label(value, width)
                cells.append(Text(f"{shown:^{width}}", style=f"bold {text} on {background}"))
            else:
                cells.append(Text(" " * width, style=f"on {EMPTY_CELL}"))
        table.add_row(*cells)
    return Padding(table, (0, 1), style=f"on {BOARD}", expand=False)


def practice_note(practice: bool) -> str | None:
    if not practice:
        return None
    return "Undo was used in this game (a practice game): the review shows the line finally played."


def summary(graded: GameReview, *, practice: bool, system: ColourSystem) -> RenderableType:
    """The whole summary as one renderable."""
    parts: list[RenderableType] = []
    head = Text()
    head.append("Game review", style="bold")
    rows, cols = len(graded.final_board), len(graded.final_board[0])
    board = "" if (rows, cols) == (4, 4) else f"{rows}x{cols} board · "
    head.append(
        f"  {board}seed {graded.seed} · {len(graded.moves):,} moves · final score "
        f"{graded.final_score:,} · largest tile {graded.max_tile}"
    )
    parts.append(head)
    note = practice_note(practice)
    if note:
        parts.append(Text(note, style="italic"))
    accuracy = Text()
    accuracy.append(f"Accuracy {graded.accuracy:.1f}%", style="bold")
    accuracy.append(
        f"   solver depth {graded.setting.name} (d{graded.setting.depth}), "
        f"graded in {graded.seconds:.1f} s",
        style="dim",
    )
    parts.append(accuracy)
    counts = Table(box=None, show_header=False, padding=(0, 1))
    counts.add_column()
    counts.add_column(justify="right")
    for grade, count in graded.counts.items():
        counts.add_row(Text(grade, style=GRADE_STYLES[grade]), f"{count:,}")
    parts.append(counts)
    if not graded.costliest:
        parts.append(Text("Every move was the best one.", style="green"))
    else:
        parts.append(Text("Costliest moves", style="bold underline"))
    for move in graded.costliest:
        parts.append(costly_move(move, system))
    parts.append(
        Text(
            "Grades: best, good (gives up under 1% of the points the position promised), "
            "inaccuracy (1-5%), mistake (5-20%), blunder (20% or more). Accuracy: 100% for the "
            "best move, 0% from 5% given up, averaged over the moves that had a choice.",
            style="dim",
        )
    )
    return Group(*parts)


def costly_move(move: MoveReview, system: ColourSystem) -> RenderableType:
    """One of the costliest moves: its board beside what was played, what was better, the
    cost and the rule book's mistake."""
    text = Text()
    text.append(f"Move {move.number}", style="bold")
    text.append(f": played {direction_text(move.played)}, ")
    text.append(f"better {direction_text(move.best)}\n")
    text.append(f"cost {round(move.loss):,} points ({move.relative:.1%}) ")
    grade = move.grade
    text.append(grade, style=GRADE_STYLES[grade])
    mistake = move.mistake
    if mistake is not None:
        text.append(f"\nThe rule book's mistake “{mistake.rule}”: {mistake.says}.", style="italic")
        text.append(f"\nMore on {STRATEGY_PAGE}: {mistake.link}", style="dim")
    row = Table.grid(padding=(0, 2))
    row.add_column(no_wrap=True)
    row.add_column()
    row.add_row(mini_board(move.board, system), text)
    return Group(Text(""), row)


def review_game(
    game: Game,
    *,
    setting: str | ReviewSetting = DEFAULT_SETTING,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """The solver's review of ``game``, of any size (:func:`py2048.solver.review`). Its
    ReviewError (a ValueError) when the solver cannot review the game: the caller says so
    instead of failing."""
    from py2048.solver import review

    return review(game.seed, game.history, setting=setting, progress=progress, size=game.size)


def replay_problem(game: Game) -> str | None:
    """Why a saved game cannot be reviewed, or None: a move that does not move where it comes
    (named by its number), or moves that do not rebuild the game from its seed (a game set up
    from a board)."""
    try:
        replayed = Game.replay(game.seed, game.history, strict=True, size=game.size)
    except GameError as exc:
        return f"its moves cannot be replayed from its seed: {exc}"
    if (replayed.board, replayed.score) != (game.board, game.score):
        return (
            "its moves do not rebuild it from its seed (it was set up from a board), so it "
            "cannot be reviewed"
        )
    return None
