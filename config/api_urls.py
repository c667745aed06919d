"""The REST API: one router that each app registers its viewsets with."""
from rest_framework.routers import DefaultRouter

from tournament.events.api import EventViewSet

router = DefaultRouter()
router.register("events", EventViewSet, basename="event")

urlpatterns = router.urls
