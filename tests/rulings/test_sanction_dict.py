"""tournament.records.ledger.sanction_dict gives what the dataclasses.asdict-based snapshot gave, for any Sanction."""
import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from rulings.engine import Effect, Sanction
from tournament.records.ledger import sanction_dict

TEXT = st.text(alphabet="NSEWabcd_", max_size=6)
MAYBE = st.one_of(st.none(), TEXT)
EFFECTS = st.builds(Effect, stage=MAYBE, gainer=MAYBE, levels=st.integers(0, 4), next_declarer=MAYBE,
                    drop_to=st.lists(st.tuples(TEXT, TEXT), max_size=3).map(tuple),
                    levels_per_points=st.one_of(st.none(), st.integers(1, 80)),
                    max_levels=st.one_of(st.none(), st.integers(1, 3)),
                    levels_from_points=st.integers(0, 16).map(lambda n: n * 5), drop_keeps_levels=st.booleans(),
                    points_void=st.booleans(), redeal=st.booleans(), hand_ends=st.booleans(),
                    applies_to=st.sampled_from(["current_hand", "first_hand"]))
SANCTIONS = st.builds(Sanction, code=TEXT, side=TEXT, beneficiary=TEXT,
                      kinds=st.frozensets(st.sampled_from(["points", "levels", "choice", "match_forfeit",
                                                           "stage", "warning"])),
                      points=st.integers(-100, 400), levels=st.integers(0, 4), needs_approval=st.booleans(),
                      options=st.lists(TEXT, max_size=3).map(tuple),
                      referee_options=st.lists(TEXT, max_size=3).map(tuple), choice=MAYBE, chooser=MAYBE,
                      role=MAYBE, effect=EFFECTS, explanation=TEXT, clause=TEXT, source=TEXT,
                      occurrence=st.integers(1, 5), escalated=st.lists(TEXT, max_size=2).map(tuple),
                      waivable=st.booleans(), automatic=st.booleans())


def by_asdict(sanction):
    """The earlier implementation, kept here as the reference."""
    data = dataclasses.asdict(sanction)
    data["kinds"] = sorted(sanction.kinds)
    data["effect"]["drop_to"] = [list(pair) for pair in sanction.effect.drop_to]
    for key in ("options", "referee_options", "escalated", "items"):
        data[key] = list(data[key])
    data["pending_choice"] = sanction.pending_choice
    return data


@settings(max_examples=300, deadline=None)
@given(SANCTIONS)
def test_sanction_dict_is_the_asdict_snapshot(sanction):
    assert sanction_dict(sanction) == by_asdict(sanction)
