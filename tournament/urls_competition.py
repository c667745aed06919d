"""URLs: competition pages and API."""
urlpatterns = []
