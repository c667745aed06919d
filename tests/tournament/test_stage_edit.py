"""Issue 27 item 1: a stage is edited or deleted until its draw; after the draw only once the draw is voided
(append-only: the void is a new draw row superseding the one in force); "按赛制创建比赛阶段" asks which places the
knock-out plays off."""
import pytest
from django.urls import reverse

from tests.conftest import refused
from tests.tournament.test_draws_support import finish, make_event, play_stage
from tests.tournament.test_printouts import pages_text
from tournament import roles
from tournament.competition import draws, placings, stages, swiss_rounds
from tournament.competition.knockout import active_draw
from tournament.engines import brackets
from tournament.models import Draw, Event, Match, Stage
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout
from tournament.transfer import codec
from tournament.transfer.services import export_event, import_event


def union(n=8, **kw):
    return make_event(n, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION, **kw)


# --------------------------------------------------------------------------- the places to play off
@pytest.mark.parametrize("places", [brackets.JOINT_THIRD, brackets.THIRD_PLACE_MATCH,
                                    brackets.PLACE_QUARTER_FINALISTS])
def test_stages_from_the_format_take_the_places_the_organiser_chose(db, places):
    event = union()
    groups, knockout = stages.create_stages_from_format(event, places_played=places)
    assert knockout.settings["places_played"] == places and stages.places_played(knockout) == places
    assert "places_played" not in groups.settings


def test_stages_from_the_format_refuse_places_the_bracket_cannot_play(db):
    with refused("places_played"):
        stages.create_stages_from_format(union(), places_played=3)


def test_the_stages_page_asks_for_the_places_with_the_profile_default_chosen(client, db, make_user):
    event = union()
    client.force_login(make_user(roles.ORGANISER))
    url = reverse("competition_manage_stages", args=[event.slug])
    page = client.get(url).content.decode()
    assert 'name="places_played" value="4"' in page and "三四名决赛（八强负者并列第5名）" in page
    assert 'value="2" required checked' in page  # union-games: 季军两名（不决三四名）
    client.post(url, {"action": "from_format", "places_played": "4"})
    knockout = event.stages.get(kind=Stage.Kind.ELIMINATION)
    assert stages.places_played(knockout) == brackets.THIRD_PLACE_MATCH
    draws.draw_groups(event.stages.get(kind=Stage.Kind.ROUND_ROBIN), seed="g")
    draws.draw_bracket(knockout, seed="k")
    assert Match.objects.filter(round__stage=knockout, bracket_key="P3-R1-M1").exists()  # the third-place match


# --------------------------------------------------------------------------- editing before the draw
def test_an_undrawn_stage_is_edited(db):
    event = union()
    groups, knockout = stages.create_stages_from_format(event)
    stages.update_stage(knockout, name="  决赛  阶段 ", settings={"places_played": 8, "qualifiers_per_group": 2})
    knockout.refresh_from_db()
    assert knockout.name == "决赛 阶段" and stages.places_played(knockout) == 8
    stages.update_stage(knockout, source=None)
    knockout.refresh_from_db()
    assert knockout.source is None
    with refused("places_played"):
        stages.update_stage(knockout, settings={"places_played": 6})
    with refused("source"):
        stages.update_stage(groups, source=knockout)
    with refused("name"):
        stages.update_stage(knockout, name="   ")


def test_a_drawn_stage_is_not_edited_or_deleted_until_its_draw_is_voided(db):
    event = union()
    groups, knockout = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    with refused("stage") as caught:
        stages.update_stage(groups, settings={"n_groups": 1})
    assert "请先作废抽签" in str(caught.value)
    with refused("stage"):
        stages.delete_stage(groups)


# --------------------------------------------------------------------------- deleting
def test_an_undrawn_stage_is_deleted_and_leaves_the_public_bracket(client, db):
    event = union()
    groups, knockout = stages.create_stages_from_format(event, places_played=2)
    extra = stages.create_stage(event, Stage.Kind.ELIMINATION, name="三四名附加赛")
    bracket = reverse("competition_bracket", args=[event.slug])
    assert "三四名附加赛" in client.get(bracket).content.decode()
    assert stages.delete_stage(extra) is True
    assert not Stage.all_stages.filter(pk=extra.pk).exists()
    assert "三四名附加赛" not in client.get(bracket).content.decode()


def test_a_stage_feeding_another_is_not_deleted(db):
    groups, knockout = stages.create_stages_from_format(union())
    with refused("stage") as caught:
        stages.delete_stage(groups)
    assert knockout.name in str(caught.value)


# --------------------------------------------------------------------------- voiding a draw
def test_voiding_a_draw_is_append_only_and_frees_the_stage(db, make_user):
    event = union()
    organiser = make_user(roles.ORGANISER)
    groups, knockout = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    draws.draw_bracket(knockout, seed="k")
    draws.draw_tables(knockout, seed="t")
    old = list(Draw.objects.filter(stage=knockout).order_by("pk").values_list("pk", "seed", "params", "result"))
    with refused("reason"):
        draws.void_draws(knockout, reason="  ")
    voids = draws.void_draws(knockout, reason="改为三四名决赛", user=organiser)
    assert voids and all(v.is_void and v.params["reason"] == "改为三四名决赛" and v.created_by == organiser
                         for v in voids)
    assert [v.supersedes_id for v in voids] == [pk for pk, *_rest in old]
    assert list(Draw.objects.filter(pk__in=[pk for pk, *_r in old]).order_by("pk")
                .values_list("pk", "seed", "params", "result")) == old  # the voided draws stay as they were
    assert active_draw(knockout, Draw.Kind.BRACKET) is None and not stages.is_drawn(knockout)
    assert not Match.objects.filter(round__stage=knockout).exists()
    sheet = "".join(pages_text(build_printout("draw", event, PrintOptions()))).replace("\n", "").replace(" ", "")
    assert f"已被抽签#{voids[0].pk}作废" in sheet and f"抽签#{old[0][0]}已作废：改为三四名决赛" in sheet
    stages.update_stage(knockout, settings={"places_played": 4, "qualifiers_per_group": 2})
    redo = draws.draw_bracket(knockout, seed="k2")
    assert redo.supersedes.is_void and active_draw(knockout, Draw.Kind.BRACKET) == redo
    assert Match.objects.filter(round__stage=knockout, bracket_key="P3-R1-M1").exists()


def test_a_voided_stage_is_deleted_but_keeps_its_row_for_its_draws(client, db, make_user):
    event = union()
    organiser = make_user(roles.ORGANISER)
    groups, knockout = stages.create_stages_from_format(event)
    extra = stages.create_stage(event, Stage.Kind.ELIMINATION, name="附加淘汰赛", settings={"places_played": 4})
    draws.draw_bracket(extra, seed="x", entries=list(event.pairs.values_list("pk", flat=True))[:4])
    draws.void_draws(extra, reason="多建了一个阶段", user=organiser)
    assert stages.delete_stage(extra, user=organiser) is False
    row = Stage.all_stages.get(pk=extra.pk)
    assert row.removed_at is not None and row.removed_by == organiser
    assert not event.stages.filter(pk=extra.pk).exists()
    assert Draw.objects.filter(stage_id=extra.pk).count() == 2  # the draw and its void, for good
    assert "附加淘汰赛" not in client.get(reverse("competition_bracket", args=[event.slug])).content.decode()
    assert client.get(reverse("api_competition_stage", args=[extra.pk])).status_code == 404
    assert stages.create_stage(event, Stage.Kind.ELIMINATION).order == row.order + 1  # the removed one keeps its
    # the event travels with the removed stage and its draws
    moved = import_event(codec.dumps(export_event(event)), slug=f"{event.slug}-moved").event
    assert list(moved.stages.values_list("name", flat=True)) == list(event.stages.values_list("name", flat=True))
    assert Stage.all_stages.filter(event=moved, removed_at__isnull=False).count() == 1


def test_a_draw_is_not_voided_once_play_began(db):
    event = union()
    groups, knockout = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    finish(Match.objects.filter(round__stage=groups, status="scheduled").first())
    with refused("stage") as caught:
        draws.void_draws(groups, reason="重抽")
    assert "已开赛" in str(caught.value)


def test_the_groups_draw_is_voided_only_after_the_knockout_drawn_from_them(db):
    event = union()
    groups, knockout = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    draws.draw_bracket(knockout, seed="k")
    with refused("stage") as caught:
        draws.void_draws(groups, reason="重分组")
    assert knockout.name in str(caught.value)
    draws.void_draws(knockout, reason="重分组")
    draws.void_draws(groups, reason="重分组")
    stages.update_stage(groups, settings={"n_groups": 1})
    assert draws.draw_groups(groups, seed="g2").params["n_groups"] == 1


def test_a_swiss_stage_is_voided_and_edited(db):
    event = make_event(8, 4)
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed="r1")
    with refused("stage"):
        stages.update_stage(stage, settings={"rounds": 4})
    draws.void_draws(stage, reason="轮数定错")
    assert swiss_rounds.round_draws(stage) == {}
    stages.update_stage(stage, settings={"rounds": 4})
    assert swiss_rounds.pair_next_round(stage, seed="r1b").params["round"] == 1


# --------------------------------------------------------------------------- the organiser's page
def test_the_organiser_edits_voids_and_deletes_from_the_page(client, db, make_user):
    event = union()
    client.force_login(make_user(roles.ORGANISER))
    groups, knockout = stages.create_stages_from_format(event)
    edit = reverse("competition_manage_stage_edit", args=[event.slug, knockout.pk])
    page = client.get(edit).content.decode()
    assert "修改或删除阶段" in page and 'name="places_played"' in page and "删除此阶段" in page
    client.post(edit, {"action": "save", "name": "淘汰赛", "source": groups.pk, "qualifiers_per_group": "2",
                       "places_played": "4"})
    knockout.refresh_from_db()
    assert knockout.settings == {"qualifiers_per_group": 2, "places_played": 4}
    response = client.post(edit, {"action": "save", "name": "淘汰赛", "places_played": "3"})
    assert response.status_code == 400 and 'data-field-error="places_played"' in response.content.decode()
    draws.draw_groups(groups, seed="g")
    draws.draw_bracket(knockout, seed="k")
    page = client.get(edit).content.decode()
    assert "作废抽签" in page and "删除此阶段" not in page
    assert client.post(edit, {"action": "delete", "confirm": "1"}).status_code == 400
    client.post(edit, {"action": "void", "reason": "改赛制"})
    history = client.get(reverse("competition_manage_stage", args=[event.slug, knockout.pk])).content.decode()
    assert "作废记录：改赛制" in history and "已作废" in history
    assert client.post(edit, {"action": "delete"}).status_code == 400  # the box is not ticked
    response = client.post(edit, {"action": "delete", "confirm": "1"}, follow=True)
    assert "已删除阶段" in response.content.decode() and not event.stages.filter(pk=knockout.pk).exists()
    assert placings.event_ranking(event).left_out == ()
    play_stage(groups)
    assert placings.final_ranking(event)[1]  # the groups were the last stage left


def test_who_records_a_drawn_stage_in_play_is_changed_on_its_page(client, db, make_user):
    """Who records the hands (the referee, the players, either) is the organiser's per stage, also after the draw
    and once play began: the page offers it beside the void, a wrong value is refused next to the field."""
    from tournament.selfscore import modes

    event = union()
    client.force_login(make_user(roles.ORGANISER))
    groups, _knockout = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    match = Match.objects.filter(round__stage=groups, status="scheduled").first()
    finish(match)
    edit = reverse("competition_manage_stage_edit", args=[event.slug, groups.pk])
    page = client.get(edit).content.decode()
    assert 'id="stage-recorders"' in page and "已开赛" in page
    page = client.post(edit, {"action": "recorders", "recorders": "players"}, follow=True).content.decode()
    assert "自下一副起的录入方式" in page and '<option value="players" selected>' in page
    settings_line = page.split('id="stage-recorders"')[1].split("</form>")[1]
    assert "成绩录入方式" in settings_line and "recorders" not in settings_line and "players" not in settings_line
    groups.refresh_from_db()
    later = Match.objects.filter(round__stage=groups, status="scheduled").select_related("round__stage__event").first()
    assert modes.of_stage(groups) == "players" and modes.players_record(later)
    response = client.post(edit, {"action": "recorders", "recorders": "nobody"})
    assert response.status_code == 400 and 'data-field-error="recorders"' in response.content.decode()
    client.post(edit, {"action": "recorders", "recorders": ""})
    groups.refresh_from_db()
    assert modes.of_stage(groups) == event.hand_recorders and "recorders" not in groups.settings
