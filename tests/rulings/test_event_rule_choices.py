"""The organisers' page of organiser choices: each choice with its clause, both readings and the one in
force, editable before play starts, applied to the event's matches (scoring and sanction engines)."""
import re
from html import escape

import pytest

from common.errors import ConflictError, ForbiddenError
from rulings import services as rulings
from scoring import services as scoring
from scoring.profiles import known_profiles, load_profile
from tournament.engines import clock as clocks
from tournament.events import rule_choices
from tournament.models import Event
from tournament.records.adjustments import match_state


def test_the_page_lists_clause_both_readings_and_the_one_in_force(table, client):
    match, users = table
    event = match.round.stage.event
    client.force_login(users["organiser"])
    html = client.get(f"/manage/{event.slug}/rule-choices/").content.decode()
    assert "第十三条（只写“不够80”“超过80”）" in html                    # shenzhen exactly_80's clause
    assert "恰好80分台下方上台" in html and "庄家守庄，不升级" in html      # both readings, in Chinese
    assert html.count('class="reading in-force"') == len(rule_choices.choice_rows(event))


def test_exactly_80_declarers_keep_applies_to_the_events_matches(table, client):
    """000 第十三条 only says 不够80 / 超过80: with declarers_keep, 80 keeps the stage with no level."""
    match, users = table
    event = match.round.stage.event
    client.force_login(users["organiser"])
    answer = client.post(f"/manage/{event.slug}/rule-choices/", {"exactly_80": "declarers_keep"})
    assert answer.status_code == 302
    event.refresh_from_db()
    match.refresh_from_db()
    assert event.rule_choices == {"exactly_80": "declarers_keep"} and match.profile == event.profile
    assert event.profile.based_on is not None and event.profile.data["choices"] == {"exactly_80": "declarers_keep"}
    written = scoring.record_hand(match, users["referee"], number=1, trump="S", defender_points=80, declarer="N")
    assert written.hand.declarer_keeps and match_state(match).levels == {"NS": "2", "EW": "2"}
    html = client.get(f"/manage/{event.slug}/rule-choices/").content.decode()
    assert "已开赛" in html or "can no longer" in html
    with pytest.raises(ConflictError):
        rule_choices.set_choices(event, users["organiser"], {"exactly_80": "takeover"})


def test_a_reading_the_choice_lacks_is_refused_next_to_it_and_nothing_is_saved(table, client):
    """The page validates through a Form (issue 33): the refusal sits in the choice's own box."""
    match, users = table
    event = match.round.stage.event
    client.force_login(users["organiser"])
    answer = client.post(f"/manage/{event.slug}/rule-choices/", {"exactly_80": "declarers_keep",
                                                                  "escalation_warnings": "whatever"})
    html = answer.content.decode()
    assert answer.status_code == 400
    box = html[html.index('id="choice-escalation_warnings"'):]
    assert box.index('data-field-error="escalation_warnings">请从列出的读法中选择一项。') < box.index("</fieldset>")
    event.refresh_from_db()
    assert not event.rule_choices                                  # the good pick waits for a good form


def test_the_default_reading_takes_over_at_80(table):
    match, users = table
    written = scoring.record_hand(match, users["referee"], number=1, trump="S", defender_points=80, declarer="N")
    assert not written.hand.declarer_keeps


def test_a_sanction_choice_reaches_the_rulings(make_match, make_user):
    """000 第十六条（二） 第二次给予警告: second_only gives a warning again at the third."""
    match = make_match()
    event = match.round.stage.event
    organiser, chief = make_user("organiser"), make_user("chief_referee")
    rule_choices.set_choices(event, organiser, {"escalation_warnings": "second_only"})
    rule_choices.set_choices(Event.objects.get(pk=event.pk), organiser, {})       # back to the file's reading
    event.refresh_from_db()
    assert event.rule_choices == {} and event.profile.slug == "shenzhen-community" and event.profile.based_on is None
    rule_choices.set_choices(event, organiser, {"escalation_warnings": "second_only"})
    match.refresh_from_db()
    kinds = [rulings.record_ruling(match, chief, "delay", "NS").sanction["kinds"] for _ in range(3)]
    assert kinds == [["warning"], ["violation"], ["warning"]]


def test_only_organisers_choose(table):
    match, users = table
    with pytest.raises(ForbiddenError):
        rule_choices.set_choices(match.round.stage.event, users["chief"], {"exactly_80": "declarers_keep"})


# --- issue 28 item 7: every named reading of every profile is on the page ----------------------------

@pytest.mark.parametrize("slug", known_profiles())
def test_the_page_shows_every_reading_of_every_profile(make_match, make_user, client, slug):
    """Each profile's open readings (002 三 "再打一盘" among them) are named choices, and the organisers'
    page shows each with its clause and both (every) readings, the file's default in force; picking every
    other reading puts those in force instead."""
    event = make_match(slug).round.stage.event
    organiser = make_user("organiser")
    client.force_login(organiser)
    specs = load_profile(slug).choice_specs
    assert specs, f"{slug} names no organiser choice"

    def page():
        return client.get(f"/manage/{event.slug}/rule-choices/").content.decode()

    def radio(name, rid):
        return re.search(rf'<label class="reading( in-force)?">\s*<input type="radio" name="{name}" '
                         rf'value="{rid}"[^>]*>\s*{re.escape(escape(specs[name]["readings"][rid]["label"]))}', html)

    html = page()
    for name, spec in specs.items():
        assert escape(spec["clause"]) in html
        for rid in spec["readings"]:
            found = radio(name, rid)
            assert found, (slug, name, rid)
            assert bool(found.group(1)) == (rid == spec["default"])
    others = {name: next(r for r in spec["readings"] if r != spec["default"]) for name, spec in specs.items()}
    rule_choices.set_choices(event, organiser, others)
    html = page()
    for name, spec in specs.items():
        for rid in spec["readings"]:
            assert bool(radio(name, rid).group(1)) == (rid == others[name]), (slug, name, rid)


def test_two_deck_one_more_hand_both_readings():
    """002 三 "每轮比赛最后10分钟大会统一提醒，再打一盘，打完结束比赛": by default the hand in play at the
    reminder does not count and one more is played (4 recorded → the 6th is the last); the other reading
    makes the hand in play the one more (the 5th is the last)."""
    assert load_profile("two-deck-standard").reading("one_more_hand") == "after_hand_in_play"
    for reading, last in (("after_hand_in_play", 6), ("hand_in_play", 5)):
        profile = load_profile("two-deck-standard", choices={"one_more_hand": reading})
        rule = clocks.merge_rule(profile.data["timing"])
        assert (rule.announce_before_seconds, rule.hands_after) == (600, 1)
        assert clocks.last_allowed_hand(4, rule.hands_after, rule.hand_in_play_counts) == last
    assert "timing.announce.hand_in_play_counts" not in load_profile("two-deck-standard").organiser_defaults
