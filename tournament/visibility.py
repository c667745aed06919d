"""Who may see what: anonymous users read published events only."""
from .models import Event


def is_staff_member(user):
    """Staff of the system: any authenticated user holding a role, or a superuser."""
    return user.is_authenticated and (user.is_superuser or user.groups.exists())


def visible_events(user):
    events = Event.objects.all()
    return events if is_staff_member(user) else events.filter(published=True)
