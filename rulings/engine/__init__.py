"""The sanction engine (pure: no Django): turns a table referee's offence into a sanction.

``PenaltyLedger(profile)`` is the sanction record of one match. Every number, ladder and repeat
count comes from the profile's sanction table (see ``rulings.sanction_tables``); this module only
walks the table. The ledger is a deterministic function of the list of recorded offences, so the
Django layer rebuilds it by replaying the non-voided rulings (``PenaltyLedger.replay``) or voids an
entry in place (``ledger.void(index)``), and every repeat count is recomputed.

Sides: ``side`` is the offending side, "NS" or "EW"; a seat letter (N/E/S/W) is accepted and
stands for its side, because repeat counts are kept per side (a table whose escalation is counted
per player counts a seat's warnings apart). Roles: "declarers" (庄家方, on stage) or "defenders"
(台下方); asked for only when the outcome depends on it. Lateness is ``minutes`` plus optional
``seconds`` (5 min 30 s is over 5 minutes).

Refused input raises :class:`common.errors.UserError` naming the field.
Every Sanction explains itself twice: ``explanation`` (Chinese, the record the console and the contract
read) and ``items``, the same as data (:mod:`rulings.engine.phrases`), which pages render in their language;
a phrase needing the chief referee's approval is written from the approval given (:func:`explanation_text`).

The package: :mod:`.values` (Offence, Effect, Sanction, AppealRule), :mod:`.resolve` (walking a table
node), :mod:`.phrases` (the explanation's codes), :mod:`.penalty_ledger` (PenaltyLedger).
"""
from __future__ import annotations

from common.seats import SEAT_SIDE, SIDES
from rulings.sanction_tables import validate_sanctions

from .penalty_ledger import PenaltyLedger
from .phrases import AWAITING, ROLE_ZH, WAIVED, quote
from .phrases import text as explanation_text
from .values import (
           APPROVAL_KINDS,
           AppealRule,
           Effect,
           Offence,
           Sanction,
           appeal_deadline,
           defender_points_delta,
           normalise_side,
           offending_seat,
)

__all__ = ["PenaltyLedger", "Sanction", "Effect", "Offence", "AppealRule", "validate_sanctions",
           "defender_points_delta", "appeal_deadline", "normalise_side", "offending_seat", "explanation_text",
           "quote", "SIDES", "SEAT_SIDE", "APPROVAL_KINDS", "ROLE_ZH", "AWAITING", "WAIVED"]
