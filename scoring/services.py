"""Database side of rule profiles: load the profile files into versioned RuleProfile rows."""
from pathlib import Path

import yaml
from django.conf import settings
from django.db import transaction

from .models import RuleProfile

PROFILE_DIR = Path(settings.BASE_DIR) / "fixtures" / "profiles"


def read_profile_files():
    """Every profile file under fixtures/profiles/, as {slug: (data, file name)}."""
    from .profiles import validate_profile_dict

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
    that froze an older version keep it.
    """
    created = []
    for slug, (data, filename) in read_profile_files().items():
        latest = RuleProfile.objects.select_for_update().filter(slug=slug).order_by("-version").first()
        if latest is not None and latest.data == data:
            continue
        created.append(
            RuleProfile.objects.create(
                slug=slug,
                version=(latest.version + 1) if latest else 1,
                name=data["name"],
                data=data,
                source=f"fixtures/profiles/{filename}",
                based_on=latest,
            )
        )
    return created


def latest_profile(slug):
    """The newest stored version of a profile (loading the files first if none is stored)."""
    profile = RuleProfile.objects.filter(slug=slug).order_by("-version").first()
    if profile is None:
        sync_profiles()
        profile = RuleProfile.objects.filter(slug=slug).order_by("-version").first()
    if profile is None:
        raise ValueError(f"未知的规则配置：{slug} (unknown rule profile)")
    return profile
