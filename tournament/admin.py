from django.contrib import admin

from infra.admin import AppendOnlyAdmin
from tournament.models import (
    Draw,
    Event,
    EventRole,
    Group,
    GroupEntry,
    Match,
    Pair,
    Player,
    RefereeUnit,
    Round,
    Stage,
    Team,
    Unit,
)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "profile", "format", "published"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = ["name", "event"]
    list_filter = ["event"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "gender", "unit", "event"]
    list_filter = ["event", "unit"]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["name", "unit", "player1", "player2", "seed", "status"]
    list_filter = ["event", "status"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "unit", "event"]


# --- competition: stages, groups, rounds, matches, draws (read-only: append-only), referees' units


class GroupEntryInline(admin.TabularInline):
    model = GroupEntry
    extra = 0


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "order", "kind", "source"]
    list_filter = ["event", "kind"]


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "stage", "order"]
    list_filter = ["stage__event"]
    inlines = [GroupEntryInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "stage", "number", "scheduled_start"]
    list_filter = ["stage__event"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "table", "bracket_key", "status", "winner", "ns_level", "ew_level"]
    list_filter = ["round__stage__event", "status"]
    raw_id_fields = ["ns", "ew", "winner"]
    filter_horizontal = ["referees"]


@admin.register(Draw)
class DrawAdmin(AppendOnlyAdmin):
    """Draws are append-only: shown, never edited or deleted here (redo from the organiser pages)."""

    list_display = ["__str__", "event", "stage", "kind", "seed", "created_by", "created_at"]
    list_filter = ["event", "kind"]


@admin.register(RefereeUnit)
class RefereeUnitAdmin(admin.ModelAdmin):
    list_display = ["user", "unit", "event"]
    list_filter = ["event"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    """Staff per event (the organiser's staff page is the usual way to change it)."""

    list_display = ["event", "role", "user"]
    list_filter = ["event", "role"]
