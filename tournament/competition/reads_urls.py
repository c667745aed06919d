"""URLs of the API's reads for programs (``tournament.competition.api.reads`` and ``.partner``)."""
from django.urls import path

from tournament.competition.api import partner as partner_api
from tournament.competition.api import reads as reads_api

urlpatterns = [
    path("api/events/<slug:slug>/rounds/", reads_api.EventRoundList.as_view(), name="api_event_rounds"),
    path("api/rounds/<int:round_id>/", reads_api.RoundDetail.as_view(), name="api_round"),
    path("api/events/<slug:slug>/feed/", reads_api.EventFeed.as_view(), name="api_event_feed"),
    path("api/events/<slug:slug>/matches/", reads_api.EventMatchList.as_view(), name="api_event_matches"),
    path("api/matches/<int:match_id>/", reads_api.MatchRead.as_view(), name="api_match"),
    path("api/stages/<int:stage_id>/swiss-standings/", partner_api.SwissStandingsRead.as_view(),
         name="api_swiss_standings"),
    path("api/events/<slug:slug>/units/", partner_api.UnitStandingsRead.as_view(), name="api_event_units"),
]
