"""Moving an event (issue 17, item 10): ``export_event`` and ``import_event`` give the same event on another
installation: the same standings JSON byte for byte, the same hands, rulings and appeals, the same printout,
every who/when field, and nothing half-saved from a bad file."""
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from pypdf import PdfReader

from common.errors import ConflictError
from demo.event import seed_demo
from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling
from scoring.models import Hand, RuleProfile
from tournament.competition.unit_standings import lot_seed, set_unit_rules
from tournament.models import (
    ClockFiring,
    Event,
    EventClockSettings,
    HandAllowance,
    LeadReport,
    Match,
    Pair,
    PairRemoval,
    RefereeUnit,
    Registration,
    ResultDecision,
    Round,
    RoundClosure,
    Stage,
    Team,
)
from tournament.printouts.services import build_printout
from tournament.transfer import codec
from tournament.transfer.codec import TransferError
from tournament.transfer.services import export_event, import_event
from tournament.transfer.tables import NOT_EXPORTED, TABLES, label

AT = dt.datetime(2026, 12, 5, 3, 0, tzinfo=dt.timezone.utc)


def _enrich(event):
    """Rows for the tables the demo leaves empty, so every table travels (who and when on each)."""
    chief = get_user_model().objects.get(username="chief")
    arbiter = get_user_model().objects.get(username="arbiter1")
    live = list(Ruling.objects.filter(match__round__stage__event=event, void__isnull=True).order_by("pk"))
    appeal = Appeal.objects.create(ruling=live[0], side="NS", grounds="不服判罚", filed_by=chief, filed_at=AT)
    AppealDecision.objects.create(appeal=appeal, instance=1, outcome="upheld", reason="维持", decided_by=chief,
                                  decided_at=AT + dt.timedelta(minutes=5))
    AppealDecision.objects.create(appeal=appeal, instance=2, outcome="upheld", reason="仲裁维持",
                                  decided_by=arbiter, decided_at=AT + dt.timedelta(minutes=9))
    Approval.objects.create(ruling=live[1], approved=False, note="不批准", decided_by=chief, decided_at=AT)
    ChoiceMade.objects.create(ruling=live[1], side="EW", option="points", recorded_by=chief, recorded_at=AT)
    first = Round.objects.filter(stage__event=event).order_by("stage__order", "number").first()
    match = Match.objects.filter(round=first).order_by("table").first()
    RoundClosure.objects.create(round=first, action="close", by=chief, at=AT)
    RoundClosure.objects.create(round=first, action="reopen", reason="核对", by=chief, at=AT + dt.timedelta(minutes=1))
    ResultDecision.objects.create(match=match, kind="decided", winner=("NS" if match.winner_id == match.ns_id else "EW"),
                                  reason="裁定", decided_by=chief, decided_at=AT)
    ClockFiring.objects.create(round=first, kind="announce", fired_at=AT, via="task")
    HandAllowance.objects.create(match=match, reason="announce", hand_in_play=7, last_hand=9, fired_at=AT)
    LeadReport.objects.create(match=match, hand_number=7, lead_made=True, reported_by=chief, reported_at=AT)
    EventClockSettings.objects.create(event=event, match_minutes=50, hands_after=3)
    unit = event.units.order_by("pk").first()
    team = Team.objects.create(event=event, unit=unit, name="莲花一队")
    player = event.players.filter(unit=unit).order_by("pk").first()
    Registration.objects.create(event=event, player=player, team=team, pool="女子")
    RefereeUnit.objects.create(user=get_user_model().objects.get(username="referee1"), event=event, unit=unit)
    removed = Pair.objects.filter(event=event).order_by("-pk").first()
    PairRemoval.objects.create(pair=removed, kind="suspended", reason="停赛", ruling=live[0], decided_by=chief,
                               decided_at=AT)


@pytest.fixture
def demo(db, frozen_now):
    event = seed_demo()[0]
    _enrich(event)
    return event


def _normal(data):
    """The export's data with every id replaced by the row's place in its table (users by name, profiles by
    slug and version): equal for the same event on any installation."""
    users = {u["id"]: u["username"] for u in data["users"]}
    profiles = {p["id"]: f"{p['slug']} v{p['version']}" for p in data["profiles"]}
    place = {name: {row["id"]: i for i, row in enumerate(rows)} for name, rows in data["tables"].items()}

    class Places:
        def __getattr__(self, name):
            return place[f"tournament.{name}"].__getitem__

    def value(model, f, v):
        if v is None or not f.is_relation and not f.primary_key:
            return v
        if f.primary_key:
            return place[label(model)][v]
        if f.related_model is get_user_model():
            return users[v]
        if f.related_model is RuleProfile:
            return profiles[v]
        return place[label(f.related_model)][v]

    tables = {}
    for model, _path in TABLES:
        rows = []
        for row in data["tables"][label(model)]:
            out = {f.attname: value(model, f, row[f.attname]) for f in model._meta.concrete_fields}
            if label(model) == "tournament.draw":
                out["params"], out["result"] = codec.remap_draw(row["kind"], row["params"], row["result"], Places())
            if label(model) == "tournament.roundclock":  # Celery task ids and the lock's stamp are this site's
                out["task_ids"], out["touched_at"] = {}, None
            rows.append(out)
        tables[label(model)] = rows
    referees = sorted((place["tournament.match"][m], users[u]) for m, u in data["match_referees"])
    profile_data = sorted((p["slug"], p["version"], json.dumps(p["data"], sort_keys=True)) for p in data["profiles"])
    return {"tables": tables, "referees": referees, "profiles": profile_data,
            "users": sorted((u["username"], u["first_name"], u["last_name"]) for u in data["users"])}


def _public_json(client, event):
    """The public standings of every stage and the final ranking, as the API sends them (bytes)."""
    stages = Stage.objects.filter(event=event, kind=Stage.Kind.ROUND_ROBIN).order_by("order")
    answers = [client.get(reverse("api_competition_standings", args=[s.pk])) for s in stages]
    answers.append(client.get(reverse("api_competition_ranking", args=[event.slug])))
    assert all(a.status_code == 200 for a in answers)
    return [a.content for a in answers]


def _pdf_text(event):
    reader = PdfReader(io.BytesIO(build_printout("standings", event)))
    return "\n".join(page.extract_text() for page in reader.pages)


def _counts(event):
    on = {"match__round__stage__event": event}
    return (Hand.objects.filter(**on).count(), Ruling.objects.filter(**on).count(),
            Appeal.objects.filter(ruling__match__round__stage__event=event).count(),
            AppealDecision.objects.filter(appeal__ruling__match__round__stage__event=event).count())


def test_every_model_of_the_apps_travels_or_says_why_not():
    listed = {label(model) for model, _path in TABLES} | set(NOT_EXPORTED)
    ours = {m._meta.label_lower for app in ("tournament", "scoring", "rulings")
            for m in apps.get_app_config(app).get_models()}
    assert ours == listed


def test_the_demo_imported_into_an_empty_database_is_the_same_event(demo, client):
    standings, pdf, counts = _public_json(client, demo), _pdf_text(demo), _counts(demo)
    assert counts[0] > 100 and counts[1] >= 4 and counts[2] == 1 and counts[3] == 2
    text = codec.dumps(export_event(demo))
    before = _normal(codec.parse(text))

    if connection.vendor == "postgresql":  # the deferred foreign-key checks first: TRUNCATE waits for none
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)  # another installation: nothing in it
    assert not Event.objects.exists() and not get_user_model().objects.exists()
    report = import_event(text.encode("utf-8"))

    event = report.event
    assert report.kept_ids and event.slug == "demo"
    assert _public_json(client, event) == standings  # byte for byte
    assert _counts(event) == counts
    assert _pdf_text(event) == pdf
    assert _normal(export_event(event)["data"]) == before  # every row and column, who and when included
    chief = get_user_model().objects.get(username="chief")
    assert not chief.has_usable_password()  # created without a password: the organiser sets one
    assert event.staff.filter(user=chief).exists()


def test_an_import_beside_the_original_renumbers_and_keeps_the_audit_trail(demo, client):
    set_unit_rules(demo, points=[5, 3, 1])  # the event ranks its units; its tie lot's seed comes from the slug
    text = codec.dumps(export_event(demo))
    with pytest.raises(ConflictError) as taken:
        import_event(text)
    assert taken.value.field == "slug" and "demo" in str(taken.value) and "demo-2" in str(taken.value)
    report = import_event(text, slug="demo-moved")
    moved = report.event
    assert not report.kept_ids and moved.pk != demo.pk and moved.slug == "demo-moved"
    assert _counts(moved) == _counts(demo)
    assert _pdf_text(moved) == _pdf_text(demo)
    after, before = _normal(export_event(moved)["data"]), _normal(codec.parse(text))
    assert after["tables"]["tournament.event"][0].pop("slug") == "demo-moved"
    assert before["tables"]["tournament.event"][0].pop("slug") == "demo"
    assert after["tables"]["tournament.event"][0].pop("unit_scoring") == {"points": [5, 3, 1], "lot_seed": "demo:团体"}
    before["tables"]["tournament.event"][0].pop("unit_scoring")
    assert after == before
    old_hands = list(Hand.objects.filter(match__round__stage__event=demo).order_by("pk")
                     .values_list("recorded_by__username", "recorded_at", "supersedes__number"))
    new_hands = list(Hand.objects.filter(match__round__stage__event=moved).order_by("pk")
                     .values_list("recorded_by__username", "recorded_at", "supersedes__number"))
    assert new_hands == old_hands
    assert lot_seed(moved) == lot_seed(demo) == "demo:团体"  # the unit standings' tie lot is drawn as before
    draw = moved.draws.get(kind="groups")
    pairs = set(moved.pairs.values_list("pk", flat=True))
    assert set(draw.params["entries"]) == pairs  # the ids inside the draw are the new pairs'


def test_a_file_written_before_a_column_was_added_imports_with_its_default(demo):
    """An export made before a column existed (the event's ``hand_recorders``: who records the hands) imports,
    the column taking its default (the referee records); a column no model has is still refused."""
    payload = export_event(demo)
    older = json.loads(codec.dumps(payload))
    for row in older["data"]["tables"]["tournament.event"]:
        del row["hand_recorders"]
    older["sha256"] = codec.checksum(older["data"])
    moved = import_event(json.dumps(older), slug="demo-older").event
    assert moved.hand_recorders == Event.Recorders.REFEREE and _counts(moved) == _counts(demo)
    stranger = json.loads(codec.dumps(payload))
    stranger["data"]["tables"]["tournament.event"][0]["invented"] = 1
    stranger["sha256"] = codec.checksum(stranger["data"])
    with pytest.raises(TransferError) as refused:
        import_event(json.dumps(stranger), slug="demo-stranger")
    assert "tournament.event #1" in str(refused.value)
    assert not Event.objects.filter(slug="demo-stranger").exists()


def test_a_bad_file_saves_nothing_and_says_why_in_chinese(demo, settings):
    from django.utils import translation

    payload = export_event(demo)
    rows_before = Hand.objects.count()
    users_before = get_user_model().objects.count()
    with translation.override("zh-hans"):
        with pytest.raises(TransferError) as not_json:
            import_event(b"\x89PNG not json")
        assert "JSON" in str(not_json.value) and not_json.value.field == "file"
        with pytest.raises(TransferError):
            import_event("[" * 200_000)  # nested past the parser's depth
        edited = json.loads(codec.dumps(payload))
        edited["data"]["tables"]["scoring.hand"][0]["defender_points"] = 200
        with pytest.raises(TransferError) as damaged:
            import_event(json.dumps(edited), slug="x1")
        assert "校验" in str(damaged.value)
        newer = {**payload, "version": 2}
        with pytest.raises(TransferError) as version:
            import_event(json.dumps(newer), slug="x2")
        assert "2" in str(version.value)
        # a consistent checksum over a broken row: refused at that row, after users and early rows were written
        broken = json.loads(codec.dumps(payload))
        broken["data"]["users"].append({"id": 999, "username": "newcomer", "first_name": "", "last_name": "",
                                        "email": "", "is_active": True})
        broken["data"]["tables"]["scoring.hand"][5]["match_id"] = 99999
        broken["sha256"] = codec.checksum(broken["data"])
        with pytest.raises(TransferError) as bad_row:
            import_event(json.dumps(broken), slug="x3")
        assert "scoring.hand #6" in str(bad_row.value) and "未导入" in str(bad_row.value)
    assert not Event.objects.filter(slug__in=["x1", "x2", "x3"]).exists()
    assert Hand.objects.count() == rows_before and get_user_model().objects.count() == users_before


def test_the_commands_write_and_read_the_file(demo, tmp_path, capsys):
    path = tmp_path / "demo.json"
    call_command("export_event", "demo", "--output", str(path))
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert payload["format"] == "tractor-event" and payload["version"] == 1 and payload["event"] == "demo"
    with pytest.raises(CommandError, match="slug"):
        call_command("import_event", str(path))
    call_command("import_event", str(path), "--slug", "demo-2")
    assert "demo-2" in capsys.readouterr().out
    assert _counts(Event.objects.get(slug="demo-2")) == _counts(demo)


def test_draw_ids_are_renumbered_for_every_kind():
    class Ids:
        def pair(self, old):
            return old + 100

        def player(self, old):
            return old + 1000

        def match(self, old):
            return old + 500

        def unit(self, old):
            return old + 10

    ids = Ids()
    assert codec.remap_draw("pairs", {"pools": [{"pool": "A", "players": [1, 2]}]}, {"pairs": [[1, 2, 3]]}, ids) == (
        {"pools": [{"pool": "A", "players": [1001, 1002]}]}, {"pairs": [[1001, 1002, 103]]})
    assert codec.remap_draw("groups", {"entries": [1, 2], "n_groups": 1, "seeded": 0, "units": {"1": 5, "2": 6}},
                            {"groups": [[2, 1]]}, ids) == (
        {"entries": [101, 102], "n_groups": 1, "seeded": 0, "units": {"101": 15, "102": 16}}, {"groups": [[102, 101]]})
    assert codec.remap_draw("bracket", {"qualifiers": [["A1"]], "places_played": 1},
                            {"first_round": [["A1", "B2"]]}, ids)[1] == {"first_round": [["A1", "B2"]]}
    assert codec.remap_draw("bracket", {"entries": [1, 2, 3], "places_played": 1, "units": {"3": 1}},
                            {"first_round": [[1, None], [2, 3]]}, ids) == (
        {"entries": [101, 102, 103], "places_played": 1, "units": {"103": 11}},
        {"first_round": [[101, None], [102, 103]]})
    assert codec.remap_draw("seats", {"matches": [[7, 1, 2]]}, {"seats": [[7, 2, 1]]}, ids) == (
        {"matches": [[507, 101, 102]]}, {"seats": [[507, 102, 101]]})
    assert codec.remap_draw("tables", {"first_table": 3, "matches": {"1": [7, 8]}}, {"tables": {"1": [4, 3]}},
                            ids) == ({"first_table": 3, "matches": {"1": [507, 508]}}, {"tables": {"1": [4, 3]}})
    params = {"round": 2, "entries": [1, 2, 3], "ranking": [3, 1, 2], "scores": {"1": 2, "3": 4}, "played": [[1, 3]],
              "had_bye": [2], "units": {"1": 1}, "standings_seed": "s"}
    assert codec.remap_draw("swiss", params, {"pairs": [[3, 1], [2, None]], "rematches": [[3, 1]], "tables": [1]},
                            ids) == (
        {"round": 2, "entries": [101, 102, 103], "ranking": [103, 101, 102], "scores": {"101": 2, "103": 4},
         "played": [[101, 103]], "had_bye": [102], "units": {"101": 11}, "standings_seed": "s"},
        {"pairs": [[103, 101], [102, None]], "rematches": [[103, 101]], "tables": [1]})
    with pytest.raises(KeyError):
        codec.remap_draw("lottery", {}, {}, ids)


def test_the_organiser_downloads_the_file_and_others_cannot(demo, client, make_user):
    from tournament import roles

    url = reverse("event_export", args=["demo"])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(make_user(roles.TABLE_REFEREE))
    assert client.get(url).status_code == 403
    client.force_login(get_user_model().objects.get(username="organiser"))  # the demo's organiser
    page = client.get(reverse("event_detail", args=["demo"])).content.decode()
    assert url in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert 'attachment; filename="demo-' in response["Content-Disposition"]
    payload = json.loads(response.content)
    assert payload["format"] == "tractor-event" and codec.parse(response.content)


def test_an_upload_creates_the_event_and_a_bad_file_is_refused_in_chinese(demo, client, make_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournament import roles

    text = codec.dumps(export_event(demo)).encode("utf-8")
    url = reverse("event_import")
    client.force_login(make_user(roles.CHIEF_REFEREE))
    assert client.get(url).status_code == 403
    assert client.post(url, {"file": SimpleUploadedFile("e.json", text)}).status_code == 403
    organiser = make_user(roles.ORGANISER)
    client.force_login(organiser)
    assert url in client.get(reverse("home")).content.decode()

    bad = client.post(url, {"file": SimpleUploadedFile("e.json", text[:-200]), "slug": "moved"})
    assert bad.status_code == 400 and "不是赛事导出文件" in bad.content.decode()
    people = client.post(url, {"file": SimpleUploadedFile("e.json", text)})  # then who its people are here
    assert people.status_code == 200 and "李裁判长" in people.content.decode()
    taken = client.post(url, {"people": "1"})
    assert taken.status_code == 400 and "新的网址" in taken.content.decode()
    assert not Event.objects.filter(slug="moved").exists()

    done = client.post(url, {"people": "1", "slug": "moved"}, follow=True)
    moved = Event.objects.get(slug="moved")
    assert done.redirect_chain[-1][0] == moved.get_absolute_url()
    assert _counts(moved) == _counts(demo)
    assert moved.staff.filter(user=organiser, role="organiser").exists()


@pytest.mark.browser
def test_the_upload_page_on_a_390px_phone(transactional_db, live_server, page, make_user, tmp_path):
    from demo.event import ensure_accounts, ensure_event
    from tests.conftest import login
    from tournament import roles

    ensure_accounts()
    source = ensure_event()  # the demo's entries
    path = tmp_path / "demo.json"
    path.write_text(codec.dumps(export_event(source)), encoding="utf-8")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, make_user(roles.ORGANISER, username="org"))
    page.click("text=导入赛事")
    page.set_input_files("input[name=file]", str(path))
    page.click("button[type=submit].primary")
    assert "李裁判长" in page.content() and page.locator("select[name^=account-]").count() >= 8  # the file's people
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(Path(settings_var_dir()) / "transfer-import-people.png"), full_page=True)
    page.click("button[type=submit].primary")
    assert "新的网址" in page.locator(".error").first.inner_text()  # the demo's address is taken here
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(Path(settings_var_dir()) / "transfer-import-refused.png"), full_page=True)
    page.fill("input[name=slug]", "demo-laptop2")
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**{reverse('event_detail', args=['demo-laptop2'])}")
    assert "赛事已导入" in page.content()
    page.screenshot(path=str(Path(settings_var_dir()) / "transfer-imported.png"), full_page=True)
    assert Event.objects.get(slug="demo-laptop2").pairs.count() == source.pairs.count()


def settings_var_dir():
    from django.conf import settings

    return settings.VAR_DIR
