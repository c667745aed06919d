"""POST /manage/<event>/entries/<pk>/delete/: delete a withdrawn entry that never played (organisers)."""
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import UserError
from tournament.entries import cleanup
from tournament.models import Pair
from tournament.permissions import organiser_required


@require_POST
@organiser_required
def pair_delete(request, event, pk):
    pair = get_object_or_404(Pair, event=event, pk=pk)
    try:
        name = cleanup.delete_withdrawn_pair(event, pair)
        messages.success(request, _("Entry “%(name)s” deleted; its name is free again.") % {"name": name})
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("entries_list", event.slug)
