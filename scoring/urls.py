"""URLs of this app: the table page and the hands API."""
from django.urls import path

from scoring import api, views

urlpatterns = [
    path("tables/sw.js", views.service_worker, name="table-service-worker"),
    path("tables/<int:match_id>/", views.table, name="scoring-table"),
    path("api/matches/<int:match_id>/state/", api.MatchStateView.as_view(), name="api-match-state"),
    path("api/matches/<int:match_id>/hands/", api.HandListView.as_view(), name="api-match-hands"),
    path("api/matches/<int:match_id>/hands/<int:number>/correct/", api.HandCorrectView.as_view(),
         name="api-hand-correct"),
]
