"""URLs of moving an event: the download and the upload."""
from django.urls import path

from tournament.transfer import views

urlpatterns = [
    path("manage/import-event/", views.event_import, name="event_import"),
    path("manage/<slug:slug>/export.json", views.event_export, name="event_export"),
]
