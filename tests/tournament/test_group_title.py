"""Issue 27 item 15: a single round robin (a company league of 10 pairs) was headed "A小组" on the page and in
the PDF. A stage's only group's table is headed by the stage's name; groups of a stage with several are "A组",
"B组"."""
import pytest

from tests.tournament.test_draws_support import make_event
from tournament.competition import draws, group_standings, stages
from tournament.models import Event, Stage

pytestmark = pytest.mark.django_db


def test_a_single_round_robin_is_headed_by_its_stage_and_groups_by_their_letter(client):
    event = make_event(6, 3, profile="company-league-2008", fmt=Event.Format.ROUND_ROBIN, slug="league")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, name="循环赛")
    draws.draw_groups(stage, seed="7", n_groups=1)
    (table,) = group_standings.stage_standings(stage).groups
    assert table.title == "循环赛"
    html = client.get(f"/events/{event.slug}/groups/").content.decode()
    assert "<h3>循环赛 " in html and "<h3>A" not in html
    two = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, name="第二阶段")
    draws.draw_groups(two, seed="8", n_groups=2, entries=list(event.pairs.values_list("pk", flat=True)))
    assert [t.title for t in group_standings.stage_standings(two).groups] == ["A组", "B组"]
