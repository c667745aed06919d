"""Input hygiene (issue 13, last paragraph): one length limit for the form and the import, the template's
example row, a missing team reported with the other errors, deleting a withdrawn entry that never played."""
import datetime as dt

import pytest

from common.errors import ConflictError
from scoring.profile_store import latest_profile
from tests.tournament.test_import_export import GOOD, failed, xlsx
from tournament.entries import cleanup
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as svc
from tournament.entries.forms import PairForm
from tournament.entries.spreadsheets import EXAMPLE_ROW, import_entries
from tournament.models import Event, Match, Player, Round, Stage


@pytest.fixture
def event(db):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug="hyg", name="hyg", start_date=day, end_date=day,
                                profile=latest_profile("shenzhen-community"))


def test_a_300_character_name_is_refused_by_the_import_as_by_the_form(event):
    long = "长" * 300
    rows = [[long, *GOOD[0][1:]], [GOOD[1][0], long, *GOOD[1][2:]]]
    errors = failed(event, xlsx(rows), "e.xlsx")
    assert [(e.row, e.column) for e in errors] == [(2, "单位"), (3, "对名")]
    assert all("最多100字" in e.message and "300" in e.message for e in errors)
    form = PairForm({"unit": long, "player1": "甲", "gender1": "M", "player2": "乙", "gender2": "F"})
    assert not form.is_valid() and "unit" in form.errors
    assert event.pairs.count() == 0


def test_the_templates_example_row_is_not_imported(event):
    errors = failed(event, xlsx([GOOD[0], EXAMPLE_ROW[:11]]), "e.xlsx")
    assert len(errors) == 1 and errors[0].row == 3 and "示例行" in errors[0].message
    assert event.pairs.count() == 0


def test_rows_missing_a_team_are_reported_with_the_other_errors(db):
    """003: a union-games event is a team event (3 pairs, 1 women's pair, 1 reserve per team)."""
    day = dt.date(2026, 12, 5)
    union = Event.objects.create(slug="u2", name="u2", start_date=day, end_date=day,
                                 profile=latest_profile("union-games"))
    rows = [["甲", "甲1", "男1a", "男", "", "男1b", "男", "", "", "", ""],           # no team
            ["甲", "甲2", "男2a", "不详", "", "男2b", "男", "", "", "甲队", ""]]     # a bad gender
    errors = failed(union, xlsx(rows), "e.xlsx")
    assert (2, "队伍") in [(e.row, e.column) for e in errors] and (3, "性别1") in [(e.row, e.column) for e in errors]
    assert any("团体赛" in e.message for e in errors)


def test_a_withdrawn_entry_that_never_played_can_be_deleted_and_its_name_is_free(event, client, make_user):
    import_entries(event, xlsx(GOOD), "e.xlsx")
    pair = event.pairs.get(name="甲一队")
    with pytest.raises(ConflictError):
        cleanup.delete_withdrawn_pair(event, pair)                  # still active
    entry_pairs.withdraw_pair(pair)
    organiser = make_user("organiser")
    client.force_login(organiser)
    assert "释放名称" in client.get(f"/manage/{event.slug}/entries/").content.decode()
    client.post(f"/manage/{event.slug}/entries/{pair.pk}/delete/")
    assert not event.pairs.filter(name="甲一队").exists() and not Player.objects.filter(name="张三").exists()
    entry_pairs.add_pair(event, svc.PairData(unit="甲", name="甲一队", seed=None, team="", reserve=False,
                                     player1=svc.PlayerData("张三", "男"), player2=svc.PlayerData("李四", "女")))


def test_a_withdrawn_entry_that_was_drawn_stays(event):
    import_entries(event, xlsx(GOOD), "e.xlsx")
    a, b = event.pairs.get(name="甲一队"), event.pairs.get(name="乙一队")
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="s")
    Match.objects.create(round=Round.objects.create(stage=stage, number=1), table=1, ns=a, ew=b, profile=event.profile)
    entry_pairs.withdraw_pair(a)
    with pytest.raises(ConflictError):
        cleanup.delete_withdrawn_pair(event, a)
