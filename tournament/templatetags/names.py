"""``{{ user|display_name }}``: a person as the pages name them (``common.names.display_name``: a Chinese
name family name first without a space, else "first last", else the login name)."""
from django import template

from common.names import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user):
    return _display_name(user)
