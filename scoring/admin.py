"""Admin for rule-profile versions (copy as a new version; versions in use are read-only) and hands (read-only)."""
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from infra.admin import AppendOnlyAdmin
from scoring.models import Hand, RuleProfile


@admin.register(RuleProfile)
class RuleProfileAdmin(admin.ModelAdmin):
    """Versions an event uses cannot be edited: copy one as a new version and change the copy."""

    list_display = ["slug", "version", "name", "based_on", "in_use", "created_by", "created_at"]
    list_filter = ["slug"]
    search_fields = ["slug", "name"]
    readonly_fields = ["based_on", "created_by", "created_at"]
    actions = ["copy_as_new_version"]

    @admin.display(boolean=True, description=_("in use"))
    def in_use(self, obj):
        return obj.is_in_use

    @admin.action(description=_("Copy as a new version"))
    def copy_as_new_version(self, request, queryset):
        copies = [profile.copy_as_new_version(user=request.user) for profile in queryset]
        for copy in copies:
            self.message_user(request, _("Created %(profile)s.") % {"profile": copy}, messages.SUCCESS)
        return copies

    def change_view(self, request, object_id, form_url="", extra_context=None):
        profile = self.get_object(request, object_id)
        if profile is not None and profile.is_in_use and request.method == "GET":
            self.message_user(
                request,
                _("This version is used by an event and cannot be changed; copy it as a new version."),
                messages.WARNING,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Hand)
class HandAdmin(AppendOnlyAdmin):
    """Hands are append-only records: readable here, changed only through a correction at the table."""

    list_display = ["match", "number", "version", "declarer_seat", "trump", "defender_points", "ns_level",
                    "ew_level", "recorded_by", "recorded_at"]
    list_filter = ["trump"]
    list_select_related = ["match", "recorded_by"]
