"""URLs of the staff pages and the staff API."""
from django.urls import path

from infra.views import FirstPasswordView
from tournament.staff import api, views

urlpatterns = [
    path("accounts/password/first/", FirstPasswordView.as_view(), name="first_password"),
    path("events/<slug:slug>/staff/", views.staff_page, name="event_staff"),
    path("events/<slug:slug>/staff/<int:pk>/remove/", views.staff_remove, name="event_staff_remove"),
    path("events/<slug:slug>/staff/reset/<int:user_id>/", views.staff_reset, name="event_staff_reset"),
    path("events/<slug:slug>/staff/unlock/<int:user_id>/", views.staff_unlock, name="event_staff_unlock"),
    path("events/<slug:slug>/staff/card/", views.staff_card, name="event_staff_card"),
    path("events/<slug:slug>/staff/tokens/", views.token_create, name="event_token_create"),
    path("events/<slug:slug>/staff/tokens/<int:pk>/revoke/", views.token_revoke, name="event_token_revoke"),
    path("setup/", views.first_run_page, name="first_run"),
    path("site/organisers/", views.organisers_page, name="site_organisers"),
    path("site/tokens/", views.site_tokens_page, name="site_tokens"),
    path("site/tokens/<int:pk>/revoke/", views.site_token_revoke, name="site_token_revoke"),
    path("site/organisers/<int:user_id>/card/", views.organiser_card, name="site_organiser_card"),
    path("api/events/<slug:slug>/staff/", api.StaffListCreate.as_view(), name="api_event_staff"),
    path("api/events/<slug:slug>/staff/<int:pk>/", api.StaffDelete.as_view(), name="api_event_staff_delete"),
    path("api/events/<slug:slug>/tokens/", api.EventTokenListCreate.as_view(), name="api_event_tokens"),
    path("api/events/<slug:slug>/tokens/<int:pk>/", api.EventTokenRevoke.as_view(), name="api_event_token"),
    path("api/tokens/", api.SiteTokenListCreate.as_view(), name="api_site_tokens"),
    path("api/login/", api.LoginTokenCreate.as_view(), name="api_login"),
    path("api/tokens/<int:pk>/", api.SiteTokenRevoke.as_view(), name="api_site_token"),
]
