"""Public and organiser pages."""
from django.shortcuts import get_object_or_404, render

from .visibility import visible_events


def home(request):
    """The home page: the events this visitor may see."""
    events = visible_events(request.user).select_related("profile")
    return render(request, "tournament/home.html", {"events": events})


def event_detail(request, slug):
    event = get_object_or_404(visible_events(request.user).select_related("profile"), slug=slug)
    return render(request, "tournament/event_detail.html", {"event": event})
