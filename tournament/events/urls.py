"""URLs of the organiser's event pages."""
from django.urls import path

from tournament.events.views import manage

urlpatterns = [
    path("events/new/", manage.event_new, name="event_new"),
    path("events/<slug:slug>/settings/", manage.event_edit, name="event_edit"),
    path("events/<slug:slug>/publish/", manage.event_publish, name="event_publish"),
    path("events/<slug:slug>/copy/", manage.event_copy, name="event_copy"),
]
