"""Standings, awards and group tables say 暂定 (provisional) on the web until the stage or event is complete."""
from django.urls import reverse

from tests.tournament.test_competition_pages import drawn  # noqa: F401
from tests.tournament.test_draws_support import make_event, play_stage
from tournament.competition import draws, stages


def test_the_standings_say_provisional_until_the_event_is_complete(client, drawn):  # noqa: F811
    event, groups, ko = drawn
    html = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    assert f"暂定：{ko.name}尚未结束。" in html and 'class="provisional">暂定<' in html  # names the stage (issue 27)
    play_stage(ko)
    html = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    assert "暂定" not in html


def test_group_tables_say_provisional_until_played(client, db):
    event = make_event(4, 4, fmt="round_robin")
    stage = stages.create_stage(event, "round_robin", settings={"n_groups": 1})
    draws.draw_groups(stage, seed="s")
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert 'class="provisional">暂定<' in html
    play_stage(stage)
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert 'class="provisional"' not in html
