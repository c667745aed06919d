"""Read-only admin views of the audit trail (rows are append-only: no add, change or delete here)."""
from django.contrib import admin

from .models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ("match", "sequence", "hand_number", "code", "side", "clause", "recorded_by", "recorded_at")
    list_filter = ("code", "side")
    search_fields = ("note", "clause")


for model in (RulingVoid, Approval, ChoiceMade, Appeal, AppealDecision):
    admin.site.register(model, ReadOnlyAdmin)
