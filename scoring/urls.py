"""URLs of this app: pages and API routes."""
urlpatterns = []
