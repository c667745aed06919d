"""URLs of the tournament app, one module per area."""
from django.urls import include, path

urlpatterns = [
    path("", include("tournament.urls_entries")),
    path("", include("tournament.urls_competition")),
    path("", include("tournament.urls_clock")),
    path("", include("tournament.urls_printouts")),
]
