"""Hands recorded by the players: one side enters a hand, the other side confirms it, a floor referee covers
many tables and decides what the sides dispute.

- :mod:`.modes`: who records the hands of a match (the event's setting, a stage's override).
- :mod:`.codes`: the sides' codes (issued by the desk, kept as a keyed hash, re-issued), checked with the
  wrong ones slowed per table and per address.
- :mod:`.services`: enter, confirm, dispute, withdraw (the players, by their code) and decide (a referee):
  only a confirmed or decided hand is recorded, through :func:`scoring.services.record_hand` /
  :func:`scoring.services.correct_last_hand`, so levels, standings, the hall and the bracket read it unchanged.
- :mod:`.waiting`: what waits (reads only): a table's open entry, a round's tables that may not close yet,
  a floor referee's queue.
- :mod:`.authentication`: ``Authorization: Side <match>:<code>``, the side as the API's writer (its code's row
  owns the Idempotency-Key); ``api`` and ``urls``: the REST operations.
"""
