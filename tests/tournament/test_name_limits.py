"""Names are limited and their spaces normalised the same way in the form, the import and the API (issue 27
item 5): a person's name at most 40 characters, a unit, team or pair name at most 100 (so two of the longest
players' names make a default pair name that fits: no error under an empty 对名 field); "杜　军" is "杜军"."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from common.names import clean_name
from tests.tournament.test_entries_pages import PAIR_POST, event, organiser  # noqa: F401  (fixtures)
from tests.tournament.test_import_export import failed, xlsx
from tournament import roles
from tournament.entries import limits
from tournament.entries import pairs as entry_pairs
from tournament.entries.services import EntryError, PairData, PlayerData

LONG = "欧" * (limits.PERSON + 1)


@pytest.mark.parametrize("typed, kept", [
    ("杜　军", "杜军"),                # a full-width space between two Chinese characters
    ("  杜 军 ", "杜军"),
    ("Li\u3000\u3000Ming", "Li Ming"),  # runs of spaces are one; a Latin name keeps it
    ("\t王 Anna ", "王 Anna"),
    ("甲单位　 二队", "甲单位二队"),
    (None, ""),
])
def test_spaces_are_normalised(typed, kept):
    assert clean_name(typed) == kept


def test_the_service_stores_the_normalised_names(event):  # noqa: F811
    pair = entry_pairs.add_pair(event, PairData("  甲　单位 ", PlayerData("杜　军", "M"), PlayerData("李  四", "F"), ""))
    pair.refresh_from_db()
    assert (pair.unit.name, pair.player1.name, pair.player2.name, pair.name) == ("甲单位", "杜军", "李四", "杜军/李四")


def test_two_of_the_longest_names_make_a_pair_name_that_fits(event):  # noqa: F811
    longest = "欧" * limits.PERSON
    pair = entry_pairs.add_pair(event, PairData("甲", PlayerData(longest, "M"), PlayerData(longest[:-1] + "阳", "M"),
                                                ""))
    assert len(pair.name) == 2 * limits.PERSON + 1 <= limits.LIMITS["name"]


def test_the_service_refuses_a_long_person_name_on_its_field(event):  # noqa: F811
    with pytest.raises(EntryError) as info:
        entry_pairs.add_pair(event, PairData("甲", PlayerData("张三", "M"), PlayerData(LONG, "M"), ""))
    assert info.value.field == "player2" and "40" in str(info.value)


def test_the_form_limits_the_field_and_says_so_next_to_it(organiser, event):  # noqa: F811
    """Issue 43 item 5: the page does not cut a long name silently (no maxlength): the server says so."""
    page = organiser.get(reverse("entries_add", args=[event.slug])).content.decode()
    assert "maxlength" not in page
    response = organiser.post(reverse("entries_add", args=[event.slug]), {**PAIR_POST, "player1": "欧" * 500,
                                                                          "name": ""})
    assert response.status_code == 200 and event.pairs.count() == 0
    errors = response.context["form"].errors
    assert "player1" in errors and "name" not in errors, errors
    assert errors["player1"][0] == "选手1太长：最多40字，收到500字。"


def test_the_import_refuses_the_row_naming_the_field(event):  # noqa: F811
    errors = failed(event, xlsx([["甲", "", "张" * 80, "男", "", "李四", "女", "", "", "", ""]]), "报名.xlsx")
    assert errors and "选手1" in str(errors[0]) + repr(errors[0]) and event.pairs.count() == 0


def test_the_api_refuses_it_too(event, make_user):  # noqa: F811
    client = APIClient()
    user = make_user(roles.ORGANISER)
    client.force_authenticate(user)
    body = {"unit": "甲", "player1": {"name": LONG, "gender": "M"}, "player2": {"name": "李四", "gender": "F"}}
    answer = client.post(f"/api/events/{event.slug}/entries/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"] == "选手1太长：最多40字。" and "player1" in answer.json()["field"]
    assert event.pairs.count() == 0
    body["player1"]["name"] = "杜　军"
    answer = client.post(f"/api/events/{event.slug}/entries/", body, format="json")
    assert answer.status_code == 201, answer.content
    assert event.pairs.get().player1.name == "杜军"
