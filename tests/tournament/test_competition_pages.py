"""Competition pages and API: public read-only pages, organiser pages, permissions, draws, referees."""
import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament import roles
from tournament.competition import draws, stages
from tournament.models import Draw, Match, Round, Stage


@pytest.fixture
def drawn(db):
    """16 pairs, groups drawn and played, knock-out drawn with its quarter-finals played."""
    event = make_event(16, 4, seeds=4)
    groups, ko = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="页面种子")
    draws.draw_bracket(ko, seed="k")
    play_stage(groups)
    for m in Match.objects.filter(round__stage=ko, round__number=1):
        finish(m)
    return event, groups, ko


@pytest.mark.parametrize("name", ["competition_schedule", "competition_groups", "competition_bracket",
                                  "competition_standings"])
def test_public_pages_for_anonymous_visitors(client, drawn, name):
    event = drawn[0]
    html = client.get(reverse(name, args=[event.slug])).content.decode()
    assert '<html lang="zh-hans">' in html and "competition.css" in html and event.name in html


def test_group_page_shows_tables_crosstables_and_tie_break_notes(client, db):
    event = make_event(3, 3, profile="company-league", fmt="round_robin")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="tie")
    beats = {"第01对": "第02对", "第02对": "第03对", "第03对": "第01对"}  # a cycle: all on 3 points
    losing = {"第01对": "K", "第02对": "5", "第03对": "9"}
    for m in Match.objects.filter(round__stage=stage, status="scheduled").select_related("ns", "ew"):
        winner = m.ns if beats[m.ns.name] == m.ew.name else m.ew
        loser = m.ew if winner == m.ns else m.ns
        finish(m, winner=winner.pk, win_level="A", lose_level=losing[loser.name])
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert "积分 → 净胜级数 → 总级数 → 抽签" in html and "胜 A:" in html and 'class="grid crosstable"' in html
    assert "积分相同，由净胜级数决定" in html


def test_bracket_page_shows_rounds_placements_and_seed(client, drawn):
    html = client.get(reverse("competition_bracket", args=[drawn[0].slug])).content.decode()
    assert "四分之一决赛" in html and "半决赛" in html and "第5–8名排位赛" in html and "<code>k</code>" in html
    assert '<span class="bm-head">第1轮第1场 · 桌号 1' in html and "R1-M1" not in html   # its match in words


def test_schedule_names_a_side_still_to_be_decided_in_words(client, drawn):
    """A waiting knock-out side reads "第2轮第1场胜者", never the stored code "W:R2-M1" nor the key "R2-M1"."""
    html = client.get(reverse("competition_schedule", args=[drawn[0].slug])).content.decode()
    assert "第2轮第1场胜者" in html and "第2轮第1场负者" in html
    assert "R2-M1" not in html


def test_standings_page_awards_when_done(client, drawn):
    event, _, ko = drawn
    play_stage(ko)
    html = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    assert "决赛" in html and "小组赛A组第3名" in html


def test_unpublished_event_is_hidden_from_the_public(client, db):
    event = make_event(4, 2, published=False)
    for name in ("competition_schedule", "competition_groups", "competition_bracket", "competition_standings"):
        assert client.get(reverse(name, args=[event.slug])).status_code == 404
    assert client.get(f"/api/events/{event.slug}/stages/").status_code == 404


def test_manage_pages_need_an_organiser(client, drawn, make_user):
    event = drawn[0]
    url = reverse("competition_manage_stages", args=[event.slug])
    assert client.get(url).status_code == 302
    client.force_login(make_user(roles.TABLE_REFEREE))
    assert client.get(url).status_code == 403
    client.force_login(make_user(roles.ORGANISER))
    for name in ("competition_manage_stages", "competition_manage_schedule", "competition_manage_referees"):
        assert client.get(reverse(name, args=[event.slug])).status_code == 200
    assert "<h2>裁判员单位</h2>" in client.get(reverse("competition_manage_referees", args=[event.slug])).content.decode()


def test_the_organisers_row_marks_the_page_it_is_on(client, drawn, make_user):
    """Like the public tabs, the organiser's row shows where the organiser is (aria-current, drawn as the active
    tab)."""
    event = drawn[0]
    client.force_login(make_user(roles.ORGANISER))
    for name, label in [("competition_manage_stages", "阶段与抽签"), ("competition_manage_schedule", "赛程与裁判安排"),
                        ("competition_manage_referees", "裁判员单位"), ("clock-settings", "计时设置")]:
        html = client.get(reverse(name, args=[event.slug])).content.decode()
        assert html.count('aria-current="page"') == 1, name
        assert f'aria-current="page">{label}</a>' in html, name


def test_organiser_creates_stages_and_draws_with_a_seed_then_redoes(client, db, make_user):
    event = make_event(8, 4)
    client.force_login(make_user(roles.ORGANISER))
    client.post(reverse("competition_manage_stages", args=[event.slug]), {"action": "from_format"})
    groups = event.stages.get(order=1)
    url = reverse("competition_manage_stage", args=[event.slug, groups.pk])
    client.post(url, {"kind": "groups", "seed": "第一次", "n_groups": "2"})
    page = client.get(url).content.decode()
    assert "第一次" in page and ("重新抽签" in page or "Redo the draw" in page)
    client.post(url, {"kind": "groups", "seed": "第二次"})
    assert list(Draw.objects.filter(stage=groups).values_list("seed", flat=True).order_by("pk")) == ["第一次", "第二次"]
    finish(Match.objects.filter(round__stage=groups, status="scheduled").first())
    response = client.post(url, {"kind": "groups", "seed": "第三次"}, follow=True)
    assert "已有比赛开始" in response.content.decode() and Draw.objects.count() == 2


def test_organiser_adds_a_stage_with_a_bad_setting_sees_the_message(client, db, make_user):
    event = make_event(4, 2)
    client.force_login(make_user(roles.ORGANISER))
    response = client.post(reverse("competition_manage_stages", args=[event.slug]),
                           {"kind": "elimination", "places_played": "3"}, follow=True)
    assert "places_played" in response.content.decode() and not event.stages.exists()


def test_schedule_page_refuses_a_referee_of_a_playing_unit(client, drawn, make_user):
    event, groups, _ = drawn
    organiser, ref = make_user(roles.ORGANISER), make_user(roles.TABLE_REFEREE)
    client.force_login(organiser)
    match = Match.objects.filter(round__stage__event=event, round__stage__kind="elimination",
                                 status="scheduled").first()
    client.post(reverse("competition_manage_referees", args=[event.slug]), {"referee": ref.pk, "unit": match.ns.unit_id})
    response = client.post(reverse("competition_manage_schedule", args=[event.slug]),
                           {"match": match.pk, "referee": ref.pk}, follow=True)
    assert "同单位" in response.content.decode() and not match.referees.exists()
    other = Match.objects.filter(round__stage__event=event, status="scheduled").exclude(
        ns__unit=match.ns.unit).exclude(ew__unit=match.ns.unit).first()
    client.post(reverse("competition_manage_schedule", args=[event.slug]), {"match": other.pk, "referee": ref.pk})
    assert list(other.referees.all()) == [ref]


def test_schedule_page_removes_a_referee_only_while_the_match_is_not_over(client, drawn, make_user):
    """Taking a referee off goes through the referees service: refused, in Chinese, once the match is over."""
    event = drawn[0]
    organiser, ref = make_user(roles.ORGANISER), make_user(roles.TABLE_REFEREE)
    client.force_login(organiser)
    url = reverse("competition_manage_schedule", args=[event.slug])
    playing, over = Match.objects.filter(round__stage__event=event, status="scheduled").exclude(ns=None)[:2]
    for match in (playing, over):
        client.post(url, {"match": match.pk, "referee": ref.pk})
        assert list(match.referees.all()) == [ref]
    finish(over)
    answer = client.post(url, {"match": over.pk, "referee": ref.pk, "action": "remove"}, follow=True)
    assert "这场比赛已结束，不能再更换裁判。" in answer.content.decode() and list(over.referees.all()) == [ref]
    client.post(url, {"match": playing.pk, "referee": ref.pk, "action": "remove"})
    assert not playing.referees.exists()


def test_api_reads(client, drawn):
    event, groups, ko = drawn
    assert [s["kind"] for s in client.get(f"/api/events/{event.slug}/stages/").json()] == ["round_robin", "elimination"]
    assert len(client.get(f"/api/stages/{groups.pk}/").json()["groups"]) == 4
    assert len(client.get(f"/api/stages/{ko.pk}/matches/").json()) == 12
    standings = client.get(f"/api/stages/{groups.pk}/standings/").json()
    assert standings["complete"] and len(standings["groups"][0]["rows"]) == 4
    assert client.get(f"/api/stages/{ko.pk}/standings/").status_code == 400
    assert client.get(f"/api/stages/{groups.pk}/draws/").json()[0]["seed"] == "页面种子"
    assert client.get(f"/api/events/{event.slug}/ranking/").json()["complete"] is False


def test_api_writes_for_organisers_only(client, db, make_user):
    event = make_event(8, 4)
    url = f"/api/events/{event.slug}/stages/"
    assert client.post(url, {"from_format": True}, content_type="application/json").status_code == 401  # anonymous
    client.force_login(make_user())
    assert client.post(url, {"from_format": True}, content_type="application/json").status_code == 403
    client.force_login(make_user(roles.ORGANISER))
    created = client.post(url, {"from_format": True}, content_type="application/json").json()
    assert [s["kind"] for s in created] == ["round_robin", "elimination"]
    draw_url = f"/api/stages/{created[0]['id']}/draws/"
    response = client.post(draw_url, {"kind": "groups", "seed": "api", "n_groups": 9}, content_type="application/json")
    assert response.status_code == 400 and "分组数 9 多于参赛对数 8" in response.json()["detail"]
    response = client.post(draw_url, {"kind": "groups", "seed": "api", "n_groups": 2}, content_type="application/json")
    assert response.status_code == 201 and response.json()["seed"] == "api"
    bad = client.post(draw_url, {"kind": "seats", "n_groups": 2}, content_type="application/json")
    assert bad.status_code == 400


def test_openapi_schema_lists_the_competition_endpoints(client, db):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    for path in ("/api/events/{slug}/stages/", "/api/stages/{id}/draws/", "/api/stages/{id}/standings/",
                 "/api/events/{slug}/ranking/", "/api/stages/{id}/matches/"):
        assert path in paths, path


@pytest.mark.browser
def test_bracket_and_groups_fit_a_phone(transactional_db, live_server, phone):
    event = make_event(16, 4, seeds=4)
    groups, ko = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="p")
    draws.draw_bracket(ko, seed="q")
    play_stage(groups)
    for name in ("competition_bracket", "competition_groups"):
        phone.goto(live_server.url + reverse(name, args=[event.slug]))
        assert phone.locator("h1").inner_text() == event.name
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{name}: page is {width}px wide on a 360px phone"
    phone.goto(live_server.url + reverse("competition_bracket", args=[event.slug]))
    rounds = phone.locator(".bracket-round")
    first, second = rounds.nth(0).bounding_box(), rounds.nth(1).bounding_box()
    assert second["y"] > first["y"] + first["height"] - 1  # rounds stacked on a phone


@pytest.mark.parametrize("language, words", [("zh-hans", ["第1轮：", "半决赛：", "决赛："]),
                                             ("en", ["Round 1: ", "Semi-final: ", "Final: "])])
def test_the_published_rounds_are_named_in_the_pages_language(client, drawn, language, words):
    """The list of rounds whose results are published names a generated round in the page's language (an English
    page read "第1轮: Results published ..." before)."""
    event = drawn[0]
    Round.objects.filter(stage__event=event).update(results_published_at=timezone.now())
    client.cookies["django_language"] = language
    html = "".join(client.get(reverse(name, args=[event.slug])).content.decode()
                   for name in ("competition_groups", "competition_standings"))
    assert all(word in html for word in words), words
    if language == "en":
        assert "第1轮" not in html and "决赛" not in html


def test_a_match_named_in_a_sentence_gives_its_waiting_side_in_words(drawn):
    """Match.__str__ reaches people (the desk's correction warning names the next match, an appeal's refusal, the
    console's sides): a side still to be decided reads in words, never "W:R2-M1"."""
    _event, _groups, ko = drawn
    waiting = Match.objects.filter(round__stage=ko, ns__isnull=True).exclude(ns_source="").first()
    text = str(waiting)
    assert "胜者" in text or "负者" in text, text
    assert "W:" not in text and "L:" not in text and "R2-M" not in text
