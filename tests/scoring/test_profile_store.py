"""RuleProfile storage: validated JSON, versions in use frozen, "copy as new version" in the admin."""
import copy

import pytest
from django.core.exceptions import ValidationError

from scoring import profile_store as profile_store_
from scoring import services
from scoring.models import ProfileInUseError, RuleProfile
from tests.scoring.test_hands_support import match, referee  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def shenzhen(db):
    return profile_store_.latest_profile("shenzhen-community")


def unused_copy(profile, **changes):
    data = copy.deepcopy(profile.data)
    data.update(changes)
    return RuleProfile.objects.create(slug="my-rules", version=1, name="我的规则", data=data)


def test_invalid_json_is_refused_naming_the_key(shenzhen):
    data = copy.deepcopy(shenzhen.data)
    data["bottom"]["colour"] = "red"
    with pytest.raises(ValueError, match="bottom.colour"):
        RuleProfile.objects.create(slug="bad", version=1, name="坏", data=data)
    row = RuleProfile(slug="bad", version=1, name="坏", data={**shenzhen.data, "ladder": {"levels": ["2"], "start": "2"}})
    with pytest.raises(ValidationError) as info:
        row.full_clean()
    assert "ladder.levels" in str(info.value.message_dict["data"])
    assert not RuleProfile.objects.filter(slug="bad").exists()


def test_unused_version_can_be_edited(shenzhen):
    row = unused_copy(shenzhen)
    row.name = "我的规则（改）"
    row.save()
    assert RuleProfile.objects.get(pk=row.pk).name == "我的规则（改）"


def test_version_in_use_cannot_be_edited(shenzhen, match):
    assert match.profile == shenzhen and shenzhen.is_in_use
    shenzhen.data = {**shenzhen.data, "name": "改过的名字"}
    with pytest.raises(ProfileInUseError, match="已被赛事使用"):
        shenzhen.save()
    with pytest.raises(ValidationError):
        shenzhen.full_clean()
    assert RuleProfile.objects.get(pk=shenzhen.pk).data["name"] != "改过的名字"


def test_saving_an_unchanged_version_in_use_is_harmless(shenzhen, match):
    shenzhen.save()  # e.g. the admin's "save" without changes


def test_copy_as_new_version(shenzhen, match, make_user):
    user = make_user("organiser")
    new = shenzhen.copy_as_new_version(user=user)
    assert (new.slug, new.version, new.based_on, new.created_by) == (shenzhen.slug, shenzhen.version + 1, shenzhen, user)
    assert new.data == shenzhen.data and not new.is_in_use
    new.data = {**new.data, "name": "本届规则"}
    new.save()                                     # the copy is free to change
    assert profile_store_.latest_profile("shenzhen-community") == new


def test_sync_profiles_is_unchanged_by_validation(shenzhen):
    assert profile_store_.sync_profiles() == []          # files already stored: no new version


def test_engine_profile_cache_follows_the_stored_data(shenzhen):
    row = unused_copy(shenzhen)
    first = profile_store_.engine_profile(row)
    assert profile_store_.engine_profile(RuleProfile.objects.get(pk=row.pk)) is first
    row.data = {**row.data, "ladder": {"levels": ["2", "3", "4"], "start": "2"},
                "must_play": {"levels": [], "give_back": False}, "rank_captures": []}
    row.save()
    assert profile_store_.engine_profile(row).ladder == ("2", "3", "4")


# --- the admin ----------------------------------------------------------------------------------

@pytest.fixture
def admin_client(client, make_user):
    client.force_login(make_user(None, is_superuser=True, is_staff=True))
    return client


def test_admin_action_copies_as_new_version(admin_client, shenzhen):
    response = admin_client.post("/admin/scoring/ruleprofile/", {
        "action": "copy_as_new_version", "_selected_action": [shenzhen.pk]}, follow=True)
    assert response.status_code == 200
    new = RuleProfile.objects.get(slug=shenzhen.slug, version=shenzhen.version + 1)
    assert new.based_on == shenzhen and new.created_by is not None


def test_admin_refuses_to_edit_a_version_in_use(admin_client, shenzhen, match):
    import json

    url = f"/admin/scoring/ruleprofile/{shenzhen.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert "copy it as a new version" in page or "复制为新版本" in page
    data = {**shenzhen.data, "name": "改过的名字"}
    response = admin_client.post(url, {"slug": shenzhen.slug, "version": shenzhen.version, "name": shenzhen.name,
                                       "data": json.dumps(data, ensure_ascii=False), "source": shenzhen.source})
    assert response.status_code == 200                      # the form comes back with the error
    html = response.content.decode()
    assert "errornote" in html and ("copy it as a new version" in html or "复制为新版本" in html)
    assert RuleProfile.objects.get(pk=shenzhen.pk).data["name"] != "改过的名字"


def test_admin_shows_profile_errors_on_the_data_field(admin_client, shenzhen):
    import json

    row = unused_copy(shenzhen)
    data = {**row.data, "ladder": {"levels": ["2", "3"], "start": "Q"}}
    response = admin_client.post(f"/admin/scoring/ruleprofile/{row.pk}/change/", {
        "slug": row.slug, "version": row.version, "name": row.name,
        "data": json.dumps(data, ensure_ascii=False), "source": ""})
    assert response.status_code == 200 and "ladder.start" in response.content.decode()


def test_the_shared_copy_is_read_once_and_forgotten_when_a_version_is_saved(shenzhen, django_assert_num_queries):
    """A hand's write reads the match without its rule profile: the process's copy answers (one read per
    process), and a version saved (an unused one edited, a new one stored) makes the copies be read again."""
    other = unused_copy(shenzhen)
    first = profile_store_.shared_version(other.pk)
    with django_assert_num_queries(0):
        assert profile_store_.shared_version(other.pk) is first
    other.name = "改过的规则"
    other.save()
    with django_assert_num_queries(1):
        assert profile_store_.shared_version(other.pk).name == "改过的规则"
