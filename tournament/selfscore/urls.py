"""The self-scoring tables' API (the players' page, the desk's and the floor referees' pages call it)."""
from django.urls import path

from tournament.selfscore import api

urlpatterns = [
    path("api/matches/<int:match_id>/hand-entries/", api.TableEntriesView.as_view(), name="api_selfscore_table"),
    path("api/matches/<int:match_id>/hand-entries/<int:entry_id>/confirm/", api.ConfirmView.as_view(),
         name="api_selfscore_confirm"),
    path("api/matches/<int:match_id>/hand-entries/<int:entry_id>/dispute/", api.DisputeView.as_view(),
         name="api_selfscore_dispute"),
    path("api/matches/<int:match_id>/hand-entries/<int:entry_id>/withdraw/", api.WithdrawView.as_view(),
         name="api_selfscore_withdraw"),
    path("api/matches/<int:match_id>/hand-entries/<int:entry_id>/decide/", api.DecideView.as_view(),
         name="api_selfscore_decide"),
    path("api/matches/<int:match_id>/side-codes/", api.SideCodeView.as_view(), name="api_selfscore_side_code"),
    path("api/rounds/<int:round_id>/side-codes/", api.RoundCodesView.as_view(), name="api_selfscore_round_codes"),
    path("api/events/<slug:slug>/hand-entries/open/", api.OpenEntriesView.as_view(), name="api_selfscore_open"),
]
