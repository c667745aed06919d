"""URLs of this app: the console and penalty-log pages, and the rulings API under api/."""
from django.urls import path

from rulings import api, views

urlpatterns = [
    path("tables/<int:match_id>/console/", views.console, name="ruling_console"),
    path("matches/<int:match_id>/penalties/", views.match_log_page, name="match_penalty_log"),
    path("events/<slug:slug>/penalties/", views.event_log_page, name="event_penalty_log"),
    path("events/<slug:slug>/penalties.xlsx", views.event_log_xlsx, name="event_penalty_log_xlsx"),
    path("api/events/<slug:slug>/offences/", api.OffenceList.as_view(), name="api_event_offences"),
    path("api/matches/<int:match_id>/rulings/preview/", api.PreviewView.as_view(), name="api_ruling_preview"),
    path("api/matches/<int:match_id>/rulings/void-last/", api.VoidLastView.as_view(), name="api_ruling_void_last"),
    path("api/matches/<int:match_id>/rulings/", api.MatchRulingsView.as_view(), name="api_match_rulings"),
    path("api/matches/<int:match_id>/referees/", api.AssignRefereeView.as_view(), name="api_assign_referee"),
    path("api/rulings/<int:pk>/void/", api.VoidView.as_view(), name="api_ruling_void"),
    path("api/rulings/<int:pk>/approval/", api.ApprovalView.as_view(), name="api_ruling_approval"),
    path("api/rulings/<int:pk>/approval/preview/", api.ApprovalPreviewView.as_view(),
         name="api_ruling_approval_preview"),
    path("api/rulings/<int:pk>/void/preview/", api.VoidPreviewView.as_view(), name="api_ruling_void_preview"),
    path("api/rulings/<int:pk>/choice/", api.ChoiceView.as_view(), name="api_ruling_choice"),
    path("api/rulings/<int:pk>/appeals/", api.AppealView.as_view(), name="api_ruling_appeals"),
    path("api/appeals/<int:pk>/decisions/", api.DecisionView.as_view(), name="api_appeal_decisions"),
    path("api/events/<slug:slug>/rulings/", api.EventRulingsView.as_view(), name="api_event_rulings"),
    path("api/events/<slug:slug>/appeals/", api.EventAppealsView.as_view(), name="api_event_appeals"),
]
