"""The terminal game, ``2048 play``: a Textual app on top of the rules engine and the solver.

It is a command, not a library: its modules are the command's parts and none is public.
"""

__all__: list[str] = []
