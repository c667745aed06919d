"""URLs of the event day's decisions (the chief referee's desk)."""
from django.urls import path

from tournament.desk import api

urlpatterns = [
    path("api/rounds/<int:round_id>/close/", api.RoundCloseView.as_view(), name="api_round_close"),
    path("api/rounds/<int:round_id>/reopen/", api.RoundReopenView.as_view(), name="api_round_reopen"),
    path("api/matches/<int:match_id>/result/", api.MatchResultView.as_view(), name="api_match_result"),
]
