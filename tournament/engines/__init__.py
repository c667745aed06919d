"""The pure engines of the competition: plain Python in, plain values out, no Django, no database.

An import contract (``.importlinter``, "Engines are pure") keeps this package free of Django, DRF, Celery,
the configuration, the app models and everything above them. The services (``tournament.competition``)
read the records, call these functions and store what they answer.

- :mod:`.pairings`: round robin, group and pair draws, seats and tables, elimination slots, cross seeding;
- :mod:`.swiss` (with :mod:`.swiss_matching`, its exact minimum-cost matching): one Swiss round;
- :mod:`.brackets`: a single-elimination bracket, its state and placings;
- :mod:`.standings` (with :mod:`.standings_input`, the checked inputs, and :mod:`.crosstable`): group
  standings as registered metrics, tie-breaks, crosstables;
- :mod:`.unit_standings`: a union meet's unit (team) points from the pairs' places;
- :mod:`.crosstable` and :mod:`.unit_standings` are named here as modules: ``crosstable.crosstable`` and
  ``unit_standings.unit_standings`` are their functions;
- :mod:`.clock`: the hall clock's arithmetic (the marks read at a moment, the announcement rule).

Outside callers reach the contract names at ``tournament.engines.<module>.<name>`` (for instance
``tournament.engines.pairings.round_robin``, ``tournament.engines.swiss.swiss_round``).
"""
from tournament.engines import clock, crosstable, unit_standings  # the modules (their main functions share the names)
from tournament.engines.brackets import build_bracket
from tournament.engines.pairings import (
    bracket_positions,
    cross_seed,
    draw_groups,
    draw_pairs,
    draw_seats,
    draw_tables,
    elimination_slots,
    round_robin,
)
from tournament.engines.standings import compute_standings, register_metric
from tournament.engines.swiss import swiss_round

__all__ = [
    "bracket_positions", "build_bracket", "clock", "compute_standings", "cross_seed", "crosstable",
    "draw_groups", "draw_pairs", "draw_seats", "draw_tables", "elimination_slots", "register_metric",
    "round_robin", "swiss_round", "unit_standings",
]
