"""The one admin base for append-only records (hands, rulings, draws, clock events): readable, never
added, changed or deleted from the admin. Corrections happen where the record is made, as new rows."""
from django.contrib import admin


class AppendOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
