"""The terminal game's screens: the game itself and the dialogs shown over it (none public)."""

__all__: list[str] = []
