"""A match's records, the layer between the models and the services: ``match.MatchRecord`` (read once under
the match's lock) and the readers it is made of: ``hands`` (the current hands, the replay), ``ledger`` (the
rulings with their sanctions and states), ``adjustments`` (what rulings do to hands), ``snapshots`` (the kept
state), ``closing`` (what a closed round allows). It imports models and engines, never a service or the
result (the ``service-layers`` contract)."""
