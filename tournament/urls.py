"""URLs of the tournament app, one module per area."""
from django.urls import include, path

from tournament.events.views import choices as choices_views

urlpatterns = [
    path("manage/<slug:slug>/rule-choices/", choices_views.event_rule_choices, name="event_rule_choices"),
    path("", include("tournament.entries.urls")),
    path("", include("tournament.competition.urls")),
    path("", include("tournament.public.urls")),
    path("", include("tournament.competition.reads_urls")),
    path("", include("tournament.clocks.urls")),
    path("", include("tournament.printouts.urls")),
    path("", include("tournament.desk.urls")),
    path("", include("tournament.staff.urls")),
    path("", include("tournament.transfer.urls")),
    path("", include("tournament.selfscore.urls")),
    path("", include("tournament.selfscore.web.urls")),
]
