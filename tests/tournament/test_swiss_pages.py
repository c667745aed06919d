"""Swiss and unit pages (issue 14, item 3): the organiser creates a Swiss stage and pairs its rounds,
refusals shown next to the field, public rounds and standings paginated (2,048 tables in under 1 s),
unit standings with their .xlsx, and the printouts ``swiss`` and ``units``."""
import io
import time

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament import roles
from tournament.competition import draws, stages, swiss_rounds
from tournament.models import Draw, Event, Match, Round, Stage
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout


def pdf_text(pdf):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_organiser_creates_a_swiss_stage_with_the_suggested_rounds_and_pairs_round_one(client, db, make_user):
    event = make_event(10, 5)
    client.force_login(make_user(roles.ORGANISER))
    url = reverse("competition_manage_stages", args=[event.slug])
    page = client.get(url).content.decode()
    assert '<option value="swiss">瑞士制</option>' in page and "按参赛对数建议：5 轮。" in page  # ceil(log2 10) + 1
    client.post(url, {"action": "create", "kind": "swiss", "name": "", "rounds": "4"})
    stage = event.stages.get()
    assert stage.kind == Stage.Kind.SWISS and stage.settings == {"rounds": 4} and stage.name == "瑞士制"
    manage = reverse("competition_manage_swiss", args=[event.slug, stage.pk])
    assert client.get(reverse("competition_manage_stage", args=[event.slug, stage.pk])).url == manage
    response = client.post(manage, {"action": "pair", "seed": "页面-1"}, follow=True)
    html = response.content.decode()
    assert "第 1 轮已编排，种子 页面-1。" in html and "<code>页面-1</code>" in html and "已编排 1 / 4 轮。" in html
    assert Draw.objects.get(stage=stage).kind == "swiss"


def test_pairing_refused_while_a_table_is_open_is_shown_next_to_the_field(client, db, make_user):
    event = make_event(8, 4)
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed=1)
    client.force_login(make_user(roles.ORGANISER))
    response = client.post(reverse("competition_manage_swiss", args=[event.slug, stage.pk]), {"action": "pair"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'data-field-error="round">第 1 轮还有未决出胜负的桌（1, 2, 3, 4）' in html
    bad = client.post(reverse("competition_manage_swiss", args=[event.slug, stage.pk]),
                      {"action": "rounds", "rounds": "0"})
    assert 'data-field-error="rounds">轮数须为 1 至 30 的整数。' in bad.content.decode()


def test_public_swiss_page_shows_each_round_and_the_standings_after_it(client, db):
    event = make_event(6, 3)
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed="a")
    for m in Match.objects.filter(round__stage=stage, status="scheduled"):
        finish(m)
    swiss_rounds.pair_next_round(stage, seed="b")
    url = reverse("competition_swiss", args=[event.slug])
    html = client.get(url).content.decode()
    assert ">瑞士制</a>" in html and "第 2 轮后排名" in html and "<code>b</code>" in html
    first = client.get(url, {"round": 1}).content.decode()
    assert "第 1 轮后排名" in first and "<code>a</code>" in first and "对手分" in first
    other = make_event(4, 2)
    assert ">瑞士制</a>" not in client.get(reverse("competition_schedule", args=[other.slug])).content.decode()


@pytest.mark.django_db
def test_a_round_of_2048_tables_loads_one_page_in_under_a_second(client):
    event = make_event(2, 1)
    stage = stages.create_stage(event, Stage.Kind.SWISS, name="大规模", settings={"rounds": 1})
    rnd = Round.objects.create(stage=stage, number=1, name="第1轮")
    pairs = list(event.pairs.all())
    Match.objects.bulk_create([Match(round=rnd, table=t + 1, ns=pairs[0], ew=pairs[1], profile=event.profile)
                               for t in range(2048)])
    url = reverse("competition_swiss", args=[event.slug])
    client.get(url)  # warm the templates
    started = time.perf_counter()
    response = client.get(url, {"round": 1, "page": 20})
    elapsed = time.perf_counter() - started
    html = response.content.decode()
    assert response.status_code == 200 and "第 20 页 / 共 21 页" in html and "共 2048 桌（含轮空）" in html
    assert html.count("<tr>") <= 100 + 1 + 100  # one page of tables (plus the standings)
    assert elapsed < 1.0, elapsed  # issue 14 item 3: "a 2,048-table round loads in under 1 s"


@pytest.fixture
def union(db):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 8})
    draws.draw_bracket(stage, seed="u")
    return event, stage


def test_unit_standings_page_provisional_then_final_with_rules_and_xlsx(client, union):
    event, stage = union
    url = reverse("competition_units", args=[event.slug])
    html = client.get(url).content.decode()
    assert "团体总分" in html and "暂定：比赛尚未结束。" in html
    play_stage(stage)
    html = client.get(url).content.decode()
    assert "赛事尚未结束" not in html and "按最终名次计分：9-7-6-5-4-3-2-1" in html and "抽签决定（种子" in html
    response = client.get(reverse("competition_units_xlsx", args=[event.slug]))
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet["A3"].value == "名次" and sheet["A4"].value == 1 and isinstance(sheet["C4"].value, int)


def test_organiser_sets_unit_scoring_and_sees_a_refusal_next_to_the_field(client, union, make_user):
    event, _stage = union
    client.force_login(make_user(roles.ORGANISER))
    url = reverse("competition_manage_units", args=[event.slug])
    bad = client.post(url, {"points": "9-x", "best_n": "", "women_bonus": "0", "seed": ""})
    assert bad.status_code == 400 and 'data-field-error="points">各名次得分须为不小于 0 的整数序列。' in bad.content.decode()
    assert event.unit_scoring in (None, {})   # nothing half-saved
    bad = client.post(url, {"points": "9-7", "best_n": "二", "women_bonus": "0", "seed": "x" * 65}).content.decode()
    assert 'data-field-error="best_n">请填写整数。' in bad and "种子最多 64 个字符。" in bad
    assert 'name="points" value="9-7"' in bad and 'value="二"' in bad and f'value="{"x" * 65}"' in bad  # as typed
    page = client.get(url).content.decode()
    assert f"留空则使用：{event.slug}:团体。" in page and 'name="seed" maxlength="64" value=""' in page
    client.post(url, {"points": "10-8-6", "best_n": "2", "women_bonus": "1", "seed": "抽签"})
    event.refresh_from_db()
    assert event.unit_scoring == {"points": [10, 8, 6], "best_n": 2, "women_bonus": 1, "lot_seed": "抽签"}
    page = client.get(url).content.decode()                              # the form shows the rules in force
    assert 'name="points" value="10-8-6"' in page and 'value="抽签"' in page
    assert 'name="best_n" type="number" min="1" inputmode="numeric" value="2"' in page


def test_printouts_units_and_swiss(union, db):
    event, stage = union
    play_stage(stage)
    text = pdf_text(build_printout("units", event, PrintOptions()))
    assert "团体总分" in text and "计分办法" in text and "荣誉证书" in text and "团体第1名" in text
    swiss_event = make_event(6, 3)
    swiss = swiss_rounds.create_swiss_stage(swiss_event, rounds=2)
    swiss_rounds.pair_next_round(swiss, seed="印")
    rnd = swiss.rounds.get()
    text = pdf_text(build_printout("swiss", swiss_event, PrintOptions(round=rnd.pk)))
    assert "瑞士制对阵与排名" in text and "种子：印" in text and "第1轮后排名" in text
