"""URLs of the event day's decisions: the chief referee's desk, the arbitration page and their API."""
from django.urls import path

from tournament.desk import api, views

urlpatterns = [
    path("manage/<slug:event_slug>/rounds/<int:round_id>/desk/", views.desk, name="desk"),
    path("manage/<slug:event_slug>/rounds/<int:round_id>/desk/state/", views.desk_state, name="desk-state"),
    path("tables/<int:match_id>/uplink/", views.uplink, name="table-uplink"),
    path("events/<slug:slug>/my-tables/", views.referee_tables, name="floor_tables"),
    path("manage/<slug:event_slug>/rounds/<int:round_id>/slips/", views.round_slips, name="selfscore-slips"),
    path("manage/<slug:event_slug>/rounds/<int:round_id>/slips/reissue/", views.reissue_slip,
         name="selfscore-reissue"),
    path("manage/<slug:event_slug>/arbitration/", views.arbitration, name="arbitration"),
    path("api/rounds/<int:round_id>/close/", api.RoundCloseView.as_view(), name="api_round_close"),
    path("api/rounds/<int:round_id>/reopen/", api.RoundReopenView.as_view(), name="api_round_reopen"),
    path("api/matches/<int:match_id>/result/", api.MatchResultView.as_view(), name="api_match_result"),
]
