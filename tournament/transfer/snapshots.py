"""The event survives its laptop: while an event has a round open, its event file (the export the import reads)
is written every ``EVENT_SNAPSHOT_MINUTES`` into ``EVENT_SNAPSHOT_DIR``, a folder set by whoever runs the server
(a USB stick's mount point; never a path typed into a web page), the last ``EVENT_SNAPSHOT_KEEP`` of each event
kept.

The folder is the one owner of "when was the last snapshot": each file is named ``<slug>-<UTC stamp>.json`` and
written atomically (a temporary file in the same folder, flushed to the disk, then renamed), so a reader never
sees half a file and a crash leaves the earlier snapshots as they were. The beat runs :func:`snapshot_due` every
minute (``tournament.snapshot_events``); a second run in the same minute finds nothing due.
"""
from __future__ import annotations

import datetime as dt
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db.models import Min, Q

from infra import clock
from tournament.models import ClockEvent, Event, Match, Round
from tournament.transfer import services

STAMP = "%Y%m%d-%H%M%S"


@dataclass(frozen=True)
class SnapshotStatus:
    last: dt.datetime | None   # when the newest snapshot was taken
    round_open: bool           # the event has a round in progress: snapshots are being taken
    stale: bool                # a round is open and its newest snapshot is older than twice the interval


def folder() -> Path:
    return Path(settings.EVENT_SNAPSHOT_DIR)


def interval() -> dt.timedelta:
    return dt.timedelta(minutes=settings.EVENT_SNAPSHOT_MINUTES)


def files_of(slug: str) -> list[Path]:
    """The event's snapshots, newest first."""
    if not folder().is_dir():
        return []
    stamped = [(taken_at(path, slug), path) for path in folder().glob(f"{slug}-*.json")]
    return [path for when, path in sorted((s for s in stamped if s[0] is not None), reverse=True)]


def taken_at(path: Path, slug: str) -> dt.datetime | None:
    stamp = path.name.removeprefix(f"{slug}-").removesuffix(".json")
    try:
        return dt.datetime.strptime(stamp, STAMP).replace(tzinfo=dt.timezone.utc)
    except ValueError:   # another event's whose slug starts with this one's, or a stranger's file
        return None


def events_with_a_round_open():
    """Events with a round in progress: not closed, and its clock started or a table begun
    (:func:`tournament.competition.rounds.round_status`)."""
    begun = (Q(stages__rounds__matches__started_at__isnull=False)
             | Q(stages__rounds__matches__status__in=Match.PLAYED)
             | Q(stages__rounds__clock_events__kind=ClockEvent.Kind.START))
    return Event.objects.filter(begun, stages__rounds__results_published_at__isnull=True).distinct()


def opened_at(event: Event) -> dt.datetime | None:
    """When the event's open rounds began: their first table's start or their clock's, whichever came first."""
    open_rounds = Round.objects.filter(stage__event=event, results_published_at__isnull=True)
    times = [Match.objects.filter(round__in=open_rounds).aggregate(first=Min("started_at"))["first"],
             ClockEvent.objects.filter(round__in=open_rounds, kind=ClockEvent.Kind.START)
             .aggregate(first=Min("at"))["first"]]
    return min((t for t in times if t is not None), default=None)


def status(event: Event, now: dt.datetime | None = None) -> SnapshotStatus:
    """Overdue: a round is open and the newest snapshot (else the round's start) is twice the interval old."""
    now = now or clock.now()
    newest = files_of(event.slug)
    last = taken_at(newest[0], event.slug) if newest else None
    round_open = events_with_a_round_open().filter(pk=event.pk).exists()
    since = last or (opened_at(event) if round_open else None)
    stale = round_open and since is not None and now - since > 2 * interval()
    return SnapshotStatus(last=last, round_open=round_open, stale=stale)


def write(event: Event, now: dt.datetime | None = None) -> Path:
    """Write the event's file now, atomically, and keep only the newest ``EVENT_SNAPSHOT_KEEP``."""
    now = now or clock.now()
    folder().mkdir(parents=True, exist_ok=True)
    target = folder() / f"{event.slug}-{now.astimezone(dt.timezone.utc).strftime(STAMP)}.json"
    text = services.export_text(event)
    handle, temporary = tempfile.mkstemp(prefix=f".{event.slug}-", suffix=".part", dir=folder())
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    for old in files_of(event.slug)[settings.EVENT_SNAPSHOT_KEEP:]:
        old.unlink(missing_ok=True)
    return target


def snapshot_due(now: dt.datetime | None = None) -> list[Path]:
    """Write a snapshot of every event with a round open whose newest one is an interval old (the beat's task)."""
    now = now or clock.now()
    written = []
    for event in events_with_a_round_open():
        last = status(event, now).last
        if last is None or now - last >= interval():
            written.append(write(event, now))
    return written
