"""The organiser choices of an event's rule profile: each unclear clause, its readings (in the page's language:
the profile's ``clause_en`` and ``label_en`` on an English page) and the one in force, and the organiser's picks
before play starts.

The picks are kept on the event (``Event.rule_choices``) and applied through a profile version of the
event's own (slug ``<profile>--<event>``, ``based_on`` the profile it was picked from), whose data holds the
readings' values and a ``choices:`` key: every match of the event uses it, so the scoring engine
(``scoring.profile_store.engine_profile``) and the sanction tables read the readings in force.

    choice_rows(event) -> [ChoiceRow]
    set_choices(event, user, picks) -> Event
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from infra.profile_words import in_language
from rulings.models import Ruling
from scoring.models import Hand, RuleProfile
from scoring.profile_choices import choice_specs, patch, validate_profile_dict
from tournament import access
from tournament.models import Event, Match


@dataclass(frozen=True)
class Reading:
    id: str
    label: str
    default: bool
    in_force: bool


@dataclass(frozen=True)
class ChoiceRow:
    choice: str
    clause: str
    readings: list


def base_profile(event) -> RuleProfile:
    """The profile version the event's picks apply to (the event's own version is based on it)."""
    profile = event.profile
    return profile.based_on if event.rule_choices and profile.based_on_id else profile


def _specs(profile):
    return choice_specs(validate_profile_dict(profile.data, f"{profile.slug} v{profile.version}"))


def choice_rows(event) -> list:
    """Every organiser choice of the event's profile, with its clause, readings and the one in force."""
    picks = event.rule_choices or {}
    rows = []
    for name, spec in _specs(base_profile(event)).items():
        current = picks.get(name, spec["default"])
        rows.append(ChoiceRow(name, in_language(spec, "clause"), [
            Reading(rid, in_language(reading, "label"), rid == spec["default"], rid == current)
            for rid, reading in spec["readings"].items()]))
    return rows


def play_started(event) -> bool:
    """A hand or a ruling is recorded, or a match has begun or ended."""
    matches = Match.objects.filter(round__stage__event=event)
    return (matches.filter(started_at__isnull=False).exists()
            or matches.exclude(status__in=Match.WAITING).exclude(status=Match.Status.BYE).exists()
            or Hand.objects.filter(match__round__stage__event=event).exists()
            or Ruling.objects.filter(match__round__stage__event=event).exists())


@transaction.atomic
def set_choices(event, user, picks) -> Event:
    """Store the organiser's readings and point the event and its matches at a profile version applying them."""
    event = Event.objects.select_for_update(of=("self",)).select_related("profile__based_on").get(pk=event.pk)
    if not access.may(user, access.MANAGE, event=event):
        raise ForbiddenError(gettext_noop("Only organisers may change the organiser choices."))
    if play_started(event):
        raise ConflictError(gettext_noop("Play has started: the organiser choices can no longer be changed."),
                            field="choices")
    base = base_profile(event)
    specs = _specs(base)
    for name, rid in picks.items():
        if name not in specs:
            raise UserError(gettext_noop("Unknown organiser choice: %(name)s."), field=name, name=name)
        if rid not in specs[name]["readings"]:
            raise UserError(gettext_noop("%(value)s is not a reading of %(name)s."), field=name, value=rid, name=name)
    chosen = {name: rid for name, rid in picks.items() if rid != specs[name]["default"]}
    if not chosen:
        profile = base
    else:
        source = f"{base.slug} v{base.version}"
        data = patch(validate_profile_dict(base.data, source), chosen, specs, source)
        slug = f"{base.slug}--{event.slug}"[:80]
        profile = RuleProfile.add_version(slug, name=f"{base.name}（{event.name}）", data=data, source=base.source,
                                          based_on=base, created_by=user)
    event.profile, event.rule_choices = profile, chosen
    event.save(update_fields=["profile", "rule_choices"])
    Match.objects.filter(round__stage__event=event).update(profile=profile)
    return event
