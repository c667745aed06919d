"""``{{ key|setting_label }}``: a stage setting's name in the reader's language (never the raw key);
``{{ value|setting_value:key }}``: its value as the reader reads it (who records the hands: the choice's
label, never the stored word)."""
from django import template
from django.utils.translation import gettext_lazy as _

from tournament.models import Event

register = template.Library()

LABELS = {
    "n_groups": _("number of groups"),
    "qualifiers_per_group": _("qualifiers per group"),
    "first_table": _("first table"),
    "seeded": _("seeded entries"),
    "places_played": _("places played"),
    "rounds": _("number of rounds"),
    "recorders": _("who records the hands"),
}


@register.filter
def setting_label(key):
    return LABELS.get(key, key)


@register.filter
def setting_value(value, key):
    if key == "recorders":
        return dict(Event.Recorders.choices).get(value, value)
    return value
