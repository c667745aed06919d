"""One line of guidance where a question arises at a table (not in a
manual nobody opens during play), in the active language:

    approval_line(profile) -> str       on the console: which offences wait for the chief referee's approval
    appeal_line(profile, deadline) -> str  on the table page and the console once the round is closed: who
                                        files an appeal, where, until when, and who decides it
    CLOCK_NOT_STARTED                   on the table page while the hall clock has not started: hands may be
                                        recorded all the same

The offences are read from the profile's sanction table (``tournament.records.ledger``): an outcome that is a match loss
or a disqualification, unless the table makes it automatic, waits for the chief (``rulings.engine``'s
``needs_approval``), and so does the match loss of a side's n-th violation in a round (the escalation rule).
"""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rulings import appeal_route
from rulings.engine import APPROVAL_KINDS
from rulings.presenters import offence_name, offence_order
from tournament.records.ledger import ledger_for

CLOCK_NOT_STARTED = gettext_noop("The hall clock has not started: hands can be recorded all the same. The time "
                                 "limit and the last-hands announcement count from the chief referee's start.")


def _waits_for_chief(node) -> bool:
    """Whether any outcome in an offence's node (its bands, steps, options, by role) needs the approval."""
    if isinstance(node, dict):
        kinds = set(node.get("kinds") or ())
        if kinds & APPROVAL_KINDS and not node.get("automatic", False):
            return True
        return any(_waits_for_chief(value) for value in node.values() if isinstance(value, (dict, list)))
    if isinstance(node, list):
        return any(_waits_for_chief(item) for item in node)
    return False


def approval_offences(profile) -> tuple[list[str], int | None]:
    """(names of the offences whose sanction may wait for the chief, the n-th violation that proposes a
    match loss or None)."""
    table = ledger_for(profile).table
    offences = table.get("offences") or {}
    names = [offence_name(offences[code]) for code in offence_order(offences) if _waits_for_chief(offences[code])]
    return names, (table.get("escalation") or {}).get("match_forfeit_at_violations")


def approval_line(profile) -> str:
    names, nth = approval_offences(profile)
    parts = []
    if names:
        parts.append(_("%(offences)s (a match loss or a disqualification)") % {"offences": _(", ").join(names)})
    if nth:
        parts.append(_("a side's violation no. %(n)s in the round (a match loss)") % {"n": nth})
    if not parts:
        return _("Under these rules no sanction waits for the chief referee's approval: each takes effect at once.")
    return _("Waits for the chief referee's approval before it counts: %(what)s. Every other sanction takes "
             "effect at once.") % {"what": _("; ").join(parts)}


def appeal_line(profile, deadline) -> str:
    body = appeal_route.body_at(profile, 1)
    decided = _(appeal_route.BODY_LABELS[body]) if body else ""
    until = (_("until %(at)s") % {"at": timezone.localtime(deadline).strftime("%H:%M")} if deadline is not None
             else _("with no time limit under these rules"))
    return _("To appeal a ruling of this match now the round is closed: this table's referee or the chief referee "
             "files it on the referee console (“File an appeal”), %(until)s; the %(body)s decides it.") % {
        "until": until, "body": decided}
