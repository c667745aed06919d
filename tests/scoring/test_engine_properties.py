"""Hypothesis properties of MatchState over random legal hand sequences."""
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import SEATS, LastTrick, MatchState
from scoring.profiles import known_profiles, load_profile

points = st.integers(-40, 80).map(lambda x: x * 5)                # −200..400 with penalties
bottoms = st.integers(0, 8).map(lambda x: x * 5)
last_tricks = st.one_of(
    st.none(),
    st.builds(LastTrick, st.sampled_from(["defenders", "declarers"]), st.just("single"),
              st.just(1), st.booleans(), st.sampled_from([None, "J", "A", "K"])),
    st.builds(LastTrick, st.just("defenders"), st.just("tractor"), st.integers(2, 4), st.booleans(),
              st.sampled_from([None, "J", "A"])),
    st.builds(LastTrick, st.just("defenders"), st.just("pair"), st.just(1), st.booleans(),
              st.sampled_from(["J", "A"])),
)
hands = st.lists(st.fixed_dictionaries({
    "defender_points": points, "bottom_points": bottoms, "last_trick": last_tricks,
    "penalty_points": st.sampled_from([0, 0, 0, -20, 10, 40]),
}), min_size=1, max_size=60)


def replay(profile, seat, hand_list):
    """Play the hands until the match is won; return the states after each hand."""
    state = MatchState.new(profile)
    states = []
    for i, kw in enumerate(hand_list):
        if state.winner is not None:
            break
        kw = dict(kw)
        raw = kw["defender_points"] + kw["penalty_points"]
        if profile.clamp is not None:                     # keep raw points inside the clamp range
            raw = max(raw, 0)
        raw = min(max(raw, -200), 400)
        trick = min(max(raw, 0), 200)                     # trick points 0..200; the rest is penalties
        kw["defender_points"], kw["penalty_points"] = trick, raw - trick
        state = state.play(declarer=seat if i == 0 else None, **kw)
        states.append(state)
    return states


cases = dict(slug=st.sampled_from(known_profiles()), seat=st.sampled_from(SEATS), hand_list=hands)


@settings(max_examples=200, deadline=None)
@given(**cases)
def test_levels_stay_on_the_ladder(slug, seat, hand_list):
    profile = load_profile(slug)
    for state in replay(profile, seat, hand_list):
        assert set(state.levels.values()) <= set(profile.ladder)
        for h in state.hands:
            assert h.declarer_level in profile.ladder and h.defender_level in profile.ladder


@settings(max_examples=200, deadline=None)
@given(**cases)
def test_take_over_never_raises_old_declaring_side(slug, seat, hand_list):
    profile = load_profile(slug)
    states = replay(profile, seat, hand_list)
    for h in states[-1].hands if states else ():
        if not h.declarer_keeps:
            assert profile.index[h.declarer_level] <= profile.index[h.declarer_level_before]
            assert profile.index[h.defender_level] >= profile.index[h.defender_level_before]


@settings(max_examples=200, deadline=None)
@given(**cases)
def test_must_play_stop_holds(slug, seat, hand_list):
    profile = load_profile(slug)
    must = profile.must_play
    waivable = any(rc.waive_must_play for rc in profile.rank_captures.values())
    states = replay(profile, seat, hand_list)
    for h in states[-1].hands if states else ():
        for before, after in ((h.declarer_level_before, h.declarer_level),
                              (h.defender_level_before, h.defender_level)):
            b, a = profile.index[before], profile.index[after]
            assert not any(b < m < a for m in must), (before, after, h.explanation)
        # defenders standing on a must-play level cannot leave it by a take-over
        f0 = profile.index[h.defender_level_before]
        if not h.declarer_keeps and f0 in must and not waivable:
            assert h.defender_level == h.defender_level_before, h.explanation


@settings(max_examples=100, deadline=None)
@given(**cases)
def test_replaying_the_same_hands_gives_the_same_state(slug, seat, hand_list):
    profile = load_profile(slug)
    first = replay(profile, seat, hand_list)
    second = replay(profile, seat, hand_list)
    if first:
        a, b = first[-1], second[-1]
        assert (a.levels, a.declarer, a.winner, a.policy_pending) == (b.levels, b.declarer, b.winner,
                                                                      b.policy_pending)
        assert a.hands == b.hands


@settings(max_examples=100, deadline=None)
@given(**cases)
def test_only_the_top_declarers_win(slug, seat, hand_list):
    profile = load_profile(slug)
    for state in replay(profile, seat, hand_list):
        last = state.hands[-1]
        if state.winner is not None:
            assert last.declarer_level == profile.ladder[-1] and last.declarer_keeps
        else:
            assert not last.match_won


@settings(max_examples=100, deadline=None)
@given(**cases, split=st.integers(0, 60))
def test_a_state_read_from_data_plays_on_as_the_state_it_was(slug, seat, hand_list, split):
    """A match's kept state (``to_dict``/``from_dict``, issue #15) read back part way and played on gives the
    same hands, data and state as the match played straight through; its hands read from data stay data
    (``hand_data`` gives them as given) until asked for as HandResults."""
    profile = load_profile(slug)
    states = replay(profile, seat, hand_list)
    split = min(split, len(states) - 1)
    data = states[split].to_dict()
    back = MatchState.from_dict(profile, data)
    assert back.hand_data()[:split + 1] == data["hands"] and back.hand_data()[0] is data["hands"][0]
    for kw in hand_list[split + 1:len(states)]:
        raw = min(max(kw["defender_points"] + kw["penalty_points"], 0 if profile.clamp is not None else -200), 400)
        trick = min(max(raw, 0), 200)
        back = back.play(defender_points=trick, bottom_points=kw["bottom_points"], last_trick=kw["last_trick"],
                         penalty_points=raw - trick)
    straight = states[-1]
    assert back.to_dict() == straight.to_dict()
    assert back.hands == straight.hands and back.last_hand == straight.hands[-1]
    assert back.hand_count == straight.hand_count == len(back.hand_data())
    assert MatchState.new(profile).last_hand is None
