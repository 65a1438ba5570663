"""Deterministic multi-core TD training of an n-tuple network.

Why this scheme: TD learning is sequential, and letting threads update shared weights as they
go (Hogwild) makes results depend on timing. Instead training runs in *rounds*. In a round every
worker thread plays ``segment_moves`` turns of its own games on weights that stay fixed, and
records each TD error with its afterstate; then the errors are applied in worker order, each
thread applying them to its own share of the tuples (disjoint table entries). The weights after
a round depend only on the seed, the worker count and the segment length, never on timing.
Worker ``w`` plays games ``w, w + workers, w + 2*workers, ...``; game ``g`` spawns tiles from
its own engine key, derived from the training seed and ``g``.

With one worker, errors are applied at once (plain online TD(0)), which learns the most per
game; more workers trade a little of that for moves per second.

*Lock-free* training (``lock_free``) is the other way to use several cores, the one TDL2048
takes: every worker plays and learns online at once on the shared weights, without locks
(Hogwild, Recht et al. 2011). Two workers then train almost twice as fast as one, since no
worker waits for another, and the rare update lost to a race between threads costs nothing
measurable; but the weights then depend on timing, so such a run cannot be repeated exactly,
and a resumed run goes on from its checkpoint rather than ending exactly as an uninterrupted one.

*Restarts* give the late game more practice. Greedy play reaches a 16384 in about one game in
ten, so the positions that decide the best games are rare in training. With restart tiles
set, every game that first makes one of those tiles lends its board to a pool (the newest
``RESTART_POOL_SIZE``), and a share of later games start from a pool board instead of a fresh
opening: the restart idea of published n-tuple players (Jaskowski 2018). The pool grows only
between rounds, in worker order, and a game draws its restart from its own key, so results
still depend only on the settings.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from py2048.engine.board import ROW_TABLES
from py2048.engine.rng import seed_key, validate_seed
from py2048.evaluation.tuples import (
    DEFAULT_TUPLES,
    SYMMETRY_COUNT,
    validate_stage_tiles,
    validate_tuples,
)
from py2048.learn.kernels import (
    BOARD_COLUMNS,
    COHERENCE_ABS,
    COHERENCE_SUM,
    COUNTER_COLUMNS,
    COUNTER_GAME,
    COUNTER_IN_PROGRESS,
    COUNTER_MOVES,
    RECORD_COLUMNS,
    RESULT_COLUMNS,
    WEIGHT,
    Games,
    Learning,
    Output,
    scratch_rows,
)
from py2048.learn.network import NTupleNetwork, split_stage_array

DEFAULT_SEGMENT_MOVES = 2000
"""Moves a round of synchronous training (several workers, not lock-free) plays per worker: its
workers play on weights that stay fixed for the round, so a round is kept short."""
LOCK_FREE_SEGMENT = 20_000
"""Moves a round plays per worker where each worker learns at once (one worker, or lock-free
workers): the round's length then changes only when boards join the restart pool (at the end
of a round), so rounds are long, which saves the call into the compiled kernels that each
round costs (about 1% of one worker's time at 2,000 moves, measured:
``docs/results/training/round-length-2026-12-06.json``) and, with lock-free workers, the wait
of the quickest for the slowest at the end of each round."""
PADDED_ROW = 16
"""Columns allocated for a worker's row of boards or counters (of which it uses the first few)."""
RESTART_POOL_SIZE = 10_000
"""Boards kept for restarts: the newest ones, so the pool follows the improving player."""


@dataclass(frozen=True)
class TrainingConfig:
    """What a training run is: everything its result depends on, besides the game count.

    ``alpha`` is the step per board: an error moves the sum of the board's table entries by
    ``alpha * error`` (each of its ``8 * len(tuples)`` entries by its share), scaled under
    temporal coherence by each entry's ``|E|/A``, which starts at 1.

    ``stage_tiles`` split the network into stages by the board's largest tile (see
    :mod:`py2048.evaluation.tuples`); none means one set of tables for the whole game.

    ``restart_tiles`` are the tiles whose first appearance in a game adds its board to the
    restart pool; ``restart_share`` is the share of games started from that pool once it holds
    a board (0: every game starts fresh).

    ``lock_free`` lets several workers learn at once on shared weights (see the module
    docstring): faster, but not repeatable. With one worker it changes nothing.

    ``segment_moves`` is the length of a round in moves per worker; 0 (the default) takes the
    mode's: :data:`LOCK_FREE_SEGMENT` where every worker learns at once (one worker, or
    lock-free workers), :data:`DEFAULT_SEGMENT_MOVES` for synchronous rounds.
    """

    tuples: tuple[tuple[int, ...], ...] = DEFAULT_TUPLES
    stage_tiles: tuple[int, ...] = ()
    alpha: float = 1.0
    temporal_coherence: bool = True
    seed: int = 0
    workers: int = 1
    segment_moves: int = 0
    restart_tiles: tuple[int, ...] = ()
    restart_share: float = 0.0
    lock_free: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "tuples", validate_tuples(self.tuples))
        object.__setattr__(self, "stage_tiles", validate_stage_tiles(self.stage_tiles))
        object.__setattr__(self, "seed", validate_seed(self.seed))
        if not (0.0 < self.alpha <= 1.0):
            raise ValueError(f"alpha must be above 0 and at most 1, got {self.alpha}")
        if self.workers < 1:
            raise ValueError(f"workers must be 1 or more, got {self.workers}")
        if self.segment_moves < 0:
            raise ValueError(
                f"segment_moves must be 1 or more (0: the default), got {self.segment_moves}"
            )
        if self.segment_moves == 0:
            object.__setattr__(self, "segment_moves", self.default_segment_moves)
        tiles = tuple(sorted(set(self.restart_tiles)))
        for tile in tiles:
            if tile < 8 or tile > 65536 or tile & (tile - 1):
                raise ValueError(f"restart tiles must be powers of two from 8 to 65536, got {tile}")
        object.__setattr__(self, "restart_tiles", tiles)
        if not (0.0 <= self.restart_share < 1.0):
            raise ValueError(
                f"restart_share must be at least 0 and below 1, got {self.restart_share}"
            )
        if self.restart_share > 0 and not tiles:
            raise ValueError("restart_share needs restart_tiles: the tiles that fill the pool")

    @property
    def default_segment_moves(self) -> int:
        """The round length of this way of training: :data:`LOCK_FREE_SEGMENT` where every
        worker learns at once (one worker, or lock-free workers), else
        :data:`DEFAULT_SEGMENT_MOVES`."""
        online = self.workers == 1 or self.lock_free
        return LOCK_FREE_SEGMENT if online else DEFAULT_SEGMENT_MOVES

    @property
    def restart_exponents(self) -> int:
        """The restart tiles as a bit mask of exponents (bit 13 for 8192)."""
        return sum(1 << (tile.bit_length() - 1) for tile in self.restart_tiles)


@dataclass(frozen=True)
class GameResult:
    """One finished training game; ``restarted`` when it began from a pool board."""

    game: int
    score: int
    max_exponent: int
    moves: int
    restarted: bool = False

    @classmethod
    def from_row(cls, row: np.ndarray) -> GameResult:
        """A result from a row of ``play_segment``'s results (4-column rows: never restarted)."""
        game, score, top, moves = (int(x) for x in row[:4])
        return cls(game, score, top, moves, bool(row[4]) if row.size > 4 else False)


class RollingStats:
    """Mean score and tile rates over the most recent games played from the opening.

    Restarted games are left out: they begin far into a game, so their scores and tiles do not
    say how well the network plays a whole game.
    """

    def __init__(self, window: int = 1000, results: Sequence[GameResult] = ()) -> None:
        self.recent: deque[GameResult] = deque(maxlen=window)
        self.add(results)

    def add(self, results: Sequence[GameResult]) -> None:
        self.recent.extend(r for r in results if not r.restarted)

    @property
    def mean_score(self) -> float:
        return sum(r.score for r in self.recent) / len(self.recent) if self.recent else 0.0

    def rate(self, tile: int) -> float:
        """Share of recent games whose largest tile reached ``tile``."""
        if not self.recent:
            return 0.0
        exponent = tile.bit_length() - 1
        return sum(r.max_exponent >= exponent for r in self.recent) / len(self.recent)


class Trainer:
    """Owns the weights and the games in progress; ``run_round`` advances training a little."""

    def __init__(self, config: TrainingConfig, network: NTupleNetwork | None = None) -> None:
        self.config = config
        if network is None:
            network = NTupleNetwork.zeros(config.tuples, config.stage_tiles)
        self.network = network
        if (network.tuples, network.stage_tiles) != (config.tuples, config.stage_tiles):
            raise ValueError(
                "the network's tuples or stages differ from the training configuration's"
            )
        self.table = learning_table(network.weights, config.temporal_coherence)
        network.weights = self.table[:, WEIGHT]
        workers = config.workers
        # Each worker writes its row of boards and counters on every move: rows of 128 bytes
        # keep two workers from ever writing to one cache line (lock-free workers slowed each
        # other down by passing shared lines back and forth).
        self.boards = np.zeros((workers, PADDED_ROW), dtype=np.uint64)[:, :BOARD_COLUMNS]
        self.counters = np.zeros((workers, PADDED_ROW), dtype=np.int64)[:, :COUNTER_COLUMNS]
        self.counters[:, COUNTER_GAME] = np.arange(workers)
        self.games_finished = 0
        self.game_offset = 0
        """Game numbers skipped when the run changed its workers (:func:`with_workers`): the
        run plays numbers below ``total_games + game_offset``, so it still ends at
        ``total_games`` finished games."""
        self.moves_played = 0
        self.elapsed_seconds = 0.0
        self.stats = RollingStats()
        steps = config.segment_moves
        self._records = np.zeros((workers, steps, RECORD_COLUMNS), dtype=np.uint64)
        self._record_counts = np.zeros(workers, dtype=np.int64)
        self._results = np.zeros((workers, steps + 1, RESULT_COLUMNS), dtype=np.int64)
        self._result_counts = np.zeros(workers, dtype=np.int64)
        self._rows = scratch_rows(workers, len(network.layout))
        self.restart_boards = np.zeros((RESTART_POOL_SIZE, 2), dtype=np.uint64)
        self.restarts_found = 0
        self._found = np.zeros((workers, steps, 2), dtype=np.uint64)
        self._found_counts = np.zeros(workers, dtype=np.int64)
        self._pool = ThreadPoolExecutor(workers) if workers > 1 else None
        self._base_key = np.uint64(seed_key(np.uint64(config.seed)))
        self._step = config.alpha / (len(config.tuples) * SYMMETRY_COUNT)

    def split_stages(self, stage_tiles: Sequence[int]) -> None:
        """Go on training with more stages, each new one a copy of the stage it came from.

        The learning statistics are copied with the weights, so every entry of a new stage
        learns at the rate its original had reached.
        """
        old_tiles = self.config.stage_tiles
        table = self.table
        self.network = self.network.split_stages(stage_tiles)
        self.table = learning_table(self.network.weights, self.config.temporal_coherence)
        self.network.weights = self.table[:, WEIGHT]
        for column in range(1, table.shape[1]):
            self.table[:, column] = split_stage_array(table[:, column], old_tiles, stage_tiles)
        self.config = replace(self.config, stage_tiles=self.network.stage_tiles)

    @property
    def coherence_sum(self) -> np.ndarray:
        """Each entry's running sum of errors (temporal coherence's E; empty without TC)."""
        return self._coherence_column(COHERENCE_SUM)

    @property
    def coherence_abs(self) -> np.ndarray:
        """Each entry's running sum of absolute errors (temporal coherence's A)."""
        return self._coherence_column(COHERENCE_ABS)

    def _coherence_column(self, column: int) -> np.ndarray:
        if self.table.shape[1] > column:
            return self.table[:, column]
        return np.zeros(0, dtype=np.float32)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def done(self, total_games: int) -> bool:
        """True once ``total_games`` games have been played: every game numbered below
        ``total_games + game_offset`` (the numbers skipped by :func:`with_workers` aside)."""
        idle = self.counters[:, COUNTER_IN_PROGRESS] == 0
        last = total_games + self.game_offset
        return bool(np.all(idle & (self.counters[:, COUNTER_GAME] >= last)))

    def run_round(self, total_games: int) -> list[GameResult]:
        """Play one segment on every worker, learn from it, and return the games it finished."""
        moves_before = self._moves_in_progress()
        if self._pool is None:
            self._play(0, total_games, online=True)
        elif self.config.lock_free:
            futures = [
                self._pool.submit(self._play, w, total_games, True)
                for w in range(self.config.workers)
            ]
            for future in futures:
                future.result()
        else:
            futures = [
                self._pool.submit(self._play, w, total_games, False)
                for w in range(self.config.workers)
            ]
            for future in futures:
                future.result()
            self._apply()
        self._add_restart_boards()
        finished = sorted(
            (
                GameResult.from_row(self._results[w, i])
                for w in range(self.config.workers)
                for i in range(self._result_counts[w])
            ),
            key=lambda result: result.game,
        )
        moves_after = self._moves_in_progress()
        self.moves_played += moves_after - moves_before + sum(r.moves for r in finished)
        self.games_finished += len(finished)
        self.stats.add(finished)
        return finished

    def _add_restart_boards(self) -> None:
        """Add the boards found in this round to the restart pool, in worker order."""
        for w in range(self.config.workers):
            for board in self._found[w, : self._found_counts[w]]:
                self.restart_boards[self.restarts_found % RESTART_POOL_SIZE] = board
                self.restarts_found += 1

    def _moves_in_progress(self) -> int:
        in_progress = self.counters[:, COUNTER_IN_PROGRESS] == 1
        return int(self.counters[:, COUNTER_MOVES][in_progress].sum())

    def _play(self, worker: int, total_games: int, online: bool) -> None:
        config = self.config
        learning = Learning(self.table, self._step, config.temporal_coherence, True, online)
        games = Games(
            self.boards, self.counters, self._base_key, config.workers,
            total_games + self.game_offset,
            config.restart_exponents, config.restart_share, self.restart_boards,
            min(self.restarts_found, RESTART_POOL_SIZE),
        )  # fmt: skip
        self.network.kernels.play_segment(
            worker, config.segment_moves, learning, games, self._output(), ROW_TABLES
        )

    def _apply(self) -> None:
        config = self.config
        learning = Learning(self.table, self._step, config.temporal_coherence, True, False)
        self.network.kernels.apply_records(self._output(), learning)

    def _output(self) -> Output:
        return Output(
            self._records, self._record_counts, self._results, self._result_counts,
            self._found, self._found_counts, self._rows,
        )  # fmt: skip


def with_workers(trainer: Trainer, workers: int, lock_free: bool) -> Trainer:
    """The run of ``trainer`` going on with another number of workers or way of sharing the
    weights (``lock_free``), e.g. a long run resumed on a machine with more cores.

    The weights, the coherence sums, the restart pool and every count carry over. The games in
    progress are given up (at most one per old worker; their moves were learnt from already),
    and the new workers number their games on from past the highest number any old worker had
    reached, so no game's spawns are played twice; the numbers skipped are added to
    :attr:`Trainer.game_offset`, so the run still ends at the same count of finished games. The
    run then differs from one started with the new settings. ``trainer`` is closed.
    """
    old = trainer.config
    segment = 0 if old.segment_moves == old.default_segment_moves else old.segment_moves
    config = replace(old, workers=workers, lock_free=lock_free, segment_moves=segment)
    trainer.close()
    moved = Trainer(config, trainer.network)
    moved.table[:, 1:] = trainer.table[:, 1:]
    next_game = int(trainer.counters[:, COUNTER_GAME].max()) + 1
    moved.counters[:, COUNTER_GAME] = next_game + np.arange(workers)
    moved.game_offset = next_game - trainer.games_finished
    moved.games_finished = trainer.games_finished
    moved.moves_played = trainer.moves_played
    moved.elapsed_seconds = trainer.elapsed_seconds
    moved.stats = trainer.stats
    moved.restart_boards[...] = trainer.restart_boards
    moved.restarts_found = trainer.restarts_found
    return moved


def learning_table(weights: np.ndarray, temporal_coherence: bool) -> np.ndarray:
    """A learning table holding these weights (see :class:`~py2048.learn.kernels.Learning`):
    float32 rows of weight, E and A (both 0) with temporal coherence, of the weight alone
    without."""
    table = np.zeros((weights.size, 3 if temporal_coherence else 1), dtype=np.float32)
    table[:, WEIGHT] = weights
    return table
