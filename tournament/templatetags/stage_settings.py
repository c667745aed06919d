"""``{{ key|setting_label }}``: a stage setting's name in the reader's language (never the raw key)."""
from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

LABELS = {
    "n_groups": _("number of groups"),
    "qualifiers_per_group": _("qualifiers per group"),
    "first_table": _("first table"),
    "seeded": _("seeded entries"),
    "places_played": _("places played"),
    "rounds": _("number of rounds"),
}


@register.filter
def setting_label(key):
    return LABELS.get(key, key)
