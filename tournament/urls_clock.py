"""URLs: clock pages and API."""
urlpatterns = []
