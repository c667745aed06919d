"""Issue 43 (what to build, item 2): every offence of every profile can be recorded from the console, and what
is stored is what the preview said. The console's walk (``tests/rulings/offence_walks.py``) through the API it
calls: preview, then the options the preview names, then the record; the stored sanction equals the preview's,
and no offence code or profile key reaches a word the console shows. The browser walk:
``test_offence_matrix_browser.py``.
"""
import json
import re

import pytest

from rulings.models import Ruling
from tests.rulings import offence_walks
from tournament.events import rule_choices
from tournament.models import Match, Round

VARIANTS = list(offence_walks.variants())


def _post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def _internal_words(match):
    """What must never be shown: the profile's keys, its offences' codes, its options' ids (as whole words)."""
    return offence_walks.internal_words(match.profile)


def _shows_internal(text, words):
    return [w for w in words if re.search(rf"(?<![A-Za-z_]){re.escape(w)}(?![A-Za-z_])", text)]


def walk(client, match, steps, words):
    """One walk at ``match`` as the console does it; returns the rulings stored with their previews."""
    done = []
    for step in steps:
        match.refresh_from_db()
        if match.is_over:    # the ladder's last step ended the match (a table referee's next ruling is refused)
            break
        body = {"code": step.code, "side": "NS", "declarer": "N"}   # the console's seat while the table has none
        body.update({k: v for k, v in (("choice", step.choice), ("minutes", step.minutes), ("cards", step.cards),
                                       ("role", step.role)) if v is not None})
        answer = _post(client, f"/api/matches/{match.pk}/rulings/preview/", body)
        assert answer.status_code == 200, (body, answer.json())
        shown = answer.json()
        if step.choice is None and shown["choices"]:   # the console offers them, the applied one checked
            ids = [c["id"] for c in shown["choices"]]
            assert shown["sanction"]["choice"] in ids and all(c["label"] != c["id"] for c in shown["choices"])
            body["choice"] = shown["sanction"]["choice"]
            if step.pick in ids and step.pick != body["choice"]:   # the referee picks another: a new preview
                body["choice"] = step.pick
                shown = _post(client, f"/api/matches/{match.pk}/rulings/preview/", body).json()
        elif step.choice is None:
            assert "choice" not in body
        text = " ".join([shown["sanction"]["explanation"], shown["impact"]["text"],
                         *(c["label"] for c in shown["choices"])])
        assert not _shows_internal(text, words), text
        recorded = _post(client, f"/api/matches/{match.pk}/rulings/", body)
        assert recorded.status_code == 201, (body, recorded.json())
        ruling = Ruling.objects.get(pk=recorded.json()["id"])
        assert ruling.sanction == shown["sanction"], (body, ruling.sanction, shown["sanction"])
        labels = recorded.json()["option_labels"]   # the other side's options, as the console's buttons name them
        assert set(labels) == set(ruling.sanction["options"]) and not _shows_internal(" ".join(labels.values()), words)
        done.append(ruling)
    return done


@pytest.mark.parametrize("variant", VARIANTS, ids=[offence_walks.variant_id(v) for v in VARIANTS])
def test_every_offence_is_recorded_as_previewed(client, make_match, make_user, variant):
    slug, picks = variant
    first = make_match(slug)
    event = first.round.stage.event
    if picks:
        event = rule_choices.set_choices(event, make_user("organiser"), picks)
    referee = make_user("table_referee")
    client.force_login(referee)
    codes = offence_walks.changed_codes(slug, picks)
    # an escalation's reading (shenzhen 第十六条) changes every offence alike: their default paths suffice
    plan = offence_walks.walks(event.profile, codes, every_path=not picks or codes is not None)
    assert plan
    recorded, rnd = set(), Round.objects.select_related("stage__event").get(pk=first.round_id)
    for table, steps in enumerate(plan, start=2):
        match = make_match(round=rnd, table=table)
        assert match.profile_id == event.profile_id
        match.referees.add(referee)
        rulings = walk(client, match, steps, _internal_words(match))
        assert rulings, steps
        recorded.add(steps[0].code)
    assert recorded == {s[0].code for s in plan}


@pytest.mark.django_db
def test_the_union_signal_is_fifty_points_twice_then_out(client, make_match, make_user):
    """003 二.13 传递违规信息: 罚50分 each time, 传递三次者将直接被罚出局 (issue 43, major 2): the console walks it three
    times; the first two carry no choice (the dialog offers none), the third offers the two outs."""
    match = make_match("union-games")
    referee = make_user("table_referee")
    match.referees.add(referee)
    client.force_login(referee)
    signal = offence_walks.Step("signal")
    first, second, third = walk(client, match, [signal] * 3, _internal_words(match))
    assert [r.sanction["points"] for r in (first, second)] == [50, 50] and first.choice == second.choice == ""
    assert third.choice == "match" and "match_forfeit" in third.sanction["kinds"] and third.sanction["automatic"]
    match.refresh_from_db()
    assert match.status == Match.Status.FORFEIT and match.winner_id == match.ew_id


@pytest.mark.django_db
def test_the_preview_asks_for_the_declarer_seat_as_the_record_does(client, make_match, make_user):
    """A sanction that needs the declarer's seat (union 一.19 wrong bury: levels by the defenders' score) at a
    table with no hand recorded: the preview refused it without the seat while the record did, so the console's
    确认 was enabled for a ruling the server then refused. Now the preview asks for the seat too."""
    match = make_match("union-games")
    referee = make_user("table_referee")
    match.referees.add(referee)
    client.force_login(referee)
    body = {"code": "wrong_bury", "side": "NS"}
    refused = _post(client, f"/api/matches/{match.pk}/rulings/preview/", body)
    assert refused.status_code == 400 and refused.json()["field"] == "declarer"
    assert refused.json()["detail"] == "本副尚无庄家记录，请填写本副庄家座位。"
    shown = _post(client, f"/api/matches/{match.pk}/rulings/preview/", {**body, "declarer": "N"}).json()
    recorded = _post(client, f"/api/matches/{match.pk}/rulings/", {**body, "declarer": "N"})
    assert recorded.status_code == 201 and Ruling.objects.get().sanction == shown["sanction"]
