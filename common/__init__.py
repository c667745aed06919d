"""Pure vocabulary shared by every layer: the user-facing error type and the table's seats and sides.

Nothing here imports Django; the engines use it as much as the services do.
"""
