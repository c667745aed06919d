"""Issue 43: a round with a bye (any group of odd size: 15 pairs in 4 groups) answers on every page that reads
its tables: the chief's desk and its poll, the round's clock read, the hall display and the live levels.

The bye is a Match with no opponent and no table (``tournament.competition.stages.build_round_robin``); it
must neither break an order by table nor show as a table."""
import pytest
from django.urls import reverse

from scoring.services import record_hand
from tests.conftest import refused
from tests.tournament.test_draws_support import make_event
from tests.tournament.test_printouts import pages_text
from tournament import roles
from tournament.clocks import services as clock_services
from tournament.competition import draws, stages
from tournament.models import Match, Round, Stage
from tournament.printouts import results, scoresheets, seatcards, tablecards
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout
from tournament.records.adjustments import match_state


@pytest.fixture
def union_meet(db):
    """A 2026 union meet: 5 units, 15 pairs in 4 groups (three of 4, one of 3 with a bye each round)."""
    event = make_event(15, 5, profile="union-games")
    stages.create_stages_from_format(event)
    groups = event.stages.get(kind=Stage.Kind.ROUND_ROBIN)
    draws.draw_groups(groups, seed="联赛2026", n_groups=4)
    return event


def first_round(event):
    return Round.objects.select_related("stage__event__profile").get(stage__event=event,
                                                                     stage__kind=Stage.Kind.ROUND_ROBIN, number=1)


def next_hand(match, user, commit):
    """Record the next hand through the service, its commit's callbacks run (the display told)."""
    match.refresh_from_db()
    number = match_state(match).hand_count + 1
    with commit(execute=True):
        record_hand(match, user, number=number, trump="S", defender_points=60 + 5 * (number % 3),
                    declarer="N" if number == 1 else None)


def test_a_union_meet_with_byes_answers_every_read_while_hands_are_recorded(union_meet, client, make_user,
                                                                          django_capture_on_commit_callbacks):
    """Done when (issue 43): the desk, its poll, the clock read and the hall display answer every time."""
    event, rnd = union_meet, first_round(union_meet)
    chief = make_user(roles.CHIEF_REFEREE)
    byes = list(Match.objects.filter(round=rnd, status=Match.Status.BYE))
    assert byes and all(m.table is None for m in byes)        # the group of 3 has a bye in round 1
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        clock_services.start_clock(rnd, chief)
    client.force_login(chief)
    playing = list(Match.objects.filter(round=rnd, table__isnull=False).order_by("table"))
    assert len(playing) == 7
    reads = {
        "desk": reverse("desk", args=[event.slug, rnd.pk]),
        "desk state": reverse("desk-state", args=[event.slug, rnd.pk]),
        "clock": reverse("api-round-clock", args=[rnd.pk]),
        "hall": reverse("clock-display", args=[event.slug, rnd.pk]),
        "live": reverse("competition_live", args=[event.slug]) + f"?rounds={rnd.pk}",
        "chief clock": reverse("clock-chief", args=[event.slug, rnd.pk]),
    }
    for answer in reads.values():   # warm: the next reads after a hand rebuild only the tables that moved
        assert answer and client.get(answer).status_code == 200
    for _turn in range(2):
        for match in playing:
            next_hand(match, chief, commit)
            match.refresh_from_db()
            for name, url in reads.items():
                response = client.get(url)
                assert response.status_code == 200, (name, match.table, response.status_code)
            clock = client.get(reads["clock"]).json()
            shown = {row["match_id"]: (row["ns_level"], row["ew_level"]) for row in clock["tables"]}
            assert shown[match.pk] == (match.ns_level, match.ew_level)   # the levels shown are current
            desk = client.get(reads["desk state"]).json()
            assert {row["match_id"]: (row["ns_level"], row["ew_level"]) for row in desk["tables"]}[match.pk] \
                == (match.ns_level, match.ew_level)
            live = client.get(reads["live"]).json()["tables"][str(match.pk)]
            assert (live["ns_level"], live["ew_level"]) == (match.ns_level, match.ew_level)
            assert [row["table"] for row in clock["tables"]] == list(range(1, 8))   # no bye shown as a table
            assert clock["byes"] == [str(m.ns) for m in byes]                        # named as a bye
            assert [row["table"] for row in desk["tables"]] == list(range(1, 8))


def test_a_bye_gets_no_score_sheet_table_card_or_seat_cards(union_meet):
    """Issue 43 item 6: 8 score sheets for 7 tables, the eighth with empty 桌号 and 东西 (the result sheets too)."""
    rnd = first_round(union_meet)
    bye = Match.objects.get(round=rnd, status=Match.Status.BYE)
    options = PrintOptions(round=rnd.pk)
    sheets = scoresheets.collect(union_meet, options).sheets
    assert [sheet.table for sheet in sheets] == [str(n) for n in range(1, 8)]
    assert len(pages_text(build_printout("scoresheets", union_meet, options))) == 7
    assert [card.table for card in tablecards.collect(union_meet, options).cards] == [str(n) for n in range(1, 8)]
    assert len(seatcards.collect(union_meet, options).pages) == 7
    with refused("match") as caught:
        scoresheets.collect(union_meet, PrintOptions(match=bye.pk))
    assert "轮空" in str(caught.value)
    assert [sheet.table for sheet in results.collect(union_meet, options).sheets] == [str(n) for n in range(1, 8)]
    with refused("match") as caught:
        results.collect(union_meet, PrintOptions(match=bye.pk))
    assert "轮空" in str(caught.value)


@pytest.mark.parametrize("language, bye, not_drawn", [("zh-hans", "轮空", "桌号未定"), ("en", "Bye", "table not drawn yet")])
def test_a_byes_pair_reads_its_bye_once_and_no_table_on_its_page_and_the_schedule(union_meet, client, language, bye,
                                                                                   not_drawn):
    """A new organiser saw "桌号未定" and "轮空 · 轮空" for a group bye on the pair's page (a bye has no table to
    draw) and "轮空 · 轮空" on the schedule."""
    match = Match.objects.get(round=first_round(union_meet), status=Match.Status.BYE)
    pair = match.ns or match.ew
    client.cookies["django_language"] = language
    page = client.get(reverse("competition_entry", args=[union_meet.slug, pair.pk])).content.decode()
    section = page.split(f'data-live-match="{match.pk}"', 1)[1].split("</section>", 1)[0]
    assert not_drawn not in section and f"{bye} · {bye}" not in section and bye in section
    assert ("轮空，不设桌" if language == "zh-hans" else "a bye: no table") in section
    schedule = client.get(reverse("competition_schedule", args=[union_meet.slug])).content.decode()
    row = schedule.split(f'data-live-match="{match.pk}"', 1)[1].split("</li>", 1)[0]
    assert f"{bye} · {bye}" not in row and (language != "en" or "轮空" not in row)
