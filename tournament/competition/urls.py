"""URLs: competition pages (public under /events/<slug>/, organiser under /manage/<slug>/) and API."""
from django.urls import path

from tournament.competition import api as api
from tournament.competition import views as views
from tournament.competition.views import blocks as block_views
from tournament.competition.views import grid, manage
from tournament.competition.views import swiss as swiss_views

urlpatterns = [
    path("events/<slug:slug>/schedule/", views.public_schedule, name="competition_schedule"),
    path("events/<slug:slug>/groups/", views.public_groups, name="competition_groups"),
    path("events/<slug:slug>/bracket/", views.public_bracket, name="competition_bracket"),
    path("events/<slug:slug>/standings/", views.public_standings, name="competition_standings"),
    path("events/<slug:slug>/standings.xlsx", views.standings_xlsx, name="competition_standings_xlsx"),
    path("events/<slug:slug>/crosstables.xlsx", views.crosstables_xlsx, name="competition_crosstables_xlsx"),
    path("events/<slug:slug>/swiss/", swiss_views.public_swiss, name="competition_swiss"),
    path("events/<slug:slug>/units/", swiss_views.public_units, name="competition_units"),
    path("events/<slug:slug>/units.xlsx", swiss_views.units_xlsx, name="competition_units_xlsx"),
    path("manage/<slug:slug>/swiss/<int:stage_id>/", swiss_views.manage_swiss, name="competition_manage_swiss"),
    path("manage/<slug:slug>/units/", swiss_views.manage_units, name="competition_manage_units"),
    path("manage/<slug:slug>/stages/", manage.manage_stages, name="competition_manage_stages"),
    path("manage/<slug:slug>/stages/<int:stage_id>/", manage.manage_stage, name="competition_manage_stage"),
    path("manage/<slug:slug>/stages/<int:stage_id>/edit/", manage.manage_stage_edit,
         name="competition_manage_stage_edit"),
    path("manage/<slug:slug>/schedule/", manage.manage_schedule, name="competition_manage_schedule"),
    path("manage/<slug:slug>/referee-grid/", grid.referee_grid, name="competition_referee_grid"),
    path("manage/<slug:slug>/referee-grid/blocks/", block_views.referee_blocks, name="competition_referee_blocks"),
    path("manage/<slug:slug>/referees/", manage.manage_referees, name="competition_manage_referees"),
    path("api/events/<slug:slug>/stages/", api.StageListCreate.as_view(), name="api_competition_stages"),
    path("api/events/<slug:slug>/ranking/", api.RankingView.as_view(), name="api_competition_ranking"),
    path("api/stages/<int:pk>/", api.StageDetail.as_view(), name="api_competition_stage"),
    path("api/stages/<int:pk>/matches/", api.StageMatches.as_view(), name="api_competition_matches"),
    path("api/stages/<int:pk>/standings/", api.StageStandingsView.as_view(), name="api_competition_standings"),
    path("api/stages/<int:pk>/draws/", api.StageDraws.as_view(), name="api_competition_draws"),
]
