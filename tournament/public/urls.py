"""URLs of the public pages that read more than the competition (find me, an entry's page)."""
from django.urls import path

from tournament.public import views

urlpatterns = [
    path("events/<slug:slug>/find/", views.public_find, name="competition_find"),
    path("events/<slug:slug>/entry/<int:pair_id>/", views.public_entry, name="competition_entry"),
]
