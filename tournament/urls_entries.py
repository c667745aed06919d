"""URLs: entries pages and API."""
urlpatterns = []
