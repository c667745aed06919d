"""RULES.md sanction rows not pinned by test_engine_rows.py: appeals, waivers, both sides late,
and the union-games bury row (see tests/RULES_COVERAGE.md)."""
import pytest

from rulings.engine import PenaltyLedger
from scoring.profiles import load_profile

SZ, TD, UG, CL, CL8 = ("shenzhen-community", "two-deck-standard", "union-games", "company-league",
                       "company-league-2008")


def ledger(slug):
    return PenaltyLedger(load_profile(slug))


def test_shenzhen_appeal_goes_to_the_chief_referee_then_the_committee():
    appeal = ledger(SZ).appeal
    assert (appeal.deadline_minutes, appeal.to, appeal.then) == (10, "chief_referee", "organising_committee")


def test_union_appeal_goes_to_the_arbitration_group_which_is_final():
    appeal = ledger(UG).appeal
    assert (appeal.to, appeal.then) == ("arbitration_group", None)


@pytest.mark.parametrize("slug, waivable", [(CL8, True), (CL, False), (SZ, False), (TD, False), (UG, False)])
def test_playing_without_penalty_clauses_by_agreement(slug, waivable):
    # RULES.md puts it under company-league(-2008); 004 has it after the 2008 revision only.
    assert ledger(slug).penalties_waivable_by_agreement is waivable


def test_shenzhen_both_sides_late_both_forfeit():
    book = ledger(SZ)
    ns, ew = book.record("late", "NS", minutes=8), book.record("late", "EW", minutes=8)
    assert {ns.beneficiary, ew.beneficiary} == {"EW", "NS"}
    assert all("match_forfeit" in s.kinds and s.automatic and not s.needs_approval for s in (ns, ew))


@pytest.mark.parametrize("slug", [SZ, UG])
def test_card_count_no_penalty_when_the_other_side_plays_on(slug):
    role = {"choice": "in_play"} if slug == UG else {}
    assert ledger(slug).record("card_count", "NS", role="declarers", **role).waivable


def test_union_bury_row_takes_the_stage_and_grades_by_points():
    effect = ledger(UG).record("wrong_bury", "NS", role="declarers").effect
    assert (effect.stage, effect.gainer, effect.next_declarer) == ("EW", "EW", "next")
    assert [effect.levels_for(p) for p in (35, 40, 80, 120, 160)] == [0, 1, 2, 3, 3]


@pytest.mark.parametrize("slug", [CL, CL8])
def test_company_bury_is_80_to_the_side_that_buried(slug):
    sanction = ledger(slug).record("wrong_bury", "NS")
    assert sanction.points == 80 and sanction.beneficiary == "EW" and not sanction.effect.changes_state


def test_two_deck_failed_throw_exposed_and_out_of_turn_every_time():
    book = ledger(TD)
    for code in ("failed_throw", "exposed_card", "out_of_turn"):
        assert [book.record(code, "NS").points for _ in range(3)] == [20, 20, 20]
