"""Issue 26, item 2: an event file is anyone's to write (its checksum is no signature), so an import changes no
other event's rules and gives no role to an account the importing organiser may not give one.

* A profile in the file unlike the stored version of its slug and number is the imported event's own frozen
  copy: the next new event of another organiser still gets the shipped rules (``latest_profile``, the event
  form's choices, a version picked by number, ``load_profiles``).
* The upload page names the file's people; the organiser maps each to an account they may give roles
  (themselves, their events' staff; never a superuser, the Django admin's staff, a site organiser or another
  event's organiser) or to a new account. A forged answer is refused next to the field, in Chinese.
"""
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.models import RuleProfile
from scoring.profile_store import latest_profile, read_profile_files, sync_profiles
from tests.conftest import fresh_demo
from tournament.events.services import EventError, create_event, profile_choices, profile_versions, update_event
from tournament.models import Event, EventRole, Match, RefereeUnit
from tournament.staff.services import unique_username
from tournament.transfer import codec
from tournament.transfer.codec import TransferError
from tournament.transfer.people import mappable_accounts
from tournament.transfer.services import export_event, import_event

DAY = {"start_date": "2026-12-12", "end_date": "2026-12-12"}


@pytest.fixture
def demo(frozen_demo_for_module, db, frozen_now):
    return fresh_demo(frozen_demo_for_module)


def organiser(name):
    """An account that may create events (as a site administrator makes one), its password its own."""
    user = get_user_model().objects.create_user(unique_username(name), first_name=name, password="x-secret-1")
    user.user_permissions.add(Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    return user


def forge(payload, edit) -> str:
    """The export ``payload`` edited by ``edit(data)``, with its checksum made anew (as anyone can)."""
    forged = json.loads(codec.dumps(payload))
    edit(forged["data"])
    forged["sha256"] = codec.checksum(forged["data"])
    return codec.dumps(forged)


def file_user(data, user):
    return next(u for u in data["users"] if u["id"] == user.pk)


# --------------------------------------------------------------------------- rule profiles
@pytest.mark.parametrize("number", ["same", "next", "far"])
def test_a_forged_profile_under_a_shipped_slug_does_not_reach_another_organisers_next_event(demo, client, number):
    slug = demo.profile.slug
    shipped = read_profile_files()[slug][0]
    assert demo.profile.data == shipped  # the demo plays the shipped file's version

    def edit(data):
        row = next(p for p in data["profiles"] if p["id"] == demo.profile_id)
        row["data"]["timing"]["match_minutes"] = 600
        row["data"]["standings"]["win"] = 5
        row["version"] = {"same": row["version"], "next": row["version"] + 1, "far": 99}[number]

    importer = organiser("甲组委")
    imported = import_event(forge(export_event(demo), edit), slug="forged", user=importer).event

    other = organiser("乙组委")  # another organiser's next event, from the API as from the form
    client.force_login(other)
    answer = client.post("/api/events/", {"name": "乙赛", "profile": slug, **DAY}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["profile"], answer.json()["profile_version"]) == (slug, demo.profile.version)
    made = create_event(other, {"name": "乙赛二", "profile": slug, **DAY})
    assert made.profile_id == demo.profile_id and made.profile.data == shipped
    assert latest_profile(slug).pk == demo.profile_id
    assert sync_profiles() == []  # the shipped file is still its slug's latest: nothing to add

    copy = imported.profile  # the imported event keeps the file's rules, as its own frozen copy
    assert copy.pk != demo.profile_id and copy.imported and copy.data["standings"]["win"] == 5
    assert set(Match.objects.filter(round__stage__event=imported).values_list("profile_id", flat=True)) == {copy.pk}
    assert RuleProfile.objects.get(pk=demo.profile_id).data == shipped  # the stored version is untouched
    assert copy.pk not in {p.pk for p in profile_choices()} | {p.pk for p in profile_versions(slug)}
    with pytest.raises(EventError) as picked:  # nor may another event pick it by its number
        update_event(made, {"profile": slug, "profile_version": str(copy.version)})
    assert picked.value.field == "profile_version"
    made.refresh_from_db()
    assert made.profile_id == demo.profile_id

    # the imported event's own settings form offers its copy and keeps it
    assert copy in profile_versions(slug, imported) and slug in {p.slug for p in profile_choices(imported)}
    kept = update_event(imported, {"name": "改名", "profile": slug, "profile_version": str(copy.version)})
    assert kept.profile_id == copy.pk
    client.force_login(importer)
    page = client.get(reverse("event_edit", args=["forged"])).content.decode()
    assert f'value="{copy.version}" data-profile="{slug}" selected' in page


def test_a_profile_equal_to_the_stored_version_is_that_version(demo):
    imported = import_event(codec.dumps(export_event(demo)), slug="same", user=organiser("甲组委")).event
    assert imported.profile_id == demo.profile_id
    assert not RuleProfile.objects.filter(imported=True).exists()


def test_a_file_profile_under_a_new_slug_is_offered_to_no_one(demo):
    def edit(data):
        row = next(p for p in data["profiles"] if p["id"] == demo.profile_id)
        row["slug"], row["data"]["slug"] = "my-rules", "my-rules"

    imported = import_event(forge(export_event(demo), edit), slug="mine", user=organiser("甲组委")).event
    assert imported.profile.slug == "my-rules" and imported.profile.imported
    assert "my-rules" not in {p.slug for p in profile_choices()}
    with pytest.raises(EventError) as unknown:
        create_event(organiser("乙组委"), {"name": "乙赛", "profile": "my-rules", **DAY})
    assert unknown.value.field == "profile"


# --------------------------------------------------------------------------- people
@pytest.fixture
def hostile(demo):
    """A file naming a superuser (as the chief referee) and another event's organiser (as its organiser)."""
    User = get_user_model()
    root = User.objects.create_superuser("root", password="x-secret-1")
    rival = organiser("丙组委")
    create_event(rival, {"name": "丙赛", "profile": demo.profile.slug, **DAY})
    rival.user_permissions.clear()  # an organiser of an event only: still nobody else's to give roles
    chief = User.objects.get(username="chief")
    boss = User.objects.get(username="organiser")

    def edit(data):
        file_user(data, chief)["username"] = "root"
        file_user(data, boss)["username"] = rival.username

    return forge(export_event(demo), edit), root, rival, chief, boss


def roles_in(event, *users):
    return (list(EventRole.objects.filter(event=event, user__in=users))
            + list(RefereeUnit.objects.filter(event=event, user__in=users))
            + list(Match.referees.through.objects.filter(match__round__stage__event=event, user__in=users)))


def test_an_organisers_import_gives_no_role_to_a_superuser_or_another_events_organiser(hostile):
    text, root, rival, chief, boss = hostile
    importer = organiser("甲组委")
    report = import_event(text, slug="forged", user=importer)  # nobody mapped: new accounts for all
    assert roles_in(report.event, root, rival) == []
    assert report.event.staff.filter(role="chief_referee", user__username="root-2", user__first_name="李裁判长").exists()
    assert report.event.staff.filter(role="organiser", user=importer).exists()
    new_chief = get_user_model().objects.get(username="root-2")
    assert not new_chief.has_usable_password() and not new_chief.is_superuser and not new_chief.is_staff

    for account in (root, rival, boss):  # a superuser, another event's organiser, a site organiser
        with pytest.raises(TransferError) as refused:
            import_event(text, slug="forged2", user=importer, accounts={chief.pk: account.pk})
        assert refused.value.field == f"account-{chief.pk}"
    assert not Event.objects.filter(slug="forged2").exists()


def test_the_command_refuses_a_file_giving_a_superuser_a_role(hostile, tmp_path):
    text, root, _rival, _chief, _boss = hostile
    path = tmp_path / "forged.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match="root"):
        call_command("import_event", str(path), "--slug", "forged")
    assert not Event.objects.filter(slug="forged").exists() and not root.event_roles.exists()


def test_the_accounts_an_organiser_may_map(demo):
    User = get_user_model()
    importer = organiser("甲组委")
    mine = create_event(importer, {"name": "甲赛", "profile": demo.profile.slug, **DAY})
    colleague = User.objects.create_user("colleague", first_name="周裁判")
    site_organiser = organiser("吴组委")
    admin_staff = User.objects.create_user("desk", is_staff=True)
    root = User.objects.create_superuser("root2", password="x-secret-1")
    rival = User.objects.create_user("rival")
    for user, role in ((colleague, "chief_referee"), (site_organiser, "table_referee"),
                       (admin_staff, "table_referee"), (rival, "table_referee"), (root, "table_referee")):
        EventRole.objects.create(event=mine, user=user, role=role)
    EventRole.objects.create(event=demo, user=rival, role="organiser")  # organises an event the importer does not
    EventRole.objects.create(event=demo, user=colleague, role="table_referee")  # works elsewhere too: fine
    assert set(mappable_accounts(importer)) == {importer, colleague}
    everyone = set(mappable_accounts(root))  # a superuser: every event's staff but the powerful
    assert colleague in everyone and rival in everyone and not {root, site_organiser, admin_staff} & everyone


# --------------------------------------------------------------------------- the upload page
def upload(client, text, slug=""):
    return client.post(reverse("event_import"), {"file": SimpleUploadedFile("e.json", text.encode("utf-8")),
                                                 "slug": slug})


def confirm(client, slug="", **accounts):
    return client.post(reverse("event_import"), {"people": "1", "slug": slug, **accounts})


def test_the_upload_page_maps_the_files_people_and_refuses_the_rest_in_chinese(hostile, client):
    text, root, rival, chief, boss = hostile
    importer = organiser("甲组委")
    mine = create_event(importer, {"name": "甲赛", "profile": "union-games", **DAY})
    colleague = get_user_model().objects.create_user("colleague", first_name="周裁判")
    EventRole.objects.create(event=mine, user=colleague, role="chief_referee")
    client.force_login(importer)

    first = upload(client, text)
    page = first.content.decode()
    assert first.status_code == 200 and "李裁判长" in page and "裁判长" in page and "新账号" in page
    assert f'name="account-{chief.pk}"' in page and "周裁判" in page
    offered = {int(pk) for pk in re.findall(r'<option value="(\d+)"', page)}
    assert offered == {importer.pk, colleague.pk}  # never the superuser, the rival, the demo's site organiser
    assert "同名账号" in page  # the superuser's login name: said to be refused, a new account proposed
    assert not Event.objects.filter(slug="forged").exists()  # nothing imported yet

    for account in (root, rival, boss):  # a forged answer: refused next to the field, in Chinese, nothing saved
        refused = confirm(client, "forged", **{f"account-{chief.pk}": str(account.pk)})
        assert refused.status_code == 400
        assert "不能" in refused.content.decode() and not Event.objects.filter(slug="forged").exists()
    twice = confirm(client, "forged", **{f"account-{chief.pk}": str(colleague.pk),
                                         f"account-{boss.pk}": str(colleague.pk)})
    assert twice.status_code == 400 and not Event.objects.filter(slug="forged").exists()
    taken = confirm(client, "demo")
    assert taken.status_code == 400 and "新的网址" in taken.content.decode()

    done = confirm(client, "forged", **{f"account-{chief.pk}": str(colleague.pk), f"account-{boss.pk}": "new"})
    assert done.status_code == 302
    event = Event.objects.get(slug="forged")
    assert roles_in(event, root, rival) == []
    assert event.staff.filter(user=colleague, role="chief_referee").exists()
    assert event.staff.filter(role="organiser", user=importer).exists()
    assert confirm(client, "forged-again").status_code == 400  # the stored file is gone with the import


def label_of(page, name) -> str:
    """The ``<label>`` holding the form field ``name`` (its input or select and the refusal shown beside it)."""
    found = re.search(r'<label>(?:(?!</label>).)*name="' + re.escape(name) + r'"(?:(?!</label>).)*</label>', page, re.S)
    assert found, name
    return found.group(0)


def test_a_refusal_is_shown_next_to_its_field_in_chinese(hostile, client, monkeypatch):
    from tournament.transfer import forms

    text, root, _rival, chief, boss = hostile
    client.force_login(organiser("甲组委"))
    url = reverse("event_import")
    missing = client.post(url, {"slug": "moved"})  # no file
    page = missing.content.decode()
    assert missing.status_code == 400 and '<p class="error">' not in page  # nothing above the form
    assert "请选择要上传的导出文件" in label_of(page, "file") and 'value="moved"' in label_of(page, "slug")
    too_long = client.post(url, {"file": SimpleUploadedFile("e.json", text.encode("utf-8")), "slug": "x" * 81})
    assert too_long.status_code == 400
    assert "网址只能包含小写字母、数字和连字符" in label_of(too_long.content.decode(), "slug")
    monkeypatch.setattr(forms, "MAX_UPLOAD", 1024)
    big = upload(client, text)
    assert big.status_code == 400 and "不是赛事导出文件" in label_of(big.content.decode(), "file")
    monkeypatch.undo()

    assert upload(client, text).status_code == 200
    forged = confirm(client, "forged", **{f"account-{chief.pk}": str(root.pk), f"account-{boss.pk}": "x"})
    page = forged.content.decode()
    assert forged.status_code == 400 and not Event.objects.filter(slug="forged").exists()
    for person in (chief, boss):  # each refused beside its own select, the address kept
        assert '<span class="error">不能给这个账号分配导入赛事的职务' in label_of(page, f"account-{person.pk}")
    assert 'value="forged"' in label_of(page, "slug") and "error" not in label_of(page, "slug")
    taken = confirm(client, "demo", **{f"account-{chief.pk}": "new"})  # the service's refusal, on its field
    page = taken.content.decode()
    assert taken.status_code == 400 and "新的网址" in label_of(page, "slug")
    assert '<option value="new" selected>' in label_of(page, f"account-{chief.pk}")  # the choice posted stays


def test_a_file_with_a_lone_surrogate_is_refused_not_a_500(demo, client):
    """A file upload is the one form that can carry a lone surrogate (a "\\ud800" escape in its JSON)."""
    forged = json.loads(codec.dumps(export_event(demo)))
    forged["data"]["tables"]["tournament.player"][0]["name"] = "张\ud800"
    text = json.dumps(forged)  # ASCII with the escape; no checksum can be made of it (no UTF-8 text holds it)
    assert "\\ud800" in text
    client.force_login(organiser("甲组委"))
    refused = upload(client, text)
    assert refused.status_code == 400 and "代理" in refused.content.decode()
    with pytest.raises(TransferError) as caught:
        import_event(text, slug="x")
    assert caught.value.field == "file"
