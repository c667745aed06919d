"""URLs: the organiser's entry pages under /manage/<event_slug>/entries/ and the entries API."""
from django.urls import path

from tournament.entries import api as api_entries
from tournament.entries import views as v
from tournament.entries.api import removal as removal_api
from tournament.entries.views import cleanup as cleanup_views
from tournament.entries.views import register as registration_views
from tournament.entries.views import removal as removal_views
from tournament.entries.views import substitution as substitution_views

urlpatterns = [
    path("manage/<slug:event_slug>/entries/", v.entries_list, name="entries_list"),
    path("manage/<slug:event_slug>/entries/add/", v.pair_add, name="entries_add"),
    path("manage/<slug:event_slug>/entries/<int:pk>/edit/", v.pair_edit, name="entries_edit"),
    path("manage/<slug:event_slug>/entries/<int:pk>/withdraw/", v.pair_withdraw, name="entries_withdraw"),
    path("manage/<slug:event_slug>/entries/<int:pk>/replace/", v.pair_replace, name="entries_replace"),
    path("manage/<slug:event_slug>/entries/individuals/", v.individuals, name="entries_individuals"),
    path("manage/<slug:event_slug>/entries/import/", v.import_entries, name="entries_import"),
    path("manage/<slug:event_slug>/entries/export/<slug:what>.xlsx", v.export, name="entries_export"),
    path("manage/<slug:event_slug>/entries/<int:pk>/delete/", cleanup_views.pair_delete, name="entries_delete"),
    path("manage/<slug:event_slug>/entries/<int:pk>/remove/", removal_views.pair_remove, name="entries_remove"),
    path("manage/<slug:event_slug>/entries/<int:pk>/substitute/", substitution_views.pair_substitute,
         name="entries_substitute"),
    path("manage/<slug:event_slug>/entries/links/", registration_views.links_page, name="entries_links"),
    path("manage/<slug:event_slug>/entries/links/card/", registration_views.link_card, name="entries_link_card"),
    path("manage/<slug:event_slug>/entries/links/cards/", registration_views.link_cards, name="entries_link_cards"),
    path("manage/<slug:event_slug>/entries/links/missing/", registration_views.not_submitted,
         name="entries_links_missing"),
    path("register/<str:key>/", registration_views.unit_register, name="unit_register"),
    path("register/<str:key>/check/", registration_views.unit_check, name="unit_register_check"),
    path("api/pairs/<int:pk>/substitution/", substitution_views.PairSubstitutionView.as_view(),
         name="api_pair_substitution"),
    path("api/pairs/<int:pk>/removal/", removal_api.PairRemovalView.as_view(), name="api_pair_removal"),
    path("api/events/<slug:event_slug>/entries/", api_entries.EntryListCreate.as_view(), name="api_entries"),
    path("api/entries/<int:pk>/", api_entries.EntryDetail.as_view(), name="api_entry"),
]
