"""Top-level URLs: pages, the API with its OpenAPI schema, accounts, admin and language switching."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from infra.api import UnknownAddress
from infra.views import ThrottledLoginView, set_language
from tournament.events import views as tournament_views

urlpatterns = [
    # the API first: a table's writes are resolved without walking the pages' patterns
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("config.api_urls")),
    path("", include("scoring.urls")),
    path("", include("rulings.urls")),
    path("", tournament_views.home, name="home"),
    path("", include("tournament.events.urls")),
    path("events/<slug:slug>/", tournament_views.event_detail, name="event_detail"),
    path("events/<slug:slug>/share.png", tournament_views.event_share_image, name="event_share_image"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("", include("tournament.urls")),
    # last: an unknown address under /api/ is the API's JSON 404 (an operation's without its slash: a 308 to it)
    re_path(r"^api/", UnknownAddress.as_view()),
]

handler403 = "infra.errorpages.permission_denied"
handler404 = "infra.errorpages.page_not_found"
handler500 = "infra.errorpages.server_error"
