"""Issue #12 item 4: once a round is closed its results are published, and the public pages (schedule, group
tables, bracket, final ranking) and the printouts of that round say so ("成绩已公布 <time>"); before the
closing, and after a reopening, they do not."""
import datetime as dt

from django.urls import reverse
from django.utils import timezone, translation

from tests.tournament.test_competition_pages import drawn  # noqa: F401
from tests.tournament.test_draws_support import finish, make_event
from tournament.competition import rounds, swiss_rounds
from tournament.models import Match, Round
from tournament.printouts import results as results_printout
from tournament.printouts import schedule as schedule_printout
from tournament.printouts import standings as standings_printout
from tournament.printouts.common import PrintOptions

CLOSED_AT = dt.datetime(2026, 12, 5, 10, 32, tzinfo=dt.timezone.utc)
SHOWN = timezone.localtime(CLOSED_AT).strftime("%Y-%m-%d %H:%M")


def _pages(client, event):
    return {name: client.get(reverse(name, args=[event.slug])).content.decode()
            for name in ("competition_schedule", "competition_groups", "competition_bracket", "competition_standings")}


def _close(rnd, user, frozen_now):
    frozen_now.advance(seconds=(CLOSED_AT - frozen_now.at).total_seconds())
    return rounds.close_round(rnd, user)


def test_the_public_pages_say_published_only_after_the_closing(client, drawn, make_user, frozen_now):  # noqa: F811
    event, groups, ko = drawn
    chief = make_user("chief_referee")
    before = _pages(client, event)
    assert not any("成绩已公布" in html for html in before.values())
    group_rounds = list(Round.objects.filter(stage=groups))
    ko_first = Round.objects.get(stage=ko, number=1)
    for rnd in group_rounds:
        _close(rnd, chief, frozen_now)
    _close(ko_first, chief, frozen_now)
    after = _pages(client, event)
    line = f"成绩已公布 {SHOWN}"
    assert after["competition_schedule"].count(line) == len(group_rounds) + 1   # the closed rounds only
    assert line in after["competition_groups"]
    assert line in after["competition_bracket"]
    assert line in after["competition_standings"] and groups.name in after["competition_standings"]
    rounds.reopen_round(ko_first, chief, "记录有误")
    assert line not in _pages(client, event)["competition_bracket"]


def test_the_round_printouts_say_published(drawn, make_user, frozen_now):  # noqa: F811
    event, groups, ko = drawn
    chief = make_user("chief_referee")
    ko_first = Round.objects.get(stage=ko, number=1)
    with translation.override("zh-hans"):
        options = PrintOptions(round=ko_first.pk)
        assert "成绩已公布" not in results_printout.collect(event, options).heading.detail
        _close(ko_first, chief, frozen_now)
        ko_first.refresh_from_db()
        assert results_printout.collect(event, options).heading.detail.endswith(f"成绩已公布 {SHOWN}")
        schedule = schedule_printout.collect(event, PrintOptions())
        titles = [r.title for r in schedule.rounds]
        assert sum("成绩已公布" in t for t in titles) == 1
        group_rounds = list(Round.objects.filter(stage=groups).order_by("number"))
        for rnd in group_rounds[:-1]:
            _close(rnd, chief, frozen_now)
        standings = standings_printout.collect(event, PrintOptions())
        assert not any("成绩已公布" in heading.detail for heading, *_rest in standings.stages)   # one still open
        _close(group_rounds[-1], chief, frozen_now)
        standings = standings_printout.collect(event, PrintOptions())
        assert any(f"成绩已公布 {SHOWN}" in heading.detail for heading, *_rest in standings.stages)


def test_the_swiss_page_says_which_round_is_published(client, make_user, frozen_now, db):
    event = make_event(6, 3)
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed="a")
    for m in Match.objects.filter(round__stage=stage, status="scheduled"):
        finish(m)
    url = reverse("competition_swiss", args=[event.slug])
    assert "成绩已公布" not in client.get(url, {"round": 1}).content.decode()
    _close(Round.objects.get(stage=stage, number=1), make_user("chief_referee"), frozen_now)
    assert f"成绩已公布 {SHOWN}" in client.get(url, {"round": 1}).content.decode()
