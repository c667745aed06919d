"""URLs: clock pages and API."""
from django.urls import path

from tournament.clocks import api as api_clock
from tournament.clocks import views as views_clock
from tournament.clocks.api import lead as lead_api

urlpatterns = [
    path("api/matches/<int:match_id>/lead/", lead_api.MatchLeadView.as_view(), name="api-match-lead"),
    path("events/<slug:slug>/rounds/<int:round_id>/display/", views_clock.hall_display, name="clock-display"),
    # the live public pages' poll (its name kept: the templates and the pages' scripts ask for it)
    path("events/<slug:slug>/live.json", views_clock.public_live, name="competition_live"),
    path("manage/<slug:event_slug>/rounds/<int:round_id>/clock/", views_clock.chief_clock, name="clock-chief"),
    path("manage/<slug:slug>/clock-settings/", views_clock.clock_settings, name="clock-settings"),
    path("api/rounds/<int:round_id>/clock/", api_clock.RoundClockView.as_view(), name="api-round-clock"),
    path("api/rounds/<int:round_id>/clock/actions/", api_clock.ClockActionView.as_view(),
         name="api-round-clock-actions"),
]
