"""Pure hall-clock arithmetic (tournament.engines.clock): pauses, additions, per-table time, the last-hands rule."""
import contextlib
import datetime as dt
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from common.errors import UserError
from tournament.engines import clock as clocks
from tournament.engines.clock import ADD, PAUSE, RESUME, START, TABLE_EXTRA, ClockRule, Mark

T0 = dt.datetime(2026, 12, 5, 1, 0, tzinfo=dt.timezone.utc)
PROFILES = Path(__file__).resolve().parents[2] / "fixtures" / "profiles"


@contextlib.contextmanager
def refused(field):
    """The pure clock refuses with a UserError naming ``field``."""
    with pytest.raises(UserError) as caught:
        yield
    assert caught.value.field == field


def at(minutes=0, seconds=0):
    return T0 + dt.timedelta(minutes=minutes, seconds=seconds)


def timing(slug):
    return yaml.safe_load((PROFILES / f"{slug}.yaml").read_text(encoding="utf-8"))["timing"]


SHENZHEN = clocks.merge_rule(timing("shenzhen-community"))


# --- the rule from the profile files ---------------------------------------------------------

@pytest.mark.parametrize("slug, expected", [
    ("shenzhen-community", ClockRule(90 * 60, 30 * 60, 3, False, redeals_count=False)),   # 第十五条, issue 28
    ("two-deck-standard", ClockRule(60 * 60, 10 * 60, 1, False)),
    ("union-games", ClockRule(120 * 60)),
])
def test_rule_from_profile_timing(slug, expected):
    assert clocks.merge_rule(timing(slug)) == expected


@pytest.mark.parametrize("slug", ["company-league", "company-league-2008"])
def test_profile_without_time_limit_needs_an_override(slug):
    with refused("match_minutes"):
        clocks.merge_rule(timing(slug))
    assert clocks.merge_rule(timing(slug), {"match_minutes": 45}) == ClockRule(45 * 60)


def test_overrides_event_then_round():
    event = {"match_minutes": 100, "hands_after": None}
    rnd = {"hands_after": 2, "hand_in_play_counts": True}
    assert clocks.merge_rule(timing("shenzhen-community"), event, rnd) == ClockRule(100 * 60, 30 * 60, 2, True,
                                                                                      redeals_count=False)
    assert clocks.merge_rule(timing("shenzhen-community"), {"announce_enabled": False}) == ClockRule(90 * 60)
    added = clocks.merge_rule(timing("union-games"), {"announce_enabled": True, "announce_minutes_before_end": 15,
                                                      "hands_after": 2})
    assert added == ClockRule(120 * 60, 15 * 60, 2, False)


@pytest.mark.parametrize("layer, field", [
    ({"match_minutes": 0}, "match_minutes"),
    ({"announce_minutes_before_end": 90}, "announce_before_seconds"),
    ({"hands_after": -1}, "hands_after"),
    ({"colour": "red"}, "colour"),
    ({"announce_enabled": True, "announce_minutes_before_end": None}, None),
])
def test_bad_overrides_name_the_field(layer, field):
    base = timing("union-games") if field is None else timing("shenzhen-community")
    with refused(field or "announce_minutes_before_end"):
        clocks.merge_rule(base, layer)


# --- reading the clock -------------------------------------------------------------------------

def test_not_started():
    r = clocks.read(SHENZHEN, [], at(5))
    assert (r.status, r.remaining, r.ends_at, r.announce_due, r.end_due) == ("not_started", 5400, None, False, False)


def test_running_clock_counts_down_and_knows_its_announcement():
    marks = [Mark(START, at(0))]
    r = clocks.read(SHENZHEN, marks, at(10))
    assert r.status == "running" and r.elapsed == 600 and r.remaining == 4800
    assert r.ends_at == at(90) and r.announce_at == at(60) and not r.announce_due
    assert clocks.read(SHENZHEN, marks, at(60)).announce_due
    assert not clocks.read(SHENZHEN, marks, at(59, 59)).announce_due
    end = clocks.read(SHENZHEN, marks, at(95))
    assert end.status == "time_up" and end.remaining == 0 and end.end_due


def test_pause_freezes_and_resume_shifts_the_end():
    marks = [Mark(START, at(0)), Mark(PAUSE, at(20)), Mark(RESUME, at(27))]
    paused = clocks.read(SHENZHEN, marks[:2], at(25))
    assert paused.status == "paused" and paused.remaining == 70 * 60 and paused.ends_at is None
    assert clocks.read(SHENZHEN, marks[:2], at(80)).remaining == 70 * 60
    r = clocks.read(SHENZHEN, marks, at(30))
    assert r.remaining == 67 * 60 and r.ends_at == at(97) and r.announce_at == at(67)


def test_additions_and_take_backs_move_end_and_announcement():
    marks = [Mark(START, at(0)), Mark(ADD, at(5), 300), Mark(ADD, at(6), -120)]
    r = clocks.read(SHENZHEN, marks, at(10))
    assert r.length == 5400 + 180 and r.ends_at == at(93) and r.announce_at == at(63)


def test_table_extra_time_is_that_tables_own():
    marks = [Mark(START, at(0)), Mark(TABLE_EXTRA, at(40), 600, table=7)]
    hall = clocks.read(SHENZHEN, marks, at(65))
    table7 = clocks.read(SHENZHEN, marks, at(65), table=7)
    other = clocks.read(SHENZHEN, marks, at(65), table=8)
    assert hall.announce_due and other.announce_due and not table7.announce_due
    assert table7.ends_at == at(100) and table7.announce_at == at(70) and hall.ends_at == at(90)
    assert clocks.table_extra_seconds(marks, 7) == 600 and clocks.table_extra_seconds(marks, 8) == 0


def test_marks_in_the_future_are_ignored():
    marks = [Mark(START, at(0)), Mark(PAUSE, at(50))]
    assert clocks.read(SHENZHEN, marks, at(10)).status == "running"


# --- which changes are allowed -------------------------------------------------------------------

@pytest.mark.parametrize("marks, kind", [
    ([], PAUSE), ([], RESUME), ([Mark(START, at(0))], START), ([Mark(START, at(0))], RESUME),
    ([Mark(START, at(0)), Mark(PAUSE, at(1))], PAUSE),
])
def test_refused_transitions(marks, kind):
    with refused("kind"):
        clocks.check_change(SHENZHEN, marks, at(2), kind)


def test_no_pause_or_addition_once_time_is_up():
    marks = [Mark(START, at(0))]
    with pytest.raises(UserError, match="时间已到"):
        clocks.check_change(SHENZHEN, marks, at(91), PAUSE)
    with refused("kind"):
        clocks.check_change(SHENZHEN, marks, at(91), ADD, 60)
    assert clocks.check_change(SHENZHEN, marks, at(91), TABLE_EXTRA, 60, 3).table == 3


def test_take_back_cannot_run_the_clock_out_and_table_total_not_negative():
    marks = [Mark(START, at(0))]
    with refused("seconds"):
        clocks.check_change(SHENZHEN, marks, at(80), ADD, -600)
    assert clocks.check_change(SHENZHEN, marks, at(80), ADD, -540).seconds == -540
    with refused("seconds"):
        clocks.check_change(SHENZHEN, marks, at(80), TABLE_EXTRA, -60, 4)
    with refused("seconds"):
        clocks.check_change(SHENZHEN, marks, at(80), ADD, 0)


def test_change_cannot_be_earlier_than_the_last():
    with refused("at"):
        clocks.check_change(SHENZHEN, [Mark(START, at(5))], at(4), PAUSE)


def test_marks_validate_their_fields():
    with refused("kind"):
        Mark("stop", at(0))
    with refused("at"):
        Mark(START, dt.datetime(2026, 1, 1))
    with refused("table"):
        Mark(ADD, at(0), 60, table=3)


# --- the last-hands rule -------------------------------------------------------------------------

@pytest.mark.parametrize("slug, recorded, last", [
    ("shenzhen-community", 0, 4),    # hand 1 in play does not count, then exactly 3 more: 2, 3, 4
    ("shenzhen-community", 5, 9),    # hand 6 in play, then 7, 8, 9
    ("two-deck-standard", 5, 7),     # hand 6 in play, then one more: 7
])
def test_last_allowed_hand_per_profile(slug, recorded, last):
    rule = clocks.merge_rule(timing(slug))
    assert clocks.last_allowed_hand(recorded, rule.hands_after, rule.hand_in_play_counts) == last
    assert clocks.hands_left(recorded, last) == last - recorded
    assert clocks.hands_left(last, last) == 0 and clocks.hands_left(last + 1, last) == 0


def test_hand_in_play_counting_as_the_first():
    assert clocks.last_allowed_hand(5, 3, True) == 8
    assert clocks.hands_left(5, None) is None


def test_format_remaining_in_chinese():
    assert clocks.format_remaining(0) == "0分00秒"
    assert clocks.format_remaining(29 * 60 + 4.2) == "29分05秒"
    assert clocks.format_remaining(3600 + 5 * 60 + 9) == "1小时05分09秒"
    assert clocks.format_remaining(-3) == "0分00秒"


# --- invariants -------------------------------------------------------------------------------------

ops = st.lists(st.tuples(st.sampled_from([PAUSE, RESUME, ADD, TABLE_EXTRA]), st.integers(0, 1200),
                         st.integers(-10, 10)), max_size=15)


def build(seq):
    """Apply a random sequence, keeping only the changes the clock allows."""
    marks, now = [Mark(START, T0)], T0
    for kind, gap, minutes in seq:
        now += dt.timedelta(seconds=gap)
        try:
            marks.append(clocks.check_change(SHENZHEN, marks, now, kind, minutes * 60, 1 if kind == TABLE_EXTRA else None))
        except ValueError:
            pass
    return marks, now


@settings(max_examples=200, deadline=None)
@given(ops, st.integers(0, 20000))
def test_elapsed_plus_remaining_is_length(seq, later):
    marks, last = build(seq)
    now = last + dt.timedelta(seconds=later)
    for table in (None, 1):
        r = clocks.read(SHENZHEN, marks, now, table=table)
        assert 0 <= r.elapsed <= (now - T0).total_seconds() + 1e-6
        if not r.end_due:
            assert r.elapsed + r.remaining == pytest.approx(r.length)
        else:
            assert r.remaining == 0
        if r.status == "running":
            assert r.ends_at == now + dt.timedelta(seconds=r.remaining)


@settings(max_examples=200, deadline=None)
@given(ops, st.integers(0, 5000), st.integers(0, 5000))
def test_remaining_never_grows_without_a_change(seq, a, b):
    marks, last = build(seq)
    t1 = last + dt.timedelta(seconds=min(a, b))
    t2 = last + dt.timedelta(seconds=max(a, b))
    r1, r2 = clocks.read(SHENZHEN, marks, t1), clocks.read(SHENZHEN, marks, t2)
    assert r2.remaining <= r1.remaining
    if r1.status == "paused":
        assert r2.remaining == r1.remaining
    assert (not r1.announce_due) or r2.announce_due


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 200), st.integers(0, 10), st.booleans())
def test_allowance_covers_the_hand_in_play(recorded, after, counts):
    if counts and after == 0:
        return
    last = clocks.last_allowed_hand(recorded, after, counts)
    assert last >= recorded + (0 if counts else 1)
    assert clocks.hands_left(recorded, last) == after + (0 if counts else 1)
