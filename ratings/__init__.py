"""Player ratings per game.

Scope for now: only the history model (one row per player per rated match) and its admin.
Computing ratings from finished matches (the ``placements`` of each result, spec 1.1) is
a later issue: it will be a service here, run by a task enqueued when a match finishes.
"""
