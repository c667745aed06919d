"""Events from the organiser pages and the API: create, edit, copy (entries optional), publish.

Every refusal is a :class:`EventError` naming its field, with an English msgid translated when shown.
The slug is made from the name's pinyin (made unique) unless one is given. The creator becomes the
event's organiser. The format cannot change after a draw; an event whose play has started keeps its rule
profile version. An event picks a version a shipped file or an organiser made (``RuleProfile.objects.offered()``),
never the frozen copy an imported event brought; an imported event keeps its own.
"""
from __future__ import annotations

import datetime as dt
import re

from django.db import transaction
from django.utils.dateparse import parse_date

from common.errors import UserError, gettext_noop
from common.numbers import whole
from infra.profile_words import in_language
from scoring.models import RuleProfile
from scoring.profile_store import latest_profile, sync_profiles
from tournament.clocks import safety
from tournament.clocks import services as clock_services
from tournament.competition import unit_standings
from tournament.entries import registration_links
from tournament.events import rule_choices
from tournament.models import Draw, Event, EventClockSettings, Match, Pair, Player, RegistrationWindow, Team, Unit
from tournament.models.event import RESERVED_SLUGS, SLUG_RE
from tournament.selfscore import modes as recorders
from tournament.staff.services import add_creator, ascii_of, short_ascii

#: The longest name, venue and organising body (the model's columns; the page's form and the API declare it too).
TEXT_MAX = 200
FIELDS = ("name", "organising_body", "start_date", "end_date", "venue", "format", "profile", "profile_version",
          "slug", "published", "hand_recorders")


class EventError(UserError):
    """A refused event change (HTTP 400), naming the field at fault."""


#: The longest web address part made from a name's pinyin before it is shortened to initials.
SHORT_SLUG = 16


def make_slug(name: str, *, exclude_pk=None) -> str:
    """A free, short slug from the name ("区职工赛" -> "quzhigongsai"; a longer one by its initials: "2026年深圳市
    社区居民扑克牌升级大赛" -> "2026-nszssqjmpkpsjds"); the event form lets the organiser type another."""
    words = re.findall(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]+", name or "")
    full = "-".join(filter(None, (ascii_of(w) for w in words)))
    if len(full) > SHORT_SLUG:
        full = "-".join(filter(None, (short_ascii(w, 4) if not w.isascii() else ascii_of(w) for w in words)))
    base = full[:40].strip("-") or "event"
    taken = Event.objects.exclude(pk=exclude_pk)
    slug, n = base, 1
    while slug in RESERVED_SLUGS or taken.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def profile_choices(event=None):
    """Every rule profile's newest version an event may pick (the shipped files' and those organisers made, never
    an imported event's frozen copy), and ``event``'s own version when it is none of them."""
    offered = RuleProfile.objects.offered()
    if not offered.exists():
        sync_profiles()  # a fresh database: the shipped profiles
    latest = {}
    for profile in offered.order_by("slug", "-version"):
        latest.setdefault(profile.slug, profile)
    if event is not None:
        latest.setdefault(event.profile.slug, event.profile)
    return list(latest.values())


def profile_versions(slug, event=None):
    """The versions of ``slug`` an event may pick, newest first, with ``event``'s own one (e.g. its imported copy)."""
    versions = list(RuleProfile.objects.offered().filter(slug=slug))
    if event is not None and event.profile.slug == slug and event.profile_id not in {v.pk for v in versions}:
        versions.append(event.profile)
    return sorted(versions, key=lambda v: -v.version)


def source_text(profile) -> str:
    """Which part of its rule document the profile reads ("第一部分《拖拉机(两副牌)比赛规则》（原文未注明日期…）"), "" when the whole: the
    document is the profile's name; its file name (``source.document``, e.g. "004_….txt") is for developers."""
    source = (profile.data or {}).get("source") or {}
    if isinstance(source, dict):
        return str(in_language(source, "part"))
    return ""


def organiser_choices(profile) -> list:
    """The profile's organiser choices: ``[{choice, clause, default, default_label, readings: [(id, label)]}]``,
    the clause and the labels in the active language (:func:`infra.profile_words.in_language`)."""
    out = []
    for entry in (profile.data or {}).get("organiser_defaults") or ():
        if not isinstance(entry, dict) or "choice" not in entry:
            continue
        readings = [(key, in_language(value or {}, "label") or key)
                    for key, value in (entry.get("readings") or {}).items()]
        labels = dict(readings)
        out.append({"choice": entry["choice"], "clause": in_language(entry, "clause"), "default": entry.get("default"),
                    "default_label": labels.get(entry.get("default"), entry.get("default")), "readings": readings})
    return out


def _date(value, field):
    if isinstance(value, dt.date):
        return value
    parsed = None
    try:
        parsed = parse_date(str(value or "").strip())
    except ValueError:
        parsed = None
    if parsed is None:
        raise EventError(gettext_noop("Enter a date such as 2026-12-05."), field=field)
    return parsed


def _profile(slug, version=None, current=None):
    """The version an event is given: the latest of ``slug`` or the one numbered ``version`` among those an
    event may pick (the shipped files' and those organisers made), or the event's ``current`` one unchanged."""
    if not slug:
        raise EventError(gettext_noop("Choose a rule profile."), field="profile")
    if version in (None, ""):
        try:
            return latest_profile(slug)
        except UserError:
            raise EventError(gettext_noop("Unknown rule profile: %(slug)s."), field="profile", slug=slug) from None
    number = whole(version)
    if current is not None and (current.slug, current.version) == (slug, number):
        return current
    found = RuleProfile.objects.offered().filter(slug=slug, version=number).first() if number is not None else None
    if found is None:
        raise EventError(gettext_noop("Rule profile %(slug)s has no version %(version)s."), field="profile_version",
                         slug=slug, version=version)
    return found


def _clean(values: dict, event: Event | None) -> dict:
    """Check and convert the given fields (only those present); raise EventError naming the first bad one."""
    out = {}
    if "name" in values or event is None:
        name = str(values.get("name") or "").strip()
        if not name:
            raise EventError(gettext_noop("Enter the event's name."), field="name")
        if len(name) > TEXT_MAX:
            raise EventError(gettext_noop("The name is too long (at most 200 characters)."), field="name")
        out["name"] = name
    for field in ("venue", "organising_body"):
        if field in values:
            text = str(values.get(field) or "").strip()
            if len(text) > TEXT_MAX:
                raise EventError(gettext_noop("Too long (at most 200 characters)."), field=field)
            out[field] = text
    for field in ("start_date", "end_date"):
        if field in values or event is None:
            out[field] = _date(values.get(field), field)
    start = out.get("start_date", getattr(event, "start_date", None))
    end = out.get("end_date", getattr(event, "end_date", None))
    if start and end and end < start:
        raise EventError(gettext_noop("The last day cannot be before the first day."), field="end_date")
    if "format" in values or event is None:
        fmt = values.get("format") or Event.Format.GROUPS_ELIMINATION
        if fmt not in Event.Format.values:
            raise EventError(gettext_noop("Choose a format from the list."), field="format")
        out["format"] = fmt
    if "profile" in values or "profile_version" in values or event is None:
        slug = values.get("profile") or (event.profile.slug if event is not None else "")
        out["profile"] = _profile(slug, values.get("profile_version"), event.profile if event is not None else None)
    if values.get("slug") not in (None, ""):
        slug = str(values["slug"]).strip().lower()
        if not SLUG_RE.match(slug) or slug in RESERVED_SLUGS:
            raise EventError(gettext_noop("The web address may hold lower-case letters, digits and hyphens only."),
                             field="slug")
        if Event.objects.filter(slug=slug).exclude(pk=getattr(event, "pk", None)).exists():
            raise EventError(gettext_noop("Another event already uses the web address %(slug)s."), field="slug",
                             slug=slug)
        out["slug"] = slug
    if values.get("hand_recorders") not in (None, ""):   # who records the hands (tournament.selfscore)
        out["hand_recorders"] = recorders.check(values["hand_recorders"])
    if "published" in values:
        published = values["published"]
        if isinstance(published, str):
            published = published.strip().lower() in ("1", "true", "yes", "on")
        if not isinstance(published, bool):
            raise EventError(gettext_noop("Published is yes or no."), field="published")
        out["published"] = published
    return out


def drawn(event: Event) -> bool:
    return Draw.objects.filter(event=event).exists()


def play_started(event: Event) -> bool:
    """Has a match of the event begun at the table?"""
    return Match.objects.filter(round__stage__event=event, status__in=Match.PLAYED).exists()


@transaction.atomic
def create_event(by, values: dict) -> Event:
    """A new event from the form or the API; ``by`` becomes its organiser."""
    clean = _clean(values, None)
    clean.setdefault("slug", make_slug(clean["name"]))
    event = Event.objects.create(**clean)
    add_creator(event, by)
    return event


@transaction.atomic
def update_event(event: Event, values: dict) -> Event:
    """Change the given fields. The format is fixed once drawn; the profile once play has started."""
    event = Event.objects.select_for_update().select_related("profile").get(pk=event.pk)
    clean = _clean(values, event)
    if "format" in clean and clean["format"] != event.format and drawn(event):
        raise EventError(gettext_noop("The format cannot change after a draw."), field="format")
    if "profile" in clean and clean["profile"].pk != event.profile_id and play_started(event):
        raise EventError(gettext_noop("Play has started: the event keeps its rule profile version."),
                         field="profile")
    for key, value in clean.items():
        setattr(event, key, value)
    event.save()
    return event


def set_published(event: Event, published: bool) -> Event:
    return update_event(event, {"published": bool(published)})


@transaction.atomic
def copy_event(event: Event, by, values: dict, *, with_entries: bool = False) -> Event:
    """A new unpublished event like ``event`` (its fields, its profile's latest version unless one is given),
    with the organiser's settings an event is run by (:func:`_copy_settings`), and its units, players, teams
    and pairs when ``with_entries``; ``by`` becomes its organiser. Never its stages, draws or results."""
    base = {"name": event.name, "organising_body": event.organising_body, "venue": event.venue,
            "start_date": event.start_date, "end_date": event.end_date, "format": event.format,
            "hand_recorders": event.hand_recorders,
            "profile": rule_choices.base_profile(event).slug}
    base.update({k: v for k, v in values.items() if v not in (None, "")})
    base["published"] = False
    copy = create_event(by, base)
    _copy_settings(event, copy, by)
    if with_entries:
        _copy_entries(event, copy)
    return copy


def _copy_settings(source: Event, target: Event, by) -> None:
    """What the organiser set for ``source`` besides its fields, through each setting's own service: the clock
    (match time, announcement, hands after it, parallel rounds), the organiser choices of the rules (those
    the copy's profile version still has), the unit scoring (not its lot seed: a new event draws its own lot)
    and whether registration asks every player's phone (not the closing time: the copy has its own days)."""
    clock = EventClockSettings.objects.filter(event=source).first()
    if clock is not None:
        overrides = {k: v for k, v in clock.overrides().items() if v is not None}
        if overrides:
            clock_services.set_clock_settings(target, by, **overrides)
        if clock.parallel_rounds:
            safety.set_parallel_rounds(target, True)
    if source.rule_choices:
        offered = {row.choice: {reading.id for reading in row.readings} for row in rule_choices.choice_rows(target)}
        picks = {name: rid for name, rid in source.rule_choices.items() if rid in offered.get(name, ())}
        if picks:
            rule_choices.set_choices(target, by, picks)
    scoring = source.unit_scoring or {}
    if any(key in scoring for key in ("points", "best_n", "women_bonus")):
        unit_standings.set_unit_rules(target, points=scoring.get("points"), best_n=scoring.get("best_n"),
                                      women_bonus=scoring.get("women_bonus"))
    if RegistrationWindow.objects.filter(event=source, asks_phone=True).exists():
        registration_links.set_window(target, None, True)


def _clone(obj, **changes):
    fields = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
              if not f.primary_key and not getattr(f, "auto_now_add", False)}
    fields.update(changes)
    return type(obj).objects.create(**{k: v for k, v in fields.items()})


def _copy_entries(source: Event, target: Event) -> None:
    units = {u.pk: _clone(u, event_id=target.pk).pk for u in Unit.objects.filter(event=source)}
    players = {p.pk: _clone(p, event_id=target.pk, unit_id=units[p.unit_id]).pk
               for p in Player.objects.filter(event=source)}
    teams = {t.pk: _clone(t, event_id=target.pk, unit_id=units[t.unit_id]).pk for t in Team.objects.filter(event=source)}
    for pair in Pair.objects.filter(event=source):
        _clone(pair, event_id=target.pk, unit_id=units[pair.unit_id], player1_id=players[pair.player1_id],
               player2_id=players[pair.player2_id], team_id=teams.get(pair.team_id),
               status=Pair.Status.ACTIVE)
