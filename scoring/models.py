"""Rule profiles stored as versioned data, and the hands recorded at a table."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RuleProfile(models.Model):
    """One version of a rule profile: the whole profile file as JSON.

    Versions are never edited once an event uses them; an organiser's change is a new version
    (``based_on`` points at the version it was copied from). An event keeps the version it started with.
    """

    slug = models.SlugField(_("slug"), max_length=80)
    version = models.PositiveIntegerField(_("version"), default=1)
    name = models.CharField(_("name"), max_length=200)
    data = models.JSONField(_("profile data"))
    source = models.CharField(_("source"), max_length=300, blank=True)
    based_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="copies", verbose_name=_("based on")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rule profile")
        verbose_name_plural = _("rule profiles")
        ordering = ["slug", "-version"]
        constraints = [models.UniqueConstraint(fields=["slug", "version"], name="unique_profile_version")]

    def __str__(self):
        return f"{self.name} v{self.version}"
