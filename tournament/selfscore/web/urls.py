"""The pages of the tables where the players record (the players' table page lives under /tables/, in the
offline service worker's scope, as the referee's does)."""
from django.urls import path

from tournament.selfscore import views

urlpatterns = [
    path("tables/<int:match_id>/self/", views.players_table, name="selfscore-table"),
    path("tables/<int:match_id>/self/code/", views.check_code, name="selfscore-check-code"),
    path("manage/<slug:event_slug>/rounds/<int:round_id>/hand-entries/", views.desk_entries,
         name="selfscore-desk-entries"),
]
