"""Friendly error pages: the reason in Chinese in the site's frame and a way on; JSON under /api/."""
import pytest

from tests.conftest import TEST_PASSWORD


@pytest.mark.django_db
def test_an_unknown_page_is_a_chinese_404_with_a_way_back(client):
    response = client.get("/no-such-page/")
    body = response.content.decode()
    assert response.status_code == 404 and "页面不存在" in body and "全部赛事" in body and "返回上一页" in body
    assert "Not Found" not in body


@pytest.mark.django_db
def test_an_unknown_api_path_answers_json(client):
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert response.json()["field"] is None and response.json()["detail"]


@pytest.mark.django_db
def test_a_forbidden_page_says_why_and_offers_the_login_when_logged_out(client, make_user):
    from tests.tournament.test_draws_support import make_event

    event = make_event(4, 2)
    response = client.get(f"/manage/{event.slug}/printouts/")
    assert response.status_code in (302, 403)     # organiser pages send anonymous visitors to the login
    referee = make_user("table_referee")
    client.login(username=referee.username, password=TEST_PASSWORD)
    response = client.get(f"/manage/{event.slug}/printouts/")
    body = response.content.decode()
    assert response.status_code == 403 and "您无权打开此页面" in body and "主办方" in body
    assert "403 Forbidden" not in body
