"""The words of the question the pages ask before a chief's act that ends a match or counts rulings again
(``static/js/confirm.js``): approving a match loss or a disqualification, voiding a ruling. The console
(``rulings.views``) and the chief's desk (``tournament.desk.views``) both hand them to their scripts; what the
act does comes from the previews (``rulings.previews.approval_impact`` / ``void_impact``, through the API)."""
from django.utils.translation import gettext as _


def confirm_labels() -> dict:
    """The dialog's words in the active language (``%(name)s`` filled in by the script)."""
    return {
        "ask_approve": _("Approve this ruling?"), "ask_approve_yes": _("Yes, approve"),
        "approve_fallback": _("Approving ends this match."),
        "ask_void": _("Void this ruling?"), "ask_void_yes": _("Yes, void it"), "void_one": _("Void…"),
        "void_reason": _("Reason for voiding"), "void_reason_missing": _("Give the reason for voiding."),
        "void_nothing": _("Nothing else changes: the later rulings and the result stay as they are."),
        "void_changes": _("Voiding it changes:"),
        "void_note": _("The void is recorded with your name, the time and the reason; nothing is deleted."),
        "ask_cancel": _("Cancel"), "ask_working": _("Working out what this changes…"),
        "ask_failed": _("Could not work out what this changes: %(detail)s"), "voided_one": _("Voided."),
    }
