"""The event survives its laptop (issue 44 item 6): while an event has a round open its event file is written
every few minutes into the server's snapshot folder, atomically, the last 12 kept; the organiser's page says when
the last was taken and warns when it is overdue; and the drill (a fresh installation imports the last snapshot)
finds every hand up to it."""
import datetime as dt
import json
import os
import subprocess
import sys

import pytest

from scoring.models import Hand
from tests.conftest import REPO
from tests.tournament.test_clock_fixtures import make_round, play, tables_of
from tournament import roles
from tournament.competition import rounds
from tournament.models import EventRole, Match
from tournament.transfer import snapshots

pytestmark = pytest.mark.django_db


@pytest.fixture
def folder(settings, tmp_path):
    settings.EVENT_SNAPSHOT_DIR = tmp_path / "usb"
    settings.EVENT_SNAPSHOT_MINUTES = 5
    settings.EVENT_SNAPSHOT_KEEP = 12
    return settings.EVENT_SNAPSHOT_DIR


@pytest.fixture
def chief(make_user):
    return make_user(roles.CHIEF_REFEREE)


def test_an_event_with_a_round_open_is_written_every_interval_and_twelve_are_kept(folder, frozen_now, chief):
    rnd = make_round()
    slug = rnd.stage.event.slug
    Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED)
    assert snapshots.snapshot_due() == []                # no table begun, no clock: nothing is open
    play(tables_of(rnd)[0], chief)
    first = snapshots.snapshot_due()
    assert [p.name for p in first] == [f"{slug}-20261205-010000.json"]
    assert json.loads(first[0].read_text(encoding="utf-8"))["format"] == "tractor-event"
    frozen_now.advance(minutes=4)
    assert snapshots.snapshot_due() == []                # the last is younger than the interval
    for _ in range(14):
        frozen_now.advance(minutes=5)
        assert len(snapshots.snapshot_due()) == 1
    kept = snapshots.files_of(slug)
    assert len(kept) == 12 and kept[0].name == f"{slug}-20261205-021400.json"   # 01:00 + 4 + 14 x 5 minutes
    assert not list(folder.glob(".*.part"))


def test_a_closed_round_stops_the_snapshots(folder, chief, frozen_now):
    rnd = make_round(tables=1)
    match = tables_of(rnd)[0]
    for _ in range(60):                                   # the declarers climb every hand until they win
        match.refresh_from_db()
        if match.is_over:
            break
        play(match, chief, defender_points=0)
    rounds.close_round(rnd, chief)
    assert snapshots.snapshot_due() == []


def test_a_failed_write_leaves_the_earlier_snapshots_whole(folder, frozen_now, chief, monkeypatch):
    rnd = make_round()
    play(tables_of(rnd)[0], chief)
    [earlier] = snapshots.snapshot_due()
    frozen_now.advance(minutes=5)

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError):
        snapshots.snapshot_due()
    assert [p.name for p in folder.iterdir()] == [earlier.name]


def test_the_organisers_page_says_when_and_warns_when_overdue(folder, frozen_now, chief, client, make_user):
    rnd = make_round()
    event = rnd.stage.event
    organiser = make_user()
    EventRole.objects.create(event=event, user=organiser, role=roles.ORGANISER)
    client.force_login(organiser)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "尚无自动备份" in page and "自动备份已逾期" not in page          # no table begun: nothing overdue yet
    play(tables_of(rnd)[0], chief)
    frozen_now.advance(minutes=11)
    assert "自动备份已逾期" in client.get(f"/events/{event.slug}/").content.decode()   # no worker took one
    snapshots.snapshot_due()
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "最近一次自动备份" in page and "每5分钟" in page and "自动备份已逾期" not in page
    assert "。有轮次进行时" in page                          # two Chinese sentences, no space between them
    frozen_now.advance(minutes=11)                        # the worker stopped: twice the interval passed
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "自动备份已逾期" in page
    client.logout()
    assert "自动备份" not in client.get(f"/events/{event.slug}/").content.decode()


@pytest.mark.worker
def test_the_laptop_died_drill_finds_every_hand_up_to_the_snapshot(folder, frozen_now, chief, tmp_path):
    """README's drill: on the spare laptop a fresh installation (its own database), the last snapshot imported."""
    rnd = make_round(tables=2)
    for match in tables_of(rnd):
        for _ in range(3):
            play(match, chief)
    [snapshot] = snapshots.snapshot_due()
    hands = sorted(Hand.objects.filter(match__round=rnd).values_list("match_id", "number", "version"))
    play(tables_of(rnd)[0], chief)                        # a hand after the snapshot: lost with the laptop

    spare = tmp_path / "spare"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DJANGO_VAR_DIR=str(spare), DATABASE_URL=f"sqlite:///{spare / 'db.sqlite3'}", DJANGO_CACHE="file")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=REPO, env=env, check=True, timeout=300)
    subprocess.run([*manage, "import_event", str(snapshot)], cwd=REPO, env=env, check=True, timeout=300,
                   capture_output=True)
    read = subprocess.run([*manage, "shell", "-c", (
        "import json; from scoring.models import Hand; "
        f"print(json.dumps(sorted(Hand.objects.filter(match__round__stage__event__slug='{rnd.stage.event.slug}')"
        ".values_list('match_id', 'number', 'version'))))")],
        cwd=REPO, env=env, check=True, timeout=300, capture_output=True, text=True)
    found = json.loads(read.stdout.strip().splitlines()[-1])
    assert [tuple(row) for row in found] == hands and len(hands) == 6
