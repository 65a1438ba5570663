"""The rules engine: the single source of truth for how 2048 plays. It imports nothing of ours."""

from py2048.engine.board import BoardError
from py2048.engine.direction import Direction
from py2048.engine.game import Game, GameError, MoveResult
from py2048.engine.motion import TileMotion, trace
from py2048.engine.rules import can_move, slide
from py2048.engine.save import SaveError
from py2048.engine.size import SIZES, BoardSize

__all__ = [
    "SIZES",
    "BoardError",
    "BoardSize",
    "Direction",
    "Game",
    "GameError",
    "MoveResult",
    "SaveError",
    "TileMotion",
    "can_move",
    "slide",
    "trace",
]
