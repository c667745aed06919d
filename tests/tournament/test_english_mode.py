"""Issue 27 item 13: a page switched to English does not mix languages in one sentence. A generated round name
("第1轮") and the stored result notes (bye, walkover, both absent) read in the page's language; a name a person
typed stays as typed. The Chinese cases need the catalogue compiled (`make messages`)."""
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournament.test_draws_support import make_event
from tournament.competition import draws, progress, stages
from tournament.models import Match, Round, Stage

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@pytest.mark.django_db
def test_a_generated_round_name_follows_the_language_and_a_typed_one_stays():
    event = make_event(4, 2)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="en")
    first = stage.rounds.get(number=1)
    assert first.name == "第1轮"                       # stored as generated
    with translation.override("en"):
        assert first.label == str(first) == "Round 1"
    with translation.override("zh-hans"):
        assert first.label == "第1轮"
    typed = Round(stage=stage, number=9, name="决胜轮")
    with translation.override("en"):
        assert typed.label == "决胜轮"


def test_stored_notes_read_in_the_page_language():
    with translation.override("en"):
        assert progress.note_words(progress.WALKOVER_NOTE) == "Opponent withdrew: a walkover"
        assert progress.note_words(progress.BYE_NOTE) == "Bye: goes through"
        assert progress.note_words("裁判长判定") == "裁判长判定"   # a person's words stay as written
    with translation.override("zh-hans"):   # needs `make messages`
        assert progress.note_words(progress.WALKOVER_NOTE) == progress.WALKOVER_NOTE


@pytest.mark.django_db
def test_the_english_schedule_names_rounds_and_walkovers_in_english(client):
    event = make_event(4, 2)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="en")
    match = Match.objects.filter(round__stage=stage, round__number=1).first()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.WALKOVER, winner=match.ns,
                                             result_note=progress.WALKOVER_NOTE)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("competition_schedule", args=[event.slug])).content.decode()
    assert "Round 1" in html and "第1轮" not in html
    assert "Opponent withdrew: a walkover" in html and progress.WALKOVER_NOTE not in html
    state = re.search(r'<span class="state">(.*?)<span class="hands-note"', html, re.S)
    assert state and not CJK.search(state.group(1)), state


@pytest.mark.django_db
@pytest.mark.parametrize("groups, label", [(1, "循环赛"), (2, "A组")])
def test_a_match_card_heads_a_lone_group_by_its_stage(client, groups, label):
    """Issue 27 item 15: a single round robin's match cards say its stage, not "A小组" (as its standings)."""
    event = make_event(8, 2)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, name="循环赛", settings={"n_groups": groups})
    draws.draw_groups(stage, seed="lone")
    html = client.get(reverse("competition_schedule", args=[event.slug])).content.decode()
    cards = re.findall(r'<span class="table-no">(.*?)</span>', html)
    assert cards and any(c.endswith(f" · {label}") for c in cards), cards[:3]
    assert all(c.endswith(" · 循环赛") for c in cards) == (groups == 1), cards[:3]
    assert "A小组" not in html
