"""Read-only admin views of the audit trail (rows are append-only: no add, change or delete here)."""
from django.contrib import admin

from infra.admin import AppendOnlyAdmin
from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid


@admin.register(Ruling)
class RulingAdmin(AppendOnlyAdmin):
    list_display = ("match", "sequence", "hand_number", "code", "side", "clause", "recorded_by", "recorded_at")
    list_filter = ("code", "side")
    search_fields = ("note", "clause")


for model in (RulingVoid, Approval, ChoiceMade, Appeal, AppealDecision):
    admin.site.register(model, AppendOnlyAdmin)
