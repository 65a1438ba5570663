"""Statistics and past games, over the board: the counts of the board size being played, a bar
of the largest tile each game reached, the practice games apart, and the past games of every
size, newest first. Enter opens the chosen
game's review, D deletes it, X (then Y) resets the counts; Esc closes."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from py2048.tui.records import Counts, PastGame, Records, RecordsError
from py2048.tui.screens.box import BoxScreen
from py2048.tui.screens.review import ReviewScreen

BAR_WIDTH = 30


def counts_text(counts: Counts) -> str:
    """The counts as lines of ``label  figure``."""
    rows = [
        ("Games played", f"{counts.played:,}"),
        ("Games won (2048 reached)", f"{counts.won:,}"),
        ("Win rate", f"{counts.win_rate:.1f}%"),
        ("Best score", f"{counts.best_score:,}"),
        ("Average score", f"{counts.average_score:,}"),
        ("Best tile", f"{counts.best_tile}" if counts.best_tile else "–"),
        ("Winning streak", f"{counts.streak:,}"),
        ("Longest winning streak", f"{counts.longest_streak:,}"),
    ]
    return "\n".join(f"{label:<26}{figure:>10}" for label, figure in rows)


def tiles_text(counts: Counts) -> str:
    """One bar per largest tile, its length by the games that ended with it."""
    if not counts.final_tiles:
        return "No game has been counted yet."
    most = max(counts.final_tiles.values())
    return "\n".join(
        f"{tile:>6} {'█' * max(1, round(BAR_WIDTH * n / most))} {n:,}"
        for tile, n in sorted(counts.final_tiles.items())
    )


def when(game: PastGame) -> str:
    try:
        return datetime.fromisoformat(game.date).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return game.date


class RecordsScreen(BoxScreen[None]):
    DEFAULT_CSS = """
    RecordsScreen > .box { width: 72; max-height: 100%; padding: 0 1; }
    RecordsScreen .heading { text-style: bold; color: $text-accent; margin: 1 0 0 0; }
    RecordsScreen Static { height: auto; }
    RecordsScreen DataTable { height: auto; max-height: 12; }
    RecordsScreen #message { color: $text-warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,g", "close", "Close"),
        Binding("enter", "open_review", "Review the game", show=False),
        Binding("d,delete", "delete", "Delete the game", show=False),
        Binding("x", "ask_reset", "Reset statistics", show=False),
        Binding("y", "reset", "Yes, reset", show=False),
    ]

    def __init__(self, records: Records) -> None:
        super().__init__()
        self.records = records
        self.games: list[PastGame] = []
        self.asking_reset = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="box") as box:
            box.border_title = f"Statistics on {self.records.size} and past games (Esc closes)"
            yield Static(id="message", markup=False)
            yield Static(id="counts", markup=False)
            yield Static("Largest tile reached", classes="heading", markup=False)
            yield Static(id="tiles", markup=False)
            yield Static(id="practice-counts", markup=False)
            yield Static("Past games", classes="heading", markup=False)
            yield Static(id="no-games", markup=False)
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Static(
                "↑ ↓ choose · Enter reviews · D deletes · X resets the statistics",
                classes="keys",
                markup=False,
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Date", "Size", "Score", "Tile", "Moves", "")
        self.refresh_records()
        table.focus()

    def say(self, message: str) -> None:
        self.query_one("#message", Static).update(message)

    def refresh_records(self) -> None:
        statistics = self.records.statistics()
        self.games = self.records.games()
        for problem in self.records.problems:
            self.say(f"{problem.message} It starts again.")
        self.records.problems.clear()
        self.query_one("#counts", Static).update(counts_text(statistics.games))
        self.query_one("#tiles", Static).update(tiles_text(statistics.games))
        practice = statistics.practice
        self.query_one("#practice-counts", Static).update(
            f"Practice games, counted apart: {practice.played:,} played, {practice.won:,} won, "
            f"best score {practice.best_score:,}."
        )
        table = self.query_one(DataTable)
        table.clear()
        for game in self.games:
            notes = []
            if game.practice:
                notes.append("practice")
            if game.ended == "abandoned":
                notes.append("left unfinished")
            table.add_row(
                when(game),
                str(game.size),
                Text(f"{game.score:,}", justify="right"),
                Text(str(game.tile), justify="right"),
                Text(f"{game.moves:,}", justify="right"),
                ", ".join(notes),
                key=game.code,
            )
        none = self.query_one("#no-games", Static)
        none.update("No game has ended yet: every finished game is kept here.")
        none.display = not self.games
        table.display = bool(self.games)

    def chosen(self) -> PastGame | None:
        table = self.query_one(DataTable)
        if not self.games or table.cursor_row < 0 or table.cursor_row >= len(self.games):
            return None
        return self.games[table.cursor_row]

    def action_open_review(self) -> None:
        game = self.chosen()
        if game is None:
            return
        try:
            replayed = game.game()
        except RecordsError as exc:
            self.say(f"This game cannot be reviewed: {exc}.")
            return
        self.app.push_screen(ReviewScreen(replayed))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row (the table takes the key itself)."""
        event.stop()
        self.action_open_review()

    def action_delete(self) -> None:
        game = self.chosen()
        if game is None:
            return
        try:
            self.records.remove(game.code)
        except OSError as exc:
            self.say(f"Not deleted: {exc.strerror or exc}")
            return
        self.refresh_records()
        self.say(f"The game of {when(game)} is deleted.")

    def action_ask_reset(self) -> None:
        self.asking_reset = True
        self.say("Set every count back to zero? Past games stay. Y resets, any other key not.")

    def action_reset(self) -> None:
        if not self.asking_reset:
            return
        self.asking_reset = False
        try:
            self.records.reset_statistics()
        except OSError as exc:
            self.say(f"Not reset: {exc.strerror or exc}")
            return
        self.refresh_records()
        self.say("Statistics reset: every count is back to zero.")

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        if self.asking_reset and key not in ("x", "y"):
            self.asking_reset = False
            self.say("")

    def action_close(self) -> None:
        self.dismiss(None)
