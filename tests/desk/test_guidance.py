"""Issue 27 item 21: one guidance line where each question arises. On the console: which offences wait for the
chief referee's approval (read from the profile's sanction table); on the table page and the console once the
round is closed: where an appeal is filed, until when, and who decides it; on the table page while the hall
clock has not started: hands may be recorded all the same."""
import pytest
from django.utils import timezone, translation

from scoring.profile_store import latest_profile
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round  # noqa: F401
from tournament.clocks import services as cs
from tournament.competition import rounds
from tournament.desk import guidance
from tournament.models import Match


@pytest.mark.django_db
def test_the_offences_that_wait_for_the_chief_come_from_the_sanction_table():
    # union-games 二.4 作弊 (disqualification), 二.13 the 3rd signal (disqualification); 二.14 15 minutes
    # late is a forfeit at once (automatic), so not listed
    with translation.override("zh-hans"):   # the names in the page's language (name_en on an English page)
        names, nth = guidance.approval_offences(latest_profile("union-games"))
    assert names == ["传递违规信息", "作弊、偷牌"] and nth is None   # the console's order
    with translation.override("en"):
        assert guidance.approval_offences(latest_profile("union-games"))[0] == [
            "Passing illegal information", "Cheating, stealing cards"]
    # shenzhen-community 第十六条（四）: the 3rd violation in the round proposes a match loss
    _names, nth = guidance.approval_offences(latest_profile("shenzhen-community"))
    assert nth == 3
    with translation.override("zh-hans"):
        line = guidance.approval_line(latest_profile("shenzhen-community"))
    assert "须经裁判长核准" in line and "第3次违例" in line


def _table(rnd):
    match = Match.objects.filter(round=rnd).order_by("table").first()
    Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED)
    return match


@pytest.mark.django_db
def test_the_table_page_says_hands_may_be_recorded_before_the_clock_starts(client, chief):  # noqa: F811
    rnd = make_round(tables=1)
    match = _table(rnd)
    page = client.get(f"/tables/{match.pk}/").content.decode()
    line = page.split('id="guidance-clock"')[1].split("</p>")[0]
    assert "hidden" not in line.split(">")[0] and "照样可以记录" in line
    assert 'id="guidance-approval"' not in page            # the offences are the console's
    cs.start_clock(rnd, chief)
    page = client.get(f"/tables/{match.pk}/").content.decode()
    assert page.split('id="guidance-clock"')[1].split(">")[0].strip().endswith("hidden")


@pytest.mark.django_db
def test_a_profile_without_a_time_limit_has_no_clock_to_wait_for(client):
    rnd = make_round(profile_slug="company-league", tables=1)
    match = _table(rnd)
    page = client.get(f"/tables/{match.pk}/").content.decode()
    assert page.split('id="guidance-clock"')[1].split(">")[0].strip().endswith("hidden")


@pytest.mark.django_db
def test_the_console_names_the_offences_and_a_closed_round_says_where_to_appeal(client, chief):  # noqa: F811
    rnd = make_round(profile_slug="union-games", tables=1)
    match = _table(rnd)
    client.force_login(chief)
    console = client.get(f"/tables/{match.pk}/console/").content.decode()
    approval = console.split('id="guidance-approval"')[1].split("</p>")[0]
    assert "作弊、偷牌" in approval and "传递违规信息" in approval and "迟到" not in approval
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=match.ns,
                                             finished_at=timezone.now())
    rounds.close_round(rnd, chief)
    for url in (f"/tables/{match.pk}/", f"/tables/{match.pk}/console/"):
        page = client.get(url).content.decode()
        appeal = page.split('id="guidance-appeal"')[1].split("</p>")[0]
        # union-games 二.5: to the arbitration group, no time limit written
        assert "提出申诉" in appeal and "仲裁组" in appeal and "本规则不限时" in appeal, url
        assert 'id="guidance-clock"' not in page and 'id="guidance-approval"' not in page
    assert "/console/" in client.get(f"/tables/{match.pk}/").content.decode().split('id="guidance-appeal"')[1] \
        .split("</p>")[0]
