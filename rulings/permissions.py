"""DRF permission classes of the rulings API: thin adapters over the one check, ``tournament.access.may``.

- Record, preview, void, choose: the chief referee, or the table's referee this round (``RECORD``).
- Approvals and first-instance appeal decisions: the chief referee; second instance: arbitration.
- Appeals are lodged with the chief referee or the table's referee (``FILE_APPEAL``).
- Assigning referees: organisers. Penalty logs: staff always, the public once the event is published.
"""
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission

from tournament import access
from tournament.records.closing import refuse_if_round_closed


def _match_of(obj):
    """The Match an object belongs to (a Match, a Ruling or an Appeal)."""
    for path in ("match", "ruling.match"):
        target = obj
        try:
            for name in path.split("."):
                target = getattr(target, name)
        except AttributeError:
            continue
        return target
    return obj


class _MatchAction(BasePermission):
    """Object permission: ``access.may(user, action, match=...)`` for the object's match."""

    action = ""

    def has_permission(self, request, view):
        return request.user.is_authenticated

    def has_object_permission(self, request, view, obj):
        return access.may(request.user, self.action, match=_match_of(obj))


class CanRuleAtTable(_MatchAction):
    """The table's referee while her round is open, or a chief referee. Once the round is closed the table's
    referee is refused with that reason (a 409 from :func:`refuse_if_round_closed`), not as a stranger."""

    action = access.RECORD
    message = _("Only this table's referee this round or a chief referee may record rulings here.")
    code = "not_assigned"   # DRF's PermissionDenied carries it to the error body

    def has_object_permission(self, request, view, obj):
        match = _match_of(obj)
        if access.may(request.user, access.RECORD, match=match):
            return True
        refuse_if_round_closed(request.user, match)
        return False


class CanFileAppeal(_MatchAction):
    action = access.FILE_APPEAL
    message = _("Appeals are lodged with a chief referee or this table's referee.")


class IsChiefReferee(_MatchAction):
    action = access.APPROVE
    message = _("Only a chief referee may approve.")


class CanDecideAppeal(BasePermission):
    """A member of a body that decides appeals (chief referees, arbitration group, organisers); which
    instance each decides under the event's rules is the service's check (``rulings.appeal_route``)."""

    message = _("Appeals are decided by the chief referee, the arbitration group or the organising committee.")

    def has_permission(self, request, view):
        if not request.user.is_authenticated:
            return False
        match = access.appeal_match(view.kwargs.get("pk"))
        return match is None or any(access.may(request.user, action, match=match)
                                    for action in (access.DECIDE_FIRST, access.DECIDE_SECOND, access.MANAGE))


class IsOrganiser(_MatchAction):
    action = access.MANAGE
    message = _("Only organisers may assign referees.")

    def has_permission(self, request, view):
        return request.user.is_authenticated  # the match's event is checked on the object


class CanReadLog(BasePermission):
    """Penalty logs: staff always, anonymous visitors once the event is published. An event the visitor
    may not read does not exist for them: 404, never 403 (which would tell it exists)."""

    message = _("This event has not been published yet.")
    anonymous_read = True  # the API's description: readable without credentials (infra.api_schema)

    def has_object_permission(self, request, view, obj):
        if hasattr(obj, "published"):
            visible = access.may(request.user, access.VIEW, event=obj)
        else:
            visible = access.may(request.user, access.VIEW, match=_match_of(obj))
        if not visible:
            raise NotFound(_("The page does not exist, or the event has not been published yet."))
        return True
