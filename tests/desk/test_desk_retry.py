"""The chief's desk keeps a decision's Idempotency-Key until a definitive answer (issue 17 item 3): an
approval the server committed before answering 500 is resent with the same key and applied once."""
import pytest

from rulings.models import Approval
from tests.conftest import login
from tests.desk.test_desk_browser import desk_round  # noqa: F401  (the fixture)
from tests.rulings.test_console_retry import SERVER_ERROR


@pytest.mark.browser
def test_an_approval_committed_before_a_500_is_applied_once(desk_round, live_server, page):  # noqa: F811
    rnd, tables, referee, chief = desk_round
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    keys = []

    def handle(route, request):
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:
            real = route.fetch()
            assert real.status == 200, real.text()        # approved on the server ...
            route.fulfill(status=500, content_type="application/json", body=SERVER_ERROR)  # ... shown a 500
        else:
            route.continue_()

    page.route("**/api/rulings/*/approval/", handle)
    page.locator("#approvals li[data-ruling] button.approve").click()
    dialog = page.locator("dialog.confirm-dialog")      # an approval that ends a match asks first (issue 43)
    dialog.locator("li:has-text('核准后')").wait_for()
    dialog.locator("button.confirm-yes").click()
    page.wait_for_selector("#approvals-empty:not([hidden])")
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    assert Approval.objects.count() == 1 and Approval.objects.get().approved
