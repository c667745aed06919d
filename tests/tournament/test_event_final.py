"""Issue 27 item 1: the event is final once every stage that has matches is finished: a stage with no draw
and no matches (a leftover knock-out) does not keep it provisional, and while it is provisional the page and
the awards printout say which stage keeps it open."""
from django.urls import reverse

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tests.tournament.test_printouts import pages_text
from tournament.competition import draws, placings, stages
from tournament.models import Event, Match, Stage
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout


def union_meet():
    """16 pairs of 4 units: groups, then a knock-out with joint thirds, and a leftover knock-out for 3rd–4th
    that was never drawn (the organiser's workaround before a third-place match could be chosen)."""
    event = make_event(16, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    groups, knockout = stages.create_stages_from_format(event)
    extra = stages.create_stage(event, Stage.Kind.ELIMINATION, name="三四名决赛")
    draws.draw_groups(groups, seed="g")
    draws.draw_bracket(knockout, seed="k")
    return event, groups, knockout, extra


def text(pdf):
    return [t.replace("\n", "").replace(" ", "") for t in pages_text(pdf)]


def test_a_stage_never_drawn_does_not_keep_the_event_provisional(db, client):
    event, groups, knockout, extra = union_meet()
    play_stage(groups)
    play_stage(knockout)
    assert placings.final_ranking(event)[1]  # every match closed: final, the leftover stage notwithstanding
    ranked = placings.event_ranking(event)
    assert ranked.complete and ranked.left_out == ("三四名决赛",) and ranked.provisional_note == ""
    assert [p.place for p in ranked.places][:8] == [1, 2, 3, 3, 5, 5, 5, 5] and len(ranked.places) == 16
    page = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    assert "暂定" not in page and "未抽签，不计入名次：三四名决赛" in page
    pages = text(build_printout("awards", event, PrintOptions()))
    assert "暂定" not in pages[0] and len(pages) > 1 and all("荣誉证书" in p for p in pages[1:])


def test_while_provisional_the_page_and_the_printout_name_the_stage_still_played(db, client):
    event, groups, knockout, extra = union_meet()
    play_stage(groups)
    finish(Match.objects.filter(round__stage=knockout, status="scheduled").first())
    ranked = placings.event_ranking(event)
    assert not ranked.complete and ranked.open_stages == (knockout.name,)
    assert ranked.provisional_note == f"暂定：{knockout.name}尚未结束。"
    page = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    assert f"暂定：{knockout.name}尚未结束。" in page
    pages = text(build_printout("awards", event, PrintOptions()))
    assert len(pages) == 1 and f"暂定：{knockout.name}尚未结束。" in pages[0]


def test_unfinished_groups_and_the_knockout_waiting_on_them_are_both_named(db):
    event, groups, knockout, extra = union_meet()
    finish(Match.objects.filter(round__stage=groups, status="scheduled").first())
    ranked = placings.event_ranking(event)
    assert not ranked.complete and ranked.open_stages == (groups.name, knockout.name)


def test_an_event_with_nothing_drawn_is_not_final(db):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    stages.create_stages_from_format(event)
    ranked = placings.event_ranking(event)
    assert not ranked.complete and ranked.places == [] and len(ranked.left_out) == 2
