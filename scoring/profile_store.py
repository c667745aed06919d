"""Rule-profile versions in the database: the profile files stored as versioned RuleProfile rows.

    read_profile_files() -> {slug: (data, file name)}
    sync_profiles() -> [RuleProfile]        a changed file becomes a new version; versions are never edited
    latest_profile(slug) -> RuleProfile     the newest version an event may pick (never an imported copy)
    engine_profile(rule_profile) -> scoring.profiles.Profile   built once per stored version (cached)
    shared_profile(rule_profile) -> RuleProfile   the process's copy of a version (its JSON read once)
    shared_version(profile_id) -> RuleProfile     the same, by id

A profile's texts in the active language are read by ``infra.profile_words``.
"""
from __future__ import annotations

import copy
import threading

import yaml
from django.db import transaction

from common.errors import UserError, gettext_noop
from infra.profile_words import PROFILE_DIR
from scoring.models import RuleProfile
from scoring.profiles import profile_from_dict, validate_profile_dict


def read_profile_files():
    """Every profile file under fixtures/profiles/, as {slug: (data, file name)}."""
    found = {}
    for path in sorted(PROFILE_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        validate_profile_dict(data, path.name)
        found[data["slug"]] = (data, path.name)
    return found


@transaction.atomic
def sync_profiles():
    """Store each profile file as a RuleProfile version; a changed file becomes a new version.

    Returns the list of RuleProfile rows created. Existing versions are never modified, so events
    that froze an older version keep it. A file is compared with the newest version an event may pick (an
    imported event's frozen copy is none).
    """
    created = []
    for slug, (data, filename) in read_profile_files().items():
        latest = RuleProfile.objects.offered().select_for_update().filter(slug=slug).order_by("-version").first()
        if latest is not None and latest.data == data:
            continue
        created.append(RuleProfile.add_version(slug, name=data["name"], data=data,
                                               source=f"fixtures/profiles/{filename}", based_on=latest))
    return created


def latest_profile(slug):
    """The newest version of a profile a new event may pick: a shipped file's or one an organiser made, never
    the frozen copy an imported event brought (loading the files first if none is stored)."""
    offered = RuleProfile.objects.offered().filter(slug=slug).order_by("-version")
    profile = offered.first()
    if profile is None:
        sync_profiles()
        profile = offered.first()
    if profile is None:
        raise UserError(gettext_noop("Unknown rule profile: %(slug)s."), field="profile", slug=slug)
    return profile


_profile_cache: dict = {}
_profile_lock = threading.Lock()


def engine_profile(rule_profile: RuleProfile):
    """The engine Profile built from a stored version's JSON, cached per row while its data is unchanged."""
    cached = _profile_cache.get(rule_profile.pk)
    if cached is not None and cached[0] == rule_profile.data:
        return cached[1]
    profile = profile_from_dict(rule_profile.data, f"{rule_profile.slug} v{rule_profile.version}")
    with _profile_lock:
        _profile_cache[rule_profile.pk] = (copy.deepcopy(rule_profile.data), profile)
    return profile


_shared: dict = {}


def shared_profile(rule_profile: RuleProfile) -> RuleProfile:
    """The process's copy of the RuleProfile version ``rule_profile`` (which may be read without its
    ``data``): see :func:`shared_version`."""
    return shared_version(rule_profile.pk)


def shared_version(profile_id: int) -> RuleProfile:
    """The process's copy of the RuleProfile version ``profile_id``: a version a match plays under is never
    changed, so it is read and its JSON decoded once per process, not on every write (a hand's write reads
    the match without joining its profile). Forgotten when any version is saved or deleted
    (:func:`forget_shared`: a test database reuses ids)."""
    found = _shared.get(profile_id)
    if found is None:
        found = RuleProfile.objects.get(pk=profile_id)
        with _profile_lock:
            _shared[profile_id] = found
    return found


def forget_shared(**_signal):
    """Signal receiver (RuleProfile saved or deleted): the process's copies are read again when next asked."""
    with _profile_lock:
        _shared.clear()
