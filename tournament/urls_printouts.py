"""URLs: printouts pages and API."""
urlpatterns = []
