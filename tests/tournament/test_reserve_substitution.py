"""A union team brings in its reserve pair after the draw (issue #13; 003 二.2 "每队可报参赛运动员正选3对6名 …
候补1对2名"): an organiser or a chief referee swaps it in for a playing pair (who, when, append-only); the
bracket, group rows and schedule honour it for matches not yet begun; matches already begun keep their pair."""
import pytest
from django.db.models import Q
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import ConflictError, ForbiddenError, UserError
from tests.conftest import login
from tests.tournament.test_draws_support import finish, make_event
from tournament.competition import draws, group_standings, stages
from tournament.entries import cleanup, pairs, substitutions
from tournament.models import Event, Match, Pair, PairSubstitution, Player, Team


def _teams(event):
    """Each unit's pairs form its team; each team gets a reserve pair."""
    reserves = {}
    for unit in event.units.all():
        team = Team.objects.create(event=event, unit=unit, name=f"{unit.name}队")
        Pair.objects.filter(unit=unit).update(team=team)
        p1 = Player.objects.create(event=event, unit=unit, name=f"{unit.name}候补甲", gender="M")
        p2 = Player.objects.create(event=event, unit=unit, name=f"{unit.name}候补乙", gender="F")
        reserves[team.pk] = Pair.objects.create(event=event, unit=unit, team=team, player1=p1, player2=p2,
                                                name=f"{unit.name}候补", reserve=True)
    return reserves


@pytest.fixture
def knockout(db, make_user):
    """union-games: 8 pairs of 4 units, a single-elimination bracket drawn; the reserves never drawn."""
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    reserves = _teams(event)
    stage = stages.create_stage(event, "elimination")
    draws.draw_bracket(stage, seed="候补")
    users = {"organiser": make_user("organiser"), "chief": make_user("chief_referee"),
             "referee": make_user("table_referee")}
    return event, stage, reserves, users


def _first(stage, number=1):
    return list(Match.objects.filter(round__stage=stage, round__number=number).order_by("table", "pk"))


def test_the_reserve_takes_the_place_in_matches_not_begun(knockout):
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    out = match.ns
    reserve = reserves[out.team_id]
    assert not Match.objects.filter(ns=reserve).exists() and not Match.objects.filter(ew=reserve).exists()
    row = substitutions.substitute_reserve(out, reserve, users["organiser"], reason="伤病")
    match.refresh_from_db()
    assert match.ns_id == reserve.pk                                   # the bracket honours the swap
    assert (row.decided_by, row.reason, row.pair_out_id) == (users["organiser"], "伤病", out.pk)
    out.refresh_from_db()
    reserve.refresh_from_db()
    assert out.reserve and not reserve.reserve                          # the pair that went out is the reserve now
    html = APIClient().get(reverse("competition_bracket", args=[event.slug])).content.decode()
    assert reserve.name in html
    finish(match, winner=reserve.pk)                                    # the reserve wins and goes on
    following = Match.objects.filter(round__stage=stage, round__number=2).filter(ns=reserve) | \
        Match.objects.filter(round__stage=stage, round__number=2).filter(ew=reserve)
    assert following.count() == 1


def test_a_match_already_begun_keeps_its_pair_and_the_next_one_gets_the_reserve(knockout):
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    out = match.ns
    finish(match, winner=out.pk)                                        # played by the drawn pair
    reserve = reserves[out.team_id]
    substitutions.substitute_reserve(out, reserve, users["chief"])
    match.refresh_from_db()
    assert (match.ns_id, match.winner_id) == (out.pk, out.pk)          # history kept
    second = Match.objects.filter(round__stage=stage, round__number=2)
    nxt = (second.filter(ns=reserve) | second.filter(ew=reserve)).get()   # the place the drawn pair won
    assert not (second.filter(ns=out) | second.filter(ew=out)).exists()
    # a correction of the first match's result elsewhere in the stage still resolves the place
    other = _first(stage)[1]
    finish(other, winner=other.ew_id)
    nxt.refresh_from_db()
    assert reserve.pk in (nxt.ns_id, nxt.ew_id)


def test_the_pair_can_come_back(knockout):
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    out = match.ns
    reserve = reserves[out.team_id]
    substitutions.substitute_reserve(out, reserve, users["organiser"])
    substitutions.substitute_reserve(reserve, Pair.objects.get(pk=out.pk), users["organiser"])
    match.refresh_from_db()
    assert match.ns_id == out.pk and PairSubstitution.objects.count() == 2


def test_refusals(knockout):
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    out, other = match.ns, match.ew
    with pytest.raises(ForbiddenError):
        substitutions.substitute_reserve(out, reserves[out.team_id], users["referee"])
    with pytest.raises(UserError) as wrong_team:
        substitutions.substitute_reserve(out, reserves[other.team_id] if other.team_id != out.team_id
                                         else next(r for t, r in reserves.items() if t != out.team_id),
                                         users["organiser"])
    assert wrong_team.value.field == "pair_in"
    with pytest.raises(UserError) as not_reserve:
        substitutions.substitute_reserve(out, other, users["organiser"])
    assert not_reserve.value.field == "pair_in"
    reserve = reserves[out.team_id]
    Pair.objects.filter(pk=reserve.pk).update(status=Pair.Status.WITHDRAWN)
    with pytest.raises(ConflictError):
        substitutions.substitute_reserve(out, reserve, users["organiser"])
    assert not PairSubstitution.objects.exists()


def test_group_rows_not_begun_take_the_reserve(db, make_user):
    event = make_event(4, 2, profile="union-games", fmt=Event.Format.ROUND_ROBIN)
    reserves = _teams(event)
    stage = stages.create_stage(event, "round_robin", settings={"n_groups": 1})
    draws.draw_groups(stage, seed="s")
    out = Pair.objects.filter(event=event, reserve=False).order_by("pk").first()
    theirs = list(Match.objects.filter(round__stage=stage).filter(ns=out) | Match.objects.filter(round__stage=stage,
                                                                                                 ew=out))
    played = theirs[0]
    finish(played)
    substitutions.substitute_reserve(out, reserves[out.team_id], make_user("organiser"))
    played.refresh_from_db()
    assert out.pk in (played.ns_id, played.ew_id)
    for match in theirs[1:]:
        match.refresh_from_db()
        assert reserves[out.team_id].pk in (match.ns_id, match.ew_id)


def test_a_group_bye_to_come_names_the_reserve(db, make_user):
    """Five pairs in one group: each round one has a bye (no winner, no table). The bye still to come of the
    pair the reserve replaced is the reserve's (it names the slot's holder). The simulator (seed 319) found
    the pair that went out still holding its bye while it played elsewhere in that round."""
    event = make_event(5, 2, profile="union-games", fmt=Event.Format.ROUND_ROBIN)
    reserves = _teams(event)
    stage = stages.create_stage(event, "round_robin", settings={"n_groups": 1})
    draws.draw_groups(stage, seed="s")
    bye = Match.objects.filter(round__stage=stage, status=Match.Status.BYE).order_by("round__number").last()
    out = Pair.objects.get(pk=bye.ns_id)
    substitutions.substitute_reserve(out, reserves[out.team_id], make_user("organiser"))
    bye.refresh_from_db()
    assert bye.ns_id == reserves[out.team_id].pk and bye.table is None and bye.winner_id is None


def test_the_organiser_page_and_the_api(knockout, client):
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    out = match.ew
    reserve = reserves[out.team_id]
    client.force_login(users["referee"])
    url = reverse("entries_substitute", args=[event.slug, out.pk])
    assert client.get(url).status_code == 403
    client.force_login(users["organiser"])
    listing = client.get(reverse("entries_list", args=[event.slug])).content.decode()
    assert url in listing and "启用候补对" in listing
    page = client.get(url).content.decode()
    assert reserve.name in page and 'name="pair_in"' in page
    answer = client.post(url, {"pair_in": reserve.pk, "reason": "身体不适"})
    assert answer.status_code == 302
    page = client.get(answer.url).content.decode()
    assert f"{out.name} → {reserve.name}" in page and "身体不适" in page
    match.refresh_from_db()
    assert match.ew_id == reserve.pk
    api = APIClient()
    api.force_authenticate(users["chief"])
    back = api.post(f"/api/pairs/{reserve.pk}/substitution/", {"pair_in": out.pk}, format="json")
    assert back.status_code == 201 and back.json()["pair_in"] == out.pk
    wrong = api.post(f"/api/pairs/{out.pk}/substitution/", {"pair_in": match.ns_id}, format="json",
                     HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert wrong.status_code == 400 and wrong.json()["field"] == "pair_in"
    api.force_authenticate(users["referee"])
    assert api.post(f"/api/pairs/{out.pk}/substitution/", {"pair_in": reserve.pk}, format="json").status_code == 403


@pytest.mark.browser
def test_the_substitution_page_on_a_phone(transactional_db, live_server, page, make_user):
    """The organiser brings a reserve in from a 390-px phone; the page fits and has a way back."""
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    reserves = _teams(event)
    stage = stages.create_stage(event, "elimination")
    draws.draw_bracket(stage, seed="候补")
    organiser = make_user("organiser")
    match = _first(stage)[0]
    out, reserve = match.ns, reserves[match.ns.team_id]
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser)
    page.goto(f"{live_server.url}/manage/{event.slug}/entries/{out.pk}/substitute/")
    page.select_option("select[name=pair_in]", str(reserve.pk))
    page.fill("input[name=reason]", "伤病")
    page.screenshot(path="/tmp/desk-shots/substitute-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#substitute-form button[type=submit]")
    page.wait_for_selector("ul.substitutions li")
    assert f"{out.name} → {reserve.name}" in page.inner_text("ul.substitutions")
    assert page.locator("a:has-text('← 报名')").count() == 1                 # a way back
    match.refresh_from_db()
    assert match.ns_id == reserve.pk


def test_group_standings_count_the_place_after_a_substitution(db, make_user):
    """A group entry's results stay together: the reserve's matches count for the drawn place."""
    event = make_event(4, 2, profile="union-games", fmt=Event.Format.ROUND_ROBIN)
    reserves = _teams(event)
    stage = stages.create_stage(event, "round_robin", settings={"n_groups": 1})
    draws.draw_groups(stage, seed="s")
    out = Pair.objects.filter(event=event, reserve=False).order_by("pk").first()
    reserve = reserves[out.team_id]
    substitutions.substitute_reserve(out, reserve, make_user("organiser"))
    for match in Match.objects.filter(round__stage=stage):
        finish(match, winner=reserve.pk if reserve.pk in (match.ns_id, match.ew_id) else "ns")
    table = group_standings.event_standings(event)[0].groups[0]
    row = next(r for r in table.rows if r.entry.pair_id == out.pk)
    assert (row.played, row.wins) == (3, 3) and table.complete
    assert row.entry.name == f"{out.name} → {reserve.name}"                # the place shows who holds it now


def test_the_pages_refuse_a_bad_field_next_to_it_and_save_nothing(knockout, client):
    """The substitution and removal pages validate through Forms (issue 33): a reserve that is no pair of the
    event, a reason past its limit (a lifted removal's was cut short before), a removal of no kind."""
    event, stage, reserves, users = knockout
    out = _first(stage)[0].ew
    client.force_login(users["organiser"])
    url = reverse("entries_substitute", args=[event.slug, out.pk])
    page = client.post(url, {"pair_in": "x"}).content.decode()
    assert 'id="error-pair_in">请选择该队的候补对。' in page
    page = client.post(url, {"pair_in": reserves[out.team_id].pk, "reason": "长" * 501}).content.decode()
    assert 'id="error-reason">' in page and "500" in page
    assert Match.objects.filter(round__stage=stage, ew=out).exists()           # nobody came in
    client.force_login(users["chief"])
    remove = f"/manage/{event.slug}/entries/{out.pk}/remove/"
    assert 'id="error-kind">请选择停赛或取消资格。' in client.post(remove, {"reason": "x"}).content.decode()
    assert client.post(remove, {"kind": "suspended", "reason": "迟到"}).status_code == 302
    page = client.post(remove, {"action": "lift", "reason": "长" * 501}).content.decode()
    assert 'id="error-reason">' in page
    out.refresh_from_db()
    assert out.status == "suspended"                                            # still out: nothing lifted


def test_a_pair_brought_back_for_another_pair_keeps_its_group_results_in_its_own_slot(db, make_user):
    """A pair that played in its group, went out for the reserve and came back in the knock-out for its team's
    other pair: its group result counts for its own group slot (with the reserve's), never for the slot it
    holds in the bracket (the group standings read once raised: a result of a pair not in the group)."""
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    reserves = _teams(event)
    groups, bracket = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="back")
    organiser = make_user("organiser")
    first = Match.objects.filter(round__stage=groups, ew__isnull=False).order_by("round__number", "table").first()
    back = first.ns
    finish(first, winner="ns")
    reserve = reserves[back.team_id]
    substitutions.substitute_reserve(back, reserve, organiser)
    for match in Match.objects.filter(round__stage=groups, status="scheduled"):
        finish(match, winner=reserve.pk if reserve.pk in (match.ns_id, match.ew_id) else "ns")
    draws.draw_bracket(bracket, seed="back")
    other = Pair.objects.filter(team_id=back.team_id, reserve=False).exclude(pk=back.pk).order_by("pk").first()
    substitutions.substitute_reserve(other, Pair.objects.get(pk=back.pk), organiser)
    tables = [t for s in group_standings.event_standings(event) for t in s.groups]
    row = next(r for t in tables for r in t.rows if r.entry.pair_id == back.pk)
    assert row.played == 3 and row.wins == 3                          # its own win and the reserve's two
    assert all(t.complete for t in tables)
    assert group_standings.check_event(event) == []                   # the kept rows agree with a ranking anew


def test_the_entries_list_offers_a_reserve_only_to_a_team_that_has_one_and_deletes_only_the_unplayed(
        knockout, client):
    """The organiser's list (a new organiser saw "启用候补对" on every pair of teams without reserves, and "删除"
    on a pair that withdrew after playing, which the service then refused)."""
    event, stage, reserves, users = knockout
    teamless = reserves.popitem()[1]
    pairs.withdraw_pair(teamless)                               # one team has no reserve now; never played
    out = _first(stage)[0].ns
    pairs.withdraw_pair(out)                                    # drawn: it stays in the record
    client.force_login(users["organiser"])
    page = client.get(reverse("entries_list", args=[event.slug])).content.decode()

    def card(pair):
        return page.split(f"<strong>{pair.name}</strong>", 1)[1].split("</li>", 1)[0]

    substitute = "entries/{}/substitute/"
    for pair in Pair.objects.filter(event=event, reserve=False, status=Pair.Status.ACTIVE):
        assert (substitute.format(pair.pk) in card(pair)) == (pair.team_id != teamless.team_id), pair.name
    assert f"entries/{teamless.pk}/delete/" in card(teamless)
    assert f"entries/{out.pk}/delete/" not in card(out)


def test_a_pair_that_went_out_for_the_reserve_stays_in_the_record(knockout, client):
    """The pair that went out takes no match any more, but its substitution names it (the row protects it): the
    list offers no delete and the service refuses one (a ProtectedError, a 500, before)."""
    event, stage, reserves, users = knockout
    out = _first(stage)[0].ns
    substitutions.substitute_reserve(out, reserves[out.team_id], users["organiser"], reason="伤病")
    assert not Match.objects.filter(Q(ns=out) | Q(ew=out)).exists()
    pairs.withdraw_pair(Pair.objects.get(pk=out.pk))
    client.force_login(users["organiser"])
    page = client.get(reverse("entries_list", args=[event.slug])).content.decode()
    assert f"entries/{out.pk}/delete/" not in page
    with pytest.raises(ConflictError):
        cleanup.delete_withdrawn_pair(event, out)
    assert Pair.objects.filter(pk=out.pk).exists()
