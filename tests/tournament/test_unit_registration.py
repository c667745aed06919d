"""Issue 32: units register through private links. The checks are the import's, a link sees and changes only
its own unit, a guessed or revoked link is a 404 (counted like a failed login), the deadline makes links
read-only, approval makes normal entries, a change after submission needs approval again, history is kept."""
import datetime as dt
import io
import itertools

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from openpyxl import load_workbook

from infra import auth, clock
from infra.appendonly import AppendOnlyError
from scoring.profile_store import latest_profile
from tournament import roles
from tournament.entries import limits, registration_links
from tournament.entries import registration as reg
from tournament.entries.forms import GONE_LINK
from tournament.entries.pairs import add_pair
from tournament.entries.services import PairData, PlayerData, check_entries_ready
from tournament.entries.views.register import LINK_NAME
from tournament.models import Draw, Event, Pair, UnitEntryVersion, UnitLink

NOW = dt.datetime(2026, 11, 20, 9, 0, tzinfo=dt.UTC)
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _no_link_lockout():
    """The cache outlives a test: start each with no link misses counted (a new lockout epoch)."""
    auth.unlock(LINK_NAME)


@pytest.fixture
def event(db):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug="union-reg", name="职工运动会", start_date=day, end_date=day,
                                profile=latest_profile("union-games"))


def team_rows(prefix, women=True):
    """Four pairs for union-games (3 regular, the first a women's pair unless ``women`` is False, 1 reserve)."""
    rows = []
    for i in range(4):
        female = women and i == 0
        rows.append({"player1": f"{prefix}甲{i}", "gender1": "F" if female else "M", "phone1": "",
                     "player2": f"{prefix}乙{i}", "gender2": "F" if female else "M", "phone2": ""})
    return rows


def post_data(rows):
    return {f"p{i}-{k}": v for i, row in enumerate(rows) for k, v in row.items()}


def link_rows(link, rows):
    return reg.rows_from(post_data(rows), link)


@pytest.fixture
def links(event):
    return {name: registration_links.create_link(event, name, phone=f"1380000000{n}") for n, name in enumerate(("一厂", "二厂", "三厂"))}


def test_the_link_is_a_hashed_random_key_and_a_wrong_or_revoked_one_is_404(client, event, links):
    link, key = links["一厂"]
    assert len(key) >= 32 and key not in link.digest and link.digest == registration_links.digest(key)
    assert client.get(reverse("unit_register", args=[key])).status_code == 200
    assert client.get(reverse("unit_register", args=[key[:-1] + ("A" if key[-1] != "A" else "B")])).status_code == 404
    registration_links.revoke(link)
    assert client.get(reverse("unit_register", args=[key])).status_code == 404
    assert client.post(reverse("unit_register_check", args=[key]), {}).status_code == 404


def test_guessing_links_is_slowed_like_failed_logins_but_never_the_right_key(client, settings, event, links):
    """Issue 46 item 4: the lock on guesses also locked the real link from that address for 15 minutes, so a
    unit behind the same NAT as a guesser could not open its own page. Only the guesses are slowed."""
    settings.LOGIN_FAILURE_LIMIT = 3
    _link, key = links["二厂"]
    for n in range(3):
        assert client.get(reverse("unit_register", args=[f"guess{n}"])).status_code == 404
    slowed = client.get(reverse("unit_register", args=["guess3"]))
    assert slowed.status_code == 429 and int(slowed["Retry-After"]) > 0
    assert client.post(reverse("unit_register_check", args=["guess4"]), {}).status_code == 429
    # the unit next door, same address: its own page and its check work at once
    neighbour = Client()
    assert neighbour.get(reverse("unit_register", args=[key])).status_code == 200
    assert neighbour.post(reverse("unit_register_check", args=[key]), {}).status_code == 200
    assert client.get(reverse("unit_register", args=["guess5"])).status_code == 429   # still slowed after it


def test_every_link_sees_and_changes_only_its_own_unit(client, event, links):
    for name, (link, _key) in links.items():
        reg.save(link, link_rows(link, team_rows(name)))
    for name, (link, key) in links.items():
        page = client.get(reverse("unit_register", args=[key])).content.decode()
        assert f"{name}甲1" in page
        for other in links:
            if other != name:
                assert other not in page and f"{other}甲1" not in page
        # a post naming another unit's fields or ids only ever writes this link's unit
        data = {**post_data(team_rows(name + "新")), "unit": "二厂" if name != "二厂" else "一厂", "link": 1,
                "action": "save"}
        client.post(reverse("unit_register", args=[key]), data)
    for name, (link, _key) in links.items():
        latest = reg.draft(link)
        assert all(row["player1"].startswith(name + "新") for row in latest)
        assert UnitEntryVersion.objects.filter(link=link).count() == 2
    assert not Pair.objects.exists()   # drafts are not entries until approved


def test_a_conflict_with_another_units_player_does_not_name_it(event, links):
    one, two = links["一厂"][0], links["二厂"][0]
    first = team_rows("一厂")
    first[1]["phone1"] = "13912345678"
    reg.save(one, link_rows(one, first), submit=True)
    reg.approve(one, None)
    rows = team_rows("二厂")
    rows[1]["player1"], rows[1]["phone1"] = "一厂甲1", "13912345678"   # the same person (the phone decides)
    problems = reg.check(two, link_rows(two, rows))
    assert [(p.row, p.field) for p in problems] == [(1, "player1")]
    assert "一厂" not in problems[0].message.replace("一厂甲1", "")


def test_a_pair_name_another_unit_uses_is_said_on_the_check(client, league, make_user):
    """Issue 46 item 5: the unit's check accepted a pair whose name (its players' names) another unit's pair
    already has; the organiser's approval then refused it (add_pair: the name is taken)."""
    boss = make_user(roles.ORGANISER)
    add_pair(league, PairData("二厂", PlayerData("A甲", "M"), PlayerData("A乙", "M")))   # namesakes elsewhere
    link, key = registration_links.create_link(league, "一厂")
    rows = link_rows(link, open_rows("B", "A"))
    problems = reg.check(link, rows)
    assert [(p.row, p.field) for p in problems] == [(1, "player1")]
    assert "A甲/A乙" in problems[0].message and "二厂" not in problems[0].message
    answer = client.post(reverse("unit_register_check", args=[key]), post_data(open_rows("B", "A")))
    assert [p["row"] for p in answer.json()["problems"]] == [1]
    with pytest.raises(ValueError):
        reg.save(link, rows, submit=True)
    # the unit's own pairs from its last approval do not count: submitting them again is no conflict
    reg.save(link, link_rows(link, open_rows("B")), submit=True)
    reg.approve(link, boss)
    assert reg.check(link, link_rows(link, open_rows("B", "C"))) == []


def test_the_checks_are_the_imports(event, links):
    link = links["一厂"][0]
    rows = team_rows("一厂")
    rows[0]["player1"] = "长" * (limits.PERSON + 1)
    rows[2]["gender2"] = "X"
    problems = reg.check(link, link_rows(link, rows))
    assert {(p.row, p.field) for p in problems} == {(0, "player1"), (2, "gender2")}
    with pytest.raises(ValueError) as caught:   # the import's own message for the same text
        add_pair(event, PairData("一厂", PlayerData(rows[0]["player1"], "F"), PlayerData("乙", "F")))
    assert str(caught.value) in [p.message for p in problems]
    no_women = team_rows("一厂", women=False)
    [problem] = reg.check(link, link_rows(link, no_women))
    assert problem.row is None and "女" in problem.message or "women" in problem.message
    with pytest.raises(ValueError):
        reg.save(link, link_rows(link, no_women), submit=True)
    reg.save(link, link_rows(link, no_women))   # a draft may be incomplete
    assert reg.status(reg.versions(link)) == reg.IN_PROGRESS


def test_a_phone_when_the_event_asks(event, links):
    registration_links.set_window(event, None, asks_phone=True)
    link = links["一厂"][0]
    problems = reg.check(link, link_rows(link, team_rows("一厂")))
    assert {p.field for p in problems} == {"phone1", "phone2"}


def test_the_deadline_makes_links_read_only_and_a_reopened_unit_may_change(client, event, links):
    registration_links.set_window(event, NOW, asks_phone=False)
    link, key = links["三厂"]
    with clock.frozen(NOW - dt.timedelta(minutes=1)):
        reg.save(link, link_rows(link, team_rows("三厂")))
    with clock.frozen(NOW + dt.timedelta(minutes=1)):
        response = client.post(reverse("unit_register", args=[key]),
                               {**post_data(team_rows("晚到")), "action": "submit"})
        assert response.status_code == 200 and "disabled" in response.content.decode()
        assert reg.draft(link)[0]["player1"] == "三厂甲0" and len(reg.versions(link)) == 1
        registration_links.reopen(link)
        reg.save(link, link_rows(link, team_rows("晚到")), submit=True)
    assert reg.status(reg.versions(link)) == reg.SUBMITTED


def test_approval_makes_entries_and_a_change_needs_approval_again(event, links, make_user):
    boss = make_user(roles.ORGANISER)
    link = links["一厂"][0]
    reg.save(link, link_rows(link, team_rows("一厂")), submit=True)
    first = reg.approve(link, boss)
    assert len(first) == 4 and {p.unit.name for p in first} == {"一厂"}
    assert check_entries_ready(event) is None
    changed = team_rows("一厂")
    changed[2]["player2"] = "一厂换人"
    reg.save(link, link_rows(link, changed))
    link.refresh_from_db()
    history = reg.versions(link)
    assert reg.status(history) == reg.CHANGED
    assert reg.changes(link, history) == (
        [reg.describe(link_rows(link, changed)[2])], [reg.describe(link_rows(link, team_rows("一厂"))[2])])
    with pytest.raises(ValueError):
        reg.approve(link, boss)   # not submitted again yet
    reg.save(link, link_rows(link, changed), submit=True)
    second = reg.approve(link, boss)
    names = set(Pair.objects.filter(unit__name="一厂", status="active").values_list("player2__name", flat=True))
    assert "一厂换人" in names and "一厂乙2" not in names and len(second) == 4
    assert {p.pk for p in first} & {p.pk for p in second} == {p.pk for p in first if p.player2.name != "一厂乙2"}
    actions = [v.action for v in reg.versions(link)]
    assert actions == ["submitted", "approved", "saved", "submitted", "approved"]
    with pytest.raises(AppendOnlyError):
        reg.versions(link)[0].delete()


def test_the_organiser_pages_are_the_organisers(client, event, links, make_user):
    key = links["一厂"][1]
    pages = [reverse("entries_links", args=[event.slug]), reverse("entries_links_missing", args=[event.slug])]
    for url in pages:
        assert client.get(url).status_code == 302          # to the login page
    client.force_login(make_user())
    for url in pages:
        assert client.get(url).status_code in (403, 404)
    assert client.post(reverse("entries_link_card", args=[event.slug]), {"key": key}).status_code in (403, 404)
    client.force_login(make_user(roles.ORGANISER))
    for url in pages:
        assert client.get(url).status_code == 200
    card = client.post(reverse("entries_link_card", args=[event.slug]), {"key": key})
    assert card.status_code == 200 and card.content.startswith(b"%PDF")
    other = Event.objects.create(slug="other", name="别的", start_date=event.start_date, end_date=event.end_date,
                                 profile=event.profile)
    assert client.post(reverse("entries_link_card", args=[other.slug]), {"key": key}).status_code == 404


def test_units_not_submitted_with_their_phones_as_xlsx(client, event, links, make_user):
    link = links["一厂"][0]
    reg.save(link, link_rows(link, team_rows("一厂")), submit=True)
    client.force_login(make_user(roles.ORGANISER))
    page = client.get(reverse("entries_links_missing", args=[event.slug])).content.decode()
    assert "二厂" in page and "13800000001" in page and "一厂" not in page.split("<main")[-1].split("entry-list")[-1]
    sheet = client.get(reverse("entries_links_missing", args=[event.slug]), {"format": "xlsx"})
    rows = list(load_workbook(io.BytesIO(sheet.content)).active.iter_rows(values_only=True))
    assert [r[0] for r in rows[1:]] == ["二厂", "三厂"] and rows[1][2] == "13800000001"


# --------------------------------------------------------------------------- review: what an approval replaces
@pytest.fixture
def league(db):
    """An event with no team rule (company-league): a unit's link may enter up to OPEN_PAIRS pairs."""
    day = dt.date(2026, 12, 6)
    return Event.objects.create(slug="league-reg", name="公司联赛", start_date=day, end_date=day,
                                profile=latest_profile("company-league"))


def open_rows(*names):
    return [{"player1": f"{n}甲", "gender1": "M", "phone1": "", "player2": f"{n}乙", "gender2": "M", "phone2": ""}
            for n in names]


def active_pairs(event, unit="一厂"):
    return set(Pair.objects.filter(event=event, unit__name=unit, status="active").values_list("player1__name",
                                                                                               flat=True))


def test_approval_replaces_only_what_the_links_approvals_entered_not_the_organisers_pairs(league, make_user):
    boss = make_user(roles.ORGANISER)
    link, _key = registration_links.create_link(league, "一厂")
    reg.save(link, link_rows(link, open_rows("A", "B")), submit=True)
    first = reg.approve(link, boss)
    assert reg.versions(link)[-1].pair_ids == [p.pk for p in first]     # the approval names what it entered
    by_hand = add_pair(league, PairData("一厂", PlayerData("手录甲", "M"), PlayerData("手录乙", "M")))
    reg.save(link, link_rows(link, open_rows("A", "C")), submit=True)    # B out, C in; the hand pair not listed
    reg.approve(link, boss)
    assert active_pairs(league) == {"A甲", "C甲", "手录甲"}
    assert Pair.objects.get(pk=by_hand.pk).status == "active"
    reg.save(link, link_rows(link, open_rows("C")), submit=True)
    reg.approve(link, boss)
    assert active_pairs(league) == {"C甲", "手录甲"}
    assert [v.action for v in reg.versions(link)] == ["submitted", "approved"] * 3   # every step kept


def test_a_submitted_pair_the_organiser_entered_is_not_doubled_and_stays_the_organisers(league, make_user):
    boss = make_user(roles.ORGANISER)
    link, _key = registration_links.create_link(league, "一厂")
    by_hand = add_pair(league, PairData("一厂", PlayerData("A甲", "M"), PlayerData("A乙", "M")))
    reg.save(link, link_rows(link, open_rows("A", "B")), submit=True)
    entered = reg.approve(link, boss)
    assert by_hand in entered and Pair.objects.filter(event=league, status="active").count() == 2
    assert by_hand.pk not in reg.versions(link)[-1].pair_ids
    reg.save(link, link_rows(link, open_rows("B")), submit=True)
    reg.approve(link, boss)
    assert active_pairs(league) == {"A甲", "B甲"}      # dropping it from the list does not remove the organiser's


def test_an_approval_that_cannot_be_entered_changes_nothing(league, make_user):
    boss = make_user(roles.ORGANISER)
    link, _key = registration_links.create_link(league, "一厂")
    reg.save(link, link_rows(link, open_rows("A", "B")), submit=True)
    reg.approve(link, boss)
    rows = open_rows("C", "D")
    rows[1]["player1"] = "手录甲"
    reg.save(link, link_rows(link, rows), submit=True)
    # meanwhile the organiser enters a pair with that player by hand: the import refuses the submission now
    add_pair(league, PairData("一厂", PlayerData("手录甲", "M"), PlayerData("手录乙", "M")))
    before = set(Pair.objects.filter(event=league).values_list("pk", "status"))
    with pytest.raises(ValueError):
        reg.approve(link, boss)
    assert set(Pair.objects.filter(event=league).values_list("pk", "status")) == before   # nothing half-saved
    history = reg.versions(link)
    assert reg.status(history) == reg.SUBMITTED and history[-1].action == "submitted"


def test_an_approval_stored_without_its_pairs_owns_the_pairs_it_approved(league, make_user):
    """Approvals stored before they named their pairs (pair_ids None): the unit's pairs equal to them."""
    boss = make_user(roles.ORGANISER)
    link, _key = registration_links.create_link(league, "一厂")
    rows = link_rows(link, open_rows("A"))
    for data in open_rows("A"):
        add_pair(league, PairData("一厂", PlayerData(data["player1"], "M"), PlayerData(data["player2"], "M")))
    add_pair(league, PairData("一厂", PlayerData("手录甲", "M"), PlayerData("手录乙", "M")))
    UnitEntryVersion.objects.create(link=link, number=1, action="submitted", pairs=rows, at=NOW)
    UnitEntryVersion.objects.create(link=link, number=2, action="approved", pairs=rows, at=NOW, by_user=boss)
    reg.save(link, link_rows(link, open_rows("B")), submit=True)
    reg.approve(link, boss)
    assert active_pairs(league) == {"B甲", "手录甲"}


def test_the_organiser_sends_an_entry_back_and_the_unit_submits_again(client, event, links, make_user):
    boss = make_user(roles.ORGANISER)
    link, key = links["一厂"]
    reg.save(link, link_rows(link, team_rows("一厂")), submit=True)
    client.force_login(boss)
    url = reverse("entries_links", args=[event.slug])
    client.post(url, {"action": "refuse", "link": link.pk, "note": "女队员电话缺失"})
    history = reg.versions(link)
    assert reg.status(history) == reg.REFUSED and history[-1].note == "女队员电话缺失"
    assert history[-1].by_user == boss and not Pair.objects.exists()
    with pytest.raises(ValueError):
        reg.approve(link, boss)
    assert link in [r.link for r in reg.not_submitted(event)]
    page = client.get(reverse("unit_register", args=[key])).content.decode()
    assert 'id="reg-refused"' in page and "女队员电话缺失" in page
    reg.save(link, link_rows(link, team_rows("一厂")), submit=True)
    assert len(reg.approve(link, boss)) == 4


def test_the_entries_list_shows_each_units_registration_status(client, event, links, make_user):
    boss = make_user(roles.ORGANISER)
    one, two, three = (links[n][0] for n in ("一厂", "二厂", "三厂"))
    reg.save(one, link_rows(one, team_rows("一厂")), submit=True)
    reg.approve(one, boss)
    reg.save(two, link_rows(two, team_rows("二厂")), submit=True)
    reg.save(three, link_rows(three, team_rows("三厂")), submit=True)
    reg.refuse(three, boss, "")
    for i, row in enumerate(team_rows("手录")):
        add_pair(event, PairData("四厂", PlayerData(row["player1"], row["gender1"]),
                                 PlayerData(row["player2"], row["gender2"]), team="四厂", reserve=i == 3))
    client.force_login(boss)
    page = client.get(reverse("entries_list", args=[event.slug])).content.decode()

    def tag(unit):
        section = page.split(f'data-unit="{unit}"')[1].split("</h2>")[0]
        return section.split("reg-status")[1]
    assert "reg-approved" in tag("一厂") and "已核准" in tag("一厂")
    assert "reg-submitted" in tag("二厂")            # listed though it has no entries yet
    assert "reg-refused" in tag("三厂") and "已退回" in tag("三厂")
    assert "reg-none" in tag("四厂")


def test_the_card_is_printed_again_with_a_new_link_and_the_old_one_stops(client, event, links, make_user):
    boss = make_user(roles.ORGANISER)
    link, old_key = links["一厂"]
    reg.save(link, link_rows(link, team_rows("一厂")))
    client.force_login(boss)
    page = client.post(reverse("entries_links", args=[event.slug]), {"action": "reissue", "link": link.pk})
    text = page.content.decode()
    assert page.status_code == 200 and 'id="reissued"' in text and "<svg" in text
    new_key = text.split('name="key" value="')[1].split('"')[0]
    assert new_key != old_key and new_key not in registration_links.find_link(new_key).digest
    assert client.get(reverse("unit_register", args=[old_key])).status_code == 404
    assert client.post(reverse("entries_link_card", args=[event.slug]), {"key": old_key}).status_code == 404
    card = client.post(reverse("entries_link_card", args=[event.slug]), {"key": new_key})
    assert card.status_code == 200 and card.content.startswith(b"%PDF")
    unit_page = client.get(reverse("unit_register", args=[new_key])).content.decode()
    assert "一厂甲1" in unit_page                    # the draft and its history stay with the unit's link
    assert registration_links.find_link(new_key).pk == link.pk and len(reg.versions(link)) == 1


def test_the_unit_is_told_as_it_types_when_a_player_is_in_the_organisers_pair(league, make_user):
    boss = make_user(roles.ORGANISER)
    link, _key = registration_links.create_link(league, "一厂")
    add_pair(league, PairData("一厂", PlayerData("A甲", "M"), PlayerData("A乙", "M"), name="一厂老将"))
    assert reg.check(link, link_rows(link, open_rows("A", "B"))) == []   # the organiser's pair as it is: fine
    rows = open_rows("B")
    rows[0]["player1"] = "A甲"                               # one of its players in another pair: told now
    problems = reg.check(link, link_rows(link, rows))
    assert [(p.row, p.field) for p in problems] == [(0, "player1")] and "组委会" in problems[0].message
    reg.save(link, link_rows(link, open_rows("B", "A")), submit=True)
    entered = reg.approve(link, boss)
    assert len(entered) == 2 and Pair.objects.filter(event=league, status="active").count() == 2


# --------------------------------------------------------------------------- issue 33: the links page's forms
def field_error(page, field):
    """The text of the page's error next to ``field`` (``data-field-error``), or None."""
    marker = f'data-field-error="{field}">'
    return page.split(marker, 1)[1].split("</", 1)[0] if marker in page else None


def test_a_malformed_closing_time_is_refused_next_to_it_and_the_window_stays(client, event, links, make_user):
    client.force_login(make_user(roles.ORGANISER))
    url = reverse("entries_links", args=[event.slug])
    registration_links.set_window(event, NOW, asks_phone=False)
    for typed in ("2026-02-30T09:00", "明天上午", "2026-12-05T25:00"):
        response = client.post(url, {"action": "window", "closes_at": typed, "asks_phone": "on"})
        page = response.content.decode()
        assert response.status_code == 200 and field_error(page, "closes_at") == "请输入时间，例如 2026-12-05 09:30。"
        assert f'name="closes_at" value="{typed}"' in page and 'name="asks_phone" checked' in page  # as typed
        window = registration_links.window(event)
        assert (window.closes_at, window.asks_phone) == (NOW, False)                  # nothing saved
    client.post(url, {"action": "window", "closes_at": "2026-12-01T18:00"})
    assert registration_links.window(event).closes_at == dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)   # the site's time zone
    client.post(url, {"action": "window", "closes_at": ""})
    assert registration_links.window(event).closes_at is None


def test_a_refused_new_link_is_said_next_to_its_field_as_typed(client, event, links, make_user):
    client.force_login(make_user(roles.ORGANISER))
    url = reverse("entries_links", args=[event.slug])
    page = client.post(url, {"action": "create", "unit": "一厂", "phone": "139"}).content.decode()
    assert field_error(page, "unit") == "“一厂”已有报名链接：请先作废再新建。" and 'id="created-link"' not in page
    assert 'name="unit" required value="一厂"' in page
    page = client.post(url, {"action": "create", "unit": "四厂", "phone": "1" * 31}).content.decode()
    assert field_error(page, "phone") == "电话过长（最多30位）。" and field_error(page, "unit") is None
    assert UnitLink.objects.filter(event=event).count() == 3                          # no link made

    page = client.post(url, {"action": "create", "unit": "四厂", "phone": "139"}).content.decode()
    assert 'id="created-link"' in page and 'name="unit" required value=""' in page


def test_an_unknown_link_or_a_long_reason_is_refused_next_to_it_and_nothing_changes(client, event, links, make_user):
    client.force_login(make_user(roles.ORGANISER))
    url = reverse("entries_links", args=[event.slug])
    link = links["一厂"][0]
    reg.save(link, link_rows(link, team_rows("一厂")), submit=True)
    gone = links["二厂"][0]
    registration_links.revoke(gone)
    for pk in (gone.pk, 10**6, "abc", "²", ""):
        for action in ("refuse", "approve", "revoke", "reissue"):
            response = client.post(url, {"action": action, "link": pk, "note": "缺电话"})
            page = response.content.decode()
            assert response.status_code == 200 and field_error(page, "link") == escape(GONE_LINK), (pk, action)
    assert [v.action for v in reg.versions(link)] == ["submitted"] and not Pair.objects.exists()
    page = client.post(url, {"action": "refuse", "link": link.pk, "note": "长" * 301}).content.decode()
    row = page.split(f'id="unit-{link.pk}"')[1].split("</form>")[0]
    assert field_error(row, "note") == "理由太长（最多 300 字）。" and f'value="{"长" * 301}"' in row
    assert [v.action for v in reg.versions(link)] == ["submitted"]                     # not sent back
    client.post(url, {"action": "refuse", "link": link.pk, "note": "缺电话"})
    assert reg.versions(link)[-1].note == "缺电话"


def test_a_refused_link_action_is_said_in_the_units_row(client, event, links, make_user):
    client.force_login(make_user(roles.ORGANISER))
    link = links["一厂"][0]
    page = client.post(reverse("entries_links", args=[event.slug]), {"action": "refuse", "link": link.pk}).content.decode()
    row = page.split(f'id="unit-{link.pk}"')[1].split("</form>")[0]
    assert "一厂：" in field_error(row, "link") and not reg.versions(link)


def test_a_locked_event_offers_no_window_or_new_link_and_no_links_is_said_so(client, event, links, make_user):
    client.force_login(make_user(roles.ORGANISER))
    page = client.get(reverse("entries_links", args=[event.slug])).content.decode()
    assert 'id="window-form"' in page and 'id="link-form"' in page
    Draw.objects.create(event=event, kind=Draw.Kind.GROUPS, seed="s", result={})   # the groups drawn: locked
    page = client.get(reverse("entries_links", args=[event.slug])).content.decode()
    assert 'class="notice locked"' in page and 'id="window-form"' not in page and 'id="link-form"' not in page
    fresh = Event.objects.create(slug="fresh", name="新赛", start_date=event.start_date, end_date=event.end_date,
                                 profile=event.profile)
    page = client.get(reverse("entries_links_missing", args=[fresh.slug])).content.decode()
    assert "还没有单位的报名链接。" in page and "所有单位均已提交" not in page
