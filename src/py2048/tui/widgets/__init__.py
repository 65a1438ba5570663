"""The game screen's widgets: the board, the score boxes and the advice panel (none public)."""

__all__: list[str] = []
