"""Issue 43 (what to build, item 2), in the browser: every offence of every profile (and of each organiser reading
that changes a sanction) walked through the console's dialog on a 390 px phone, as a referee does it: the
offence, its option, minutes, cards or role, the side; the preview; an enabled 确认; what is stored is what the
preview said, and no offence code or profile key is shown. One live server, one login, one event per profile
and reading, a page reused from walk to walk (a new table only for a ladder, or once a ruling ended the match).
An escalation's reading (shenzhen 第十六条) is walked as a warning twice in a row. The same walks without a
browser, every path, every offence under every reading: ``test_offence_matrix.py``.
"""
import re

import pytest

from rulings.models import Ruling
from tests.conftest import login
from tests.rulings import offence_walks
from tournament.events import rule_choices
from tournament.models import Round
from tournament.records.ledger import ledger_for

PREVIEW = re.compile(r"^处罚预览：(?P<text>.*?)(?P<approval>（须裁判长核准）)?(\n|$)")


class Tables:
    """The tables of one event, opened in turn on the one page."""

    def __init__(self, page, base, make_match, referee, first):
        self.page, self.base, self.make_match, self.referee = page, base, make_match, referee
        self.round = Round.objects.select_related("stage__event").get(pk=first.round_id)
        self.number, self.match = 1, None

    def fresh(self):
        self.number += 1
        self.match = self.make_match(round=self.round, table=self.number)
        self.match.referees.add(self.referee)
        self.page.goto(f"{self.base}/tables/{self.match.pk}/console/")
        return self.match

    def usable(self):
        if self.match is None:
            return self.fresh()
        self.match.refresh_from_db()
        return self.fresh() if self.match.is_over else self.match


def _settled(page):
    """The preview answered for the inputs as they are now: 确认 enabled (it is disabled at every change)."""
    page.wait_for_selector("#confirm:enabled")
    return page.inner_text("#preview")


def step_through(page, match, step, words):
    """One pass through the dialog; returns the stored ruling and the preview's words."""
    page.click(f"button.offence[data-code={step.code}]")
    if page.locator("#declarer-field").count():   # no declarer yet: the referee names it (the stage may move)
        page.select_option("select[name=declarer]", "N")
    if step.choice is not None:
        page.check(f"#option-list input[value='{step.choice}']")
    if step.minutes is not None:
        page.fill("input[name=minutes]", str(step.minutes))
    if step.cards is not None:
        page.fill("input[name=cards]", str(step.cards))
    if step.role is not None:
        page.check(f"input[name=role][value={step.role}]")
    page.check("input[name=side][value=NS]")
    shown = _settled(page)
    offered = page.locator("#option-list input")
    if step.choice is None and step.pick and page.locator(f"#option-list input[value='{step.pick}']").count():
        if not page.is_checked(f"#option-list input[value='{step.pick}']"):
            page.check(f"#option-list input[value='{step.pick}']")
            shown = _settled(page)
    if step.choice is None and offered.count():   # options the preview named (the union's third signal)
        page.screenshot(path="var/test/console-learned-options.png", full_page=True)
    chosen = page.eval_on_selector_all("#option-list input:checked", "inputs => inputs.map(i => i.value)")
    assert not [w for w in words if re.search(rf"(?<![A-Za-z_]){re.escape(w)}(?![A-Za-z_])", shown)], shown
    before = Ruling.objects.filter(match=match).count()
    page.click("#confirm")
    page.wait_for_selector("#status.saved, #status.error")
    assert page.is_visible("#status.saved"), (step, shown, page.inner_text("#status"))
    ruling = Ruling.objects.filter(match=match).order_by("-sequence").first()
    assert Ruling.objects.filter(match=match).count() == before + 1
    said = PREVIEW.match(shown)
    assert said and said["text"] == ruling.sanction["explanation"], (shown, ruling.sanction["explanation"])
    assert bool(said["approval"]) == ruling.sanction["needs_approval"]
    assert ruling.choice == (chosen[0] if chosen else ""), (step, chosen, ruling.choice)
    assert offered.count() == 0 or chosen
    page.wait_for_selector(f"#ruling-list li[data-id='{ruling.pk}']")   # the list (and what waits) read again
    pending = page.inner_text("#pending") if page.is_visible("#pending") else ""
    assert not [w for w in words if re.search(rf"(?<![A-Za-z_]){re.escape(w)}(?![A-Za-z_])", pending)], pending
    return ruling


def _warned_twice(profile, plan):
    """The first offence whose first time is a warning (shenzhen 第十六条: the second may become a violation),
    twice in a row."""
    ledger = ledger_for(profile)
    for steps in plan:
        step = steps[0]
        inputs = {k: getattr(step, k) for k in ("choice", "minutes", "cards", "role")}
        if "warning" in ledger.preview(step.code, "NS", **inputs).kinds:
            return [step, step]
    raise AssertionError("no offence gives a warning")


@pytest.mark.browser
def test_every_offence_of_every_profile_is_recorded_from_the_console(transactional_db, live_server, page, make_user,
                                                                     make_match):
    page.set_viewport_size({"width": 390, "height": 800})
    referee, organiser = make_user("table_referee"), make_user("organiser")
    login(page, live_server, referee)
    walked, signal_third = [], None
    for slug, picks in offence_walks.variants():
        first = make_match(slug)
        if picks:
            rule_choices.set_choices(first.round.stage.event, organiser, picks)
        tables = Tables(page, live_server.url, make_match, referee, first)
        profile = tables.round.stage.event.profile
        words = offence_walks.internal_words(profile)
        codes = offence_walks.changed_codes(slug, picks)
        plan = offence_walks.walks(profile, codes, every_path=False)
        if picks and codes is None:   # an escalation's reading: the second warning in a row shows it (the fast
            plan = [_warned_twice(profile, plan)]   # test walks every offence under it)
        if not picks:   # as shipped: every offence of the profile
            assert {steps[0].code for steps in plan} == set(ledger_for(profile).table["offences"])
        for steps in plan:
            match = tables.fresh() if len(set(steps)) < len(steps) else tables.usable()   # a ladder: a new table
            for number, step in enumerate(steps, start=1):
                ruling = step_through(page, match, step, words)
                walked.append(step.code)
                if slug == "union-games" and step.code == "signal":   # 003 二.13: 50, 50, then out
                    assert (ruling.sanction["points"], ruling.choice) == ((50, "") if number < 3 else (0, step.pick))
                    if number == 3 and step.pick == "match":
                        signal_third = ruling
    assert signal_third is not None and "match_forfeit" in signal_third.sanction["kinds"]
    assert len(walked) >= 48
