"""An appeal decided after the winner's next match has begun, on the arbitration page in headless Chromium
(issue 27, item 3): the 409 says so and the page offers keeping the result; pressing it records the decision
with the result standing. union-games 二.5: the arbitration group decides. Screenshots in var/screens/."""
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User

from rulings import appeals, services
from rulings.models import AppealDecision
from scoring.replay_check import check_match
from tests.conftest import TEST_PASSWORD, login
from tests.rulings.test_appeal_after_match import _next, _stored
from tests.tournament.test_reserve_substitution import _first, knockout  # noqa: F401
from tournament import roles
from tournament.models import Match
from tournament.models.competition import describe_key

SCREENS = Path(os.environ.get("DJANGO_VAR_DIR", "var")) / "screens"


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_the_arbitration_page_offers_keeping_the_result(transactional_db, live_server, page, knockout,  # noqa: F811
                                                        size):
    event, stage, _reserves, users = knockout
    match = _first(stage)[0]
    late = services.record_ruling(match, users["chief"], "late", "NS", minutes=15)   # forfeit: EW go on
    match = _stored(match)
    following = _next(stage, match)
    Match.objects.filter(pk=following.pk).update(status=Match.Status.PLAYING, started_at=match.finished_at)
    appeal = appeals.file_appeal(late, users["chief"], "NS", "只迟到10分钟")
    arbiter = User.objects.create_user(username="arbiter-b", password=TEST_PASSWORD)
    arbiter.groups.add(Group.objects.get(name=roles.ARBITRATION))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    login(page, live_server, arbiter)
    page.goto(f"{live_server.url}/manage/{event.slug}/arbitration/")
    card = page.locator(f'article[data-appeal="{appeal.pk}"]')
    assert card.locator("button.result-stands").is_hidden()
    card.locator("input[name=reason]").fill("迟到不足15分钟")
    card.locator("button.reverse").click()
    card.locator("button.result-stands").wait_for(state="visible")
    error = card.locator("[data-error]").inner_text()
    assert describe_key(following.bracket_key) in error and str(match.winner) in error, error
    assert not AppealDecision.objects.exists()
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"appeal-result-stands-{size[0]}.png"), full_page=True)
    with page.expect_navigation():                     # decided: the page reloads
        card.locator("button.result-stands").click()
    decision = AppealDecision.objects.get()
    assert (decision.outcome, decision.result_stands) == ("reversed", "EW")
    stored = _stored(match)
    assert stored.winner_id == match.winner_id and check_match(stored) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
