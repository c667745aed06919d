"""Issue #43 major 3: a disqualified entry (取消比赛资格; union-games 003 二.4 "如发现作弊、偷牌等严重违规行为，则取消
作弊方比赛资格，对方获胜") keeps its results on record but takes no place and no award: the final ranking lists it
after the ranked entries without a number, the places below move up (no gap, no place shared with a pair that is
gone), and no reader (the ranking page, the award list, the certificates, standings.xlsx, the API, the unit
standings, the entry's page) gives it a place or an award. Lifting the disqualification gives the place back; a
suspension (停赛, 000 第十七条（八）) keeps the place. The documents do not say who takes a disqualified pair's
knock-out place: the places below move up (tests/RULES_COVERAGE.md)."""
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tests.tournament.test_printouts import pages_text
from tournament.competition import draws, placings, stages, swiss_rounds, unit_standings
from tournament.engines import brackets
from tournament.entries import pairs, removals
from tournament.models import Event, Match, Pair, Stage
from tournament.printouts import standings as standings_printout
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout


@pytest.fixture
def chief(make_user):
    return make_user("chief_referee")


def union_meet():
    """union-games: 16 pairs in four groups of four, the top two of each into a knock-out with joint thirds;
    played out: 1, 2, 3=, 3=, four 5=, the group thirds 9=, the group fourths 13=."""
    event = make_event(16, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    groups, knockout = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    draws.draw_bracket(knockout, seed="k")
    play_stage(groups)
    play_stage(knockout)
    return event


def shown(places):
    return [f"{p.place}{'=' if p.shared else ''}" for p in places]


def squeeze(pdf):
    return [t.replace("\n", "").replace(" ", "") for t in pages_text(pdf)]


def test_a_pair_disqualified_at_13_takes_no_place_and_no_award_anywhere(db, client, chief):
    event = union_meet()
    before = placings.event_ranking(event)
    assert shown(before.places) == ["1", "2", "3=", "3=", *["5="] * 4, *["9="] * 4, *["13="] * 4]
    cheat = Pair.objects.get(pk=before.places[-1].entry.pair_id)
    removals.remove_pair(cheat, chief, kind=Pair.Status.DISQUALIFIED, reason="作弊")

    ranked = placings.event_ranking(event)
    assert ranked.complete
    assert shown(ranked.places) == ["1", "2", "3=", "3=", *["5="] * 4, *["9="] * 4, *["13="] * 3]
    assert cheat.pk not in {p.entry.pair_id for p in ranked.places}
    assert [e.pair_id for e in ranked.disqualified] == [cheat.pk]
    awarded = {p.entry.pair_id for award in placings.award_list(event, ranked.pair) for p in award.places}
    assert cheat.pk not in awarded and len(awarded) == 15            # union-games: every other place an award

    page = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    ranking = page.split('<table class="grid ranking">')[1]
    awards = page.split('<ul class="awards cards">')[1].split("</ul></li></ul>")[0]
    assert cheat.name not in awards
    row = ranking.split(cheat.name)[0].rsplit("<tr", 1)[1]
    assert 'class="disqualified"' in row and "<td>—</td>" in row
    assert ranking.index(cheat.name) > max(ranking.index(p.entry.name) for p in ranked.places)
    after = ranking.split(cheat.name)[1].split("</tr>")[0]
    assert "取消资格" in after and "不计名次，不获奖" in after

    pages = squeeze(build_printout("awards", event, PrintOptions()))
    assert cheat.name not in pages[0] and len(pages) == 1 + 15      # the list, then one certificate per holder
    assert not any(cheat.name in p for p in pages[1:])
    assert sum("并列第13名" in p for p in pages[1:]) == 3

    book = load_workbook(io.BytesIO(client.get(reverse("competition_standings_xlsx", args=[event.slug])).content))
    rows = [[c.value for c in r] for r in book.worksheets[0].iter_rows()]
    assert rows[0] == ["名次", "并列", "参赛对", "单位", "决出方式", "取消资格"]
    assert rows[-1][:3] == [None, None, cheat.name] and rows[-1][5] == "是"
    assert [r[0] for r in rows[1:-1]] == [p.place for p in ranked.places] and rows[-2][:2] == [13, "是"]

    lines = standings_printout.collect(event, PrintOptions()).final
    assert [ln.place for ln in lines][-4:] == ["13=", "13=", "13=", "—"]
    assert lines[-1].name == f"{cheat.name}（取消资格）"

    data = APIClient().get(f"/api/events/{event.slug}/ranking/").json()
    assert cheat.pk not in {p["entry"]["pair_id"] for p in data["places"]}
    assert cheat.pk not in {p["entry"]["pair_id"] for a in data["awards"] for p in a["places"]}
    assert [e["pair_id"] for e in data["disqualified"]] == [cheat.pk]
    assert [p["place"] for p in data["places"]][-3:] == [13, 13, 13]

    entry = client.get(reverse("competition_entry", args=[event.slug, cheat.pk])).content.decode()
    assert 'id="disqualified"' in entry and "不计入最终名次" in entry

    other = placings.event_ranking(event).places[0].entry.pair_id
    client.force_login(chief)
    page = client.get(f"/manage/{event.slug}/entries/{other}/remove/").content.decode()
    assert "取消资格的参赛对不计名次、不获奖，其后的名次依次递补" in page   # the chief is told before deciding


def test_the_places_below_a_disqualified_pair_move_up_and_it_scores_nothing_for_its_unit(db, client, chief):
    """A pair at 3= disqualified: the other third stands alone at 3, the quarter-final losers are 4=, the
    group stage follows at 8= and 12= (no gap); its unit gets none of its points (the unit standings are the
    final places' points, tournament.engines.unit_standings rule 1: no place, no points)."""
    event = union_meet()
    third = placings.event_ranking(event).places[2]
    cheat = Pair.objects.get(pk=third.entry.pair_id)
    unit = cheat.unit.name
    before = next(line for line in unit_standings.event_unit_standings(event).lines if line.unit == unit)
    removals.remove_pair(cheat, chief, kind=Pair.Status.DISQUALIFIED)
    ranked = placings.event_ranking(event)
    assert shown(ranked.places) == ["1", "2", "3", *["4="] * 4, *["8="] * 4, *["12="] * 4]
    after = next(line for line in unit_standings.event_unit_standings(event).lines if line.unit == unit)
    assert cheat.name not in {p.name for p in after.pairs}
    assert cheat.name in {p.name for p in before.pairs} and after.score < before.score
    total = sum(line.score for line in unit_standings.event_unit_standings(event).lines)
    assert total == 9 + 7 + 6 + 5 + 4 + 3 + 2 + 1                  # the scale shared out by the 15 placed
    lines = APIClient().get(f"/api/events/{event.slug}/units/").json()["lines"]
    assert cheat.name not in {p["name"] for line in lines for p in line["pairs"]}
    assert next(line["score"] for line in lines if line["unit"] == unit) == after.score
    page = client.get(reverse("competition_units", args=[event.slug])).content.decode()
    assert unit in page and cheat.name not in page


def test_a_group_table_passes_over_the_disqualified_pair(db, chief):
    """A group's third disqualified: its group's fourth is the group's third for the final ranking (as the
    entries placed by the knock-out are passed over), so 9= keeps four entries and 13= three."""
    event = union_meet()
    ranked = placings.event_ranking(event)
    cheat = Pair.objects.get(pk=next(p for p in ranked.places if p.place == 9).entry.pair_id)
    removals.remove_pair(cheat, chief, kind=Pair.Status.DISQUALIFIED)
    after = placings.event_ranking(event)
    assert shown(after.places) == ["1", "2", "3=", "3=", *["5="] * 4, *["9="] * 4, *["13="] * 3]


def test_a_disqualification_in_the_knockout_the_opponent_goes_on_and_the_places_below_move_up(db, chief):
    """Disqualified after winning its quarter-final: its semi-final and its third-place match are walkovers
    (003 二.4 对方获胜); it would be 4th, takes no place, and the quarter-final losers are 4=."""
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": brackets.THIRD_PLACE_MATCH})
    draws.draw_bracket(stage, seed="t")
    for match in Match.objects.filter(round__stage=stage, round__number=1):
        finish(match, winner=min(match.ns_id, match.ew_id))
    winner = Match.objects.filter(round__stage=stage, round__number=1).order_by("table").first().winner
    removals.remove_pair(winner, chief, kind=Pair.Status.DISQUALIFIED)
    play_stage(stage)
    ranked = placings.event_ranking(event)
    assert ranked.complete and winner.pk not in {p.entry.pair_id for p in ranked.places}
    assert shown(ranked.places) == ["1", "2", "3", "4=", "4=", "4=", "4="]
    awards = {a.title: len(a.places) for a in placings.award_list(event, ranked.pair)}
    assert awards == {"冠军": 1, "亚军": 1, "季军": 1, "优胜奖": 4}


def test_a_swiss_table_passes_over_the_disqualified_pair(db, chief):
    """A Swiss stage's final standings: the pairs below the disqualified one rank one higher, and a place it
    shared is no longer shared unless two are left on it."""
    event = make_event(8, 4)
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    for number in (1, 2, 3):
        swiss_rounds.pair_next_round(stage, seed=f"s{number}")
        play_stage(stage)
    before = placings.event_ranking(event)
    assert before.complete and len(before.places) == 8
    cheat = before.places[1].entry
    removals.remove_pair(Pair.objects.get(pk=cheat.pair_id), chief, kind=Pair.Status.DISQUALIFIED)
    after = placings.event_ranking(event)
    rest = [p for p in before.places if p.entry.pair_id != cheat.pair_id]
    assert [p.entry.pair_id for p in after.places] == [p.entry.pair_id for p in rest]
    expected = [p.place - (p.place > before.places[1].place) for p in rest]
    assert [p.place for p in after.places] == expected
    for p in after.places:
        assert p.shared == (sum(q.place == p.place for q in after.places) > 1)
    assert [e.pair_id for e in after.disqualified] == [cheat.pair_id]


def test_lifting_the_disqualification_gives_the_place_back_and_a_suspension_keeps_it(db, chief):
    event = union_meet()
    before = placings.event_ranking(event)
    cheat = Pair.objects.get(pk=before.places[-1].entry.pair_id)
    removal = removals.remove_pair(cheat, chief, kind=Pair.Status.DISQUALIFIED)
    assert len(placings.event_ranking(event).places) == 15
    removals.restore_pair(removal, chief, reason="查无实据")
    again = placings.event_ranking(event)
    assert again.places == before.places and again.disqualified == ()
    removals.remove_pair(cheat, chief, kind=Pair.Status.SUSPENDED)
    suspended = placings.event_ranking(event)
    assert shown(suspended.places) == shown(before.places) and suspended.disqualified == ()
    assert cheat.pk in {p.entry.pair_id for a in placings.award_list(event) for p in a.places}


@pytest.mark.browser
def test_the_ranking_page_on_a_phone_lists_the_disqualified_pair_last(transactional_db, live_server, page,
                                                                       make_user):
    event = union_meet()
    cheat = Pair.objects.get(pk=placings.event_ranking(event).places[-1].entry.pair_id)
    removals.remove_pair(cheat, make_user("chief_referee"), kind=Pair.Status.DISQUALIFIED)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    last = page.locator("table.ranking tbody tr").last
    assert "disqualified" in last.get_attribute("class")
    assert last.locator("td").first.inner_text() == "—" and cheat.name in last.inner_text()
    assert "取消资格" in last.inner_text() and "不计名次，不获奖" in last.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    last.scroll_into_view_if_needed()
    page.screenshot(path="var/test/dq_ranking_phone.png")
    page.goto(f"{live_server.url}/events/{event.slug}/entry/{cheat.pk}/")
    assert "不计入最终名次" in page.locator("#disqualified").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="var/test/dq_entry_phone.png")


def test_a_pair_that_withdrew_keeps_its_place_and_every_table_says_it_withdrew(db, client):
    """A pair that withdrew after its group's matches keeps its results and place (only a disqualification takes
    the place), and the ranking page, the group table and the standings printout mark it 已退赛 (a new organiser
    saw it listed 9= beside a pair that played every match, with no word why)."""
    event = union_meet()
    last = placings.event_ranking(event).places[-1]
    gone = Pair.objects.get(pk=last.entry.pair_id)
    pairs.withdraw_pair(gone)
    ranked = placings.event_ranking(event)
    assert shown(ranked.places)[-1] == "13=" and ranked.places[-1].entry.pair_id == gone.pk
    for name in ("competition_standings", "competition_groups"):
        page = client.get(reverse(name, args=[event.slug])).content.decode()
        row = page.split('<table class="grid', 1)[1].split(gone.name, 1)[1].split("</tr>")[0]
        assert '<span class="tag off removed">已退赛</span>' in row, name
    lines = standings_printout.collect(event, PrintOptions()).final
    assert f"{gone.name}（已退赛）" in [ln.name for ln in lines]
