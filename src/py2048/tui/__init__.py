"""The terminal game, ``2048 play``: a Textual app on top of the rules engine and the solver."""
