"""URLs of the API's reads for programs (``tournament.competition.reads_api``)."""
from django.urls import path

from tournament.competition import reads_api

urlpatterns = [
    path("api/events/<slug:slug>/rounds/", reads_api.EventRoundList.as_view(), name="api_event_rounds"),
    path("api/events/<slug:slug>/matches/", reads_api.EventMatchList.as_view(), name="api_event_matches"),
    path("api/matches/<int:match_id>/", reads_api.MatchRead.as_view(), name="api_match"),
]
