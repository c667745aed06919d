"""Issue 43 item 11: on English pages the names the system made (the stages 按赛制创建比赛阶段 makes, "第1轮", the
bracket's rounds) read in English on the organiser's pages too, while a name an organiser typed stays as typed;
the language menu names each language in its own name (English, 简体中文) whatever the page's language."""
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournament.test_draws_support import make_event
from tournament.competition import draws, stages, swiss_standings
from tournament.competition.stages import create_stages_from_format
from tournament.models import Event, EventRole, Round, Stage

GENERATED = re.compile(r"小组赛|淘汰赛|循环赛|复赛|瑞士制|第\d+轮|决赛|名排位赛")


def _organiser(client, make_user, event):
    user = make_user()
    for role in ("organiser", "chief_referee"):
        EventRole.objects.create(event=event, user=user, role=role)
    client.force_login(user)
    return user


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", [Event.Format.GROUPS_ELIMINATION, Event.Format.GROUPS_ROUND_ROBIN,
                                 Event.Format.ELIMINATION])
def test_the_organisers_pages_in_english_name_the_generated_stages_in_english(client, make_user, fmt):
    event = make_event(8, 4, slug="names", fmt=fmt)
    made = create_stages_from_format(event)
    first = made[0]
    if first.kind == Stage.Kind.ROUND_ROBIN:
        draws.draw_groups(first, seed="names")
    else:
        draws.draw_bracket(first, seed="names")
    rnd = Round.objects.filter(stage=first).order_by("number").first()
    _organiser(client, make_user, event)
    client.cookies["django_language"] = "en"
    urls = [reverse(name, args=[event.slug]) for name in (
        "competition_manage_stages", "competition_manage_schedule", "competition_referee_grid", "clock-settings",
        "printouts", "competition_schedule", "competition_groups", "competition_bracket", "competition_standings")]
    urls += [reverse(name, args=[event.slug, s.pk]) for s in made
             for name in ("competition_manage_stage", "competition_manage_stage_edit")]
    urls += [event.get_absolute_url(), reverse("clock-chief", args=[event.slug, rnd.pk]),
             reverse("desk", args=[event.slug, rnd.pk]), reverse("clock-display", args=[event.slug, rnd.pk])]
    for url in urls:
        html = client.get(url, follow=True).content.decode()
        left = [html[max(0, m.start() - 60):m.end() + 10] for m in GENERATED.finditer(html)]
        assert not left, (url, left[:3])


@pytest.mark.django_db
def test_saving_the_edit_form_unchanged_keeps_the_generated_name_and_a_typed_one_stays(client, make_user):
    event = make_event(8, 4, slug="keep", fmt=Event.Format.GROUPS_ELIMINATION)
    groups, knockout = create_stages_from_format(event)
    _organiser(client, make_user, event)
    client.cookies["django_language"] = "en"
    edit = reverse("competition_manage_stage_edit", args=[event.slug, knockout.pk])
    html = client.get(edit).content.decode()
    assert 'value="Knock-out"' in html and ">Group stage</option>" in html
    with translation.override("en"):
        stages.update_stage(knockout, name="Knock-out")
    knockout.refresh_from_db()
    assert knockout.name == "淘汰赛"                      # still the system's name: Chinese pages say 淘汰赛
    with translation.override("en"):
        stages.update_stage(knockout, name="Finals day")
    knockout.refresh_from_db()
    assert knockout.name == "Finals day" and knockout.label == "Finals day"
    with translation.override("zh-hans"):
        assert knockout.label == "Finals day"


@pytest.mark.django_db
def test_a_refusal_and_the_swiss_standings_name_the_stage_in_the_page_language():
    event = make_event(8, 4, fmt=Event.Format.GROUPS_ELIMINATION)
    groups, _knockout = create_stages_from_format(event)
    draws.draw_groups(groups, seed="x")
    with translation.override("en"):
        with pytest.raises(stages.CompetitionError) as refused:
            stages.update_stage(groups, name="x")
        assert str(refused.value).startswith("Group stage has been drawn")
    swiss = stages.create_stage(event, Stage.Kind.SWISS, name="瑞士制", settings={"rounds": 3})
    with translation.override("en"):
        assert swiss_standings.stage_standings(swiss).name == "Swiss"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_language_menu_names_each_language_in_its_own_name(client, language):
    client.cookies["django_language"] = language
    html = client.get("/").content.decode()
    menu = re.search(r'<select name="language".*?</select>', html, re.S).group(0)
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', menu)
    assert options == [("zh-hans", "简体中文"), ("en", "English")], options
    assert "英语" not in menu and "Simplified Chinese" not in menu


@pytest.mark.browser
def test_the_stage_pages_in_english_on_a_phone(transactional_db, live_server, page, make_user):
    from pathlib import Path

    from django.conf import settings

    from tests.conftest import login

    event = make_event(8, 4, slug="names-phone", fmt=Event.Format.GROUPS_ELIMINATION)
    groups, knockout = create_stages_from_format(event)
    user = make_user()
    EventRole.objects.create(event=event, user=user, role="organiser")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, user)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for name, url in (("stages", reverse("competition_manage_stages", args=[event.slug])),
                      ("stage-edit", reverse("competition_manage_stage_edit", args=[event.slug, knockout.pk]))):
        page.goto(live_server.url + url)
        page.locator("main").wait_for()
        text = page.locator("main").inner_text()
        assert not GENERATED.search(text), (name, GENERATED.findall(text))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(folder / f"english-{name}-phone.png"), full_page=True)
    assert page.input_value("[name=name]") == "Knock-out"
    menu = page.locator("select[name=language] option").all_inner_texts()
    assert [m.strip() for m in menu] == ["简体中文", "English"]
