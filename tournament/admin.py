from django.contrib import admin

from .models import Event, Pair, Player, Team, Unit


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
