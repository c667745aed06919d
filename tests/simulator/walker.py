"""Open every page and every API read of an event (derived from Django's URL resolver, so a new address is
walked without a change here), as each role, and build every printout and export.

``addresses(event, sample)`` fills each pattern's keywords from the event's objects; a pattern whose keyword
cannot be filled is named in :data:`SKIPPED` with the reason (a pattern neither walked nor skipped fails
``test_every_address_is_walked_or_skipped``).
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from openpyxl import load_workbook
from pypdf import PdfReader

from rulings.models import Appeal, Ruling
from tournament.models import EventRole, HandEntry, Match, Pair, Round

ROLES = ("anonymous", "organiser", "chief", "referee", "arbiter")

# Route names (or route prefixes) not walked, with the reason. Keep it short.
SKIPPED = {
    "api-schema": "the OpenAPI schema is not the event's (tests/test_api_schema.py)",
    "api-docs": "the OpenAPI viewer is not the event's (tests/test_api_schema.py)",
    "set_language": "POST only (the language switch)",
    "logout": "POST only, and it would end the session",
    "first_password": "only after a one-time password (tests/test_authentication.py)",
    "first_run": "a fresh install's setup page (tests/tournament/test_first_run.py)",
    "unit_register": "needs a registration link's key; no link in a simulated event",
    "unit_register_check": "needs a registration link's key; no link in a simulated event",
    "printout_job_status": "needs a print job; printouts are built in-process by the printout walk",
    "printout_job_file": "needs a print job; printouts are built in-process by the printout walk",
    "printout_download": "built in-process by the printout walk (the registry, every kind)",
    "event_token_revoke": "needs an API token; none in a simulated event",
    "api_event_token": "needs an API token; none in a simulated event",
    "site_token_revoke": "needs an API token; none in a simulated event",
    "api_site_token": "needs an API token; none in a simulated event",
    "site_organiser_card": "the site administrator's page of an organiser account, not the event's",
    "table-service-worker": "the service worker script, not a page",
}
NOT_THE_EVENTS = ("admin/",)   # Django's admin is not walked


@dataclass(frozen=True)
class Address:
    name: str
    route: str
    url: str


def _patterns(patterns=None, prefix=""):
    for p in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(p, URLResolver):
            yield from _patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name


def routes():
    """Every (route, name) of config.urls but the admin, DRF's format-suffix twins and the API's catch-all."""
    found = []
    for route, name in _patterns():
        if route.startswith(NOT_THE_EVENTS) or "format" in route or name is None:
            continue
        found.append((route, name))
    return found


_KEYWORD = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>|\(\?P<(?P<rname>\w+)>[^)]*\)")


def _to_url(route, values):
    route = route.replace("^", "").replace("$", "").replace("\\.", ".")
    return "/" + _KEYWORD.sub(lambda m: str(values[m.group("name") or m.group("rname")]), route)


class Sample:
    """The event's objects whose ids fill the addresses: a few of each kind, chosen to cover each kind of state
    (a bye, a match of each status, a closed round, a disqualified pair, ...)."""

    def __init__(self, event, *, per_kind=4, current=None):
        self.event, self.current = event, current
        rows = Match.objects.filter(round=current) if current is not None else Match.objects.all()
        matches = list(rows.filter(round__stage__event=event).order_by("-round__stage__order", "-round__number",
                                                                                "table", "pk"))
        gone = set(Pair.objects.filter(event=event, status__in=Pair.GONE).values_list("pk", flat=True))
        chosen = [m for m in matches if m.status == Match.Status.BYE][:1]        # a bye first, where there is one
        chosen += [m for m in matches if m.ns_id in gone or m.ew_id in gone][:1]   # a table of a pair gone
        statuses = {m.status for m in chosen}
        for m in matches:   # then one of each other status, the latest first
            if m.status not in statuses:
                statuses.add(m.status)
                chosen.append(m)
        chosen = list(dict.fromkeys(chosen))
        self.matches = [m.pk for m in chosen[:per_kind + 1]]
        rounds = list(Round.objects.filter(stage__event=event).order_by("-stage__order", "-number"))
        closed = [r for r in rounds if r.results_published_at is not None]
        bye_rounds = set(Match.objects.filter(round__stage__event=event, status=Match.Status.BYE)
                         .values_list("round_id", flat=True))
        picked = rounds[:1] + [r for r in rounds if r.pk in bye_rounds][:1] + closed[:1]
        self.rounds = list(dict.fromkeys(r.pk for r in picked))[:per_kind + 1]
        if current is not None:
            self.rounds = [current.pk]
        self.stages = list(event.stages.order_by("order").values_list("pk", flat=True))
        pairs = list(Pair.objects.filter(event=event).order_by("pk"))
        odd = [p.pk for p in pairs if p.status != Pair.Status.ACTIVE or p.reserve]
        self.pairs = list(dict.fromkeys(([p.pk for p in pairs[:1]] + odd)[:per_kind]))
        self.rulings = list(Ruling.objects.filter(match__round__stage__event=event).order_by("-pk")
                            .values_list("pk", flat=True)[:per_kind])
        self.appeals = list(Appeal.objects.filter(ruling__match__round__stage__event=event).order_by("-pk")
                            .values_list("pk", flat=True)[:per_kind])
        # the players' entries (tables where the players record): their operations are POSTs (a GET: 405)
        self.entries = list(HandEntry.objects.filter(match_id__in=self.matches).order_by("-pk")
                            .values_list("pk", flat=True)[:per_kind])
        self.staff = list(EventRole.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)[:1])
        self.users = list(EventRole.objects.filter(event=event).order_by("pk").values_list("user_id", flat=True)[:1])
        self.entries = list(HandEntry.objects.filter(match__round__stage__event=event).order_by("-pk")
                            .values_list("pk", flat=True)[:1])

    def scoped(self, address) -> bool:
        """Is ``address`` one of the current round's (its clock, desk, display, a table of it)?"""
        return "round_id" in address.route or "match_id" in address.route

    def values_for(self, route, name):
        """The list of keyword dicts to fill ``route`` with (empty: nothing of that kind yet)."""
        keywords = [m.group("name") or m.group("rname") for m in _KEYWORD.finditer(route)]
        options = [{}]
        for key in keywords:
            if key in ("slug", "event_slug"):
                ids = [self.event.slug]
            elif key == "match_id":
                ids = self.matches
            elif key == "round_id":
                ids = self.rounds
            elif key == "stage_id":
                ids = self.stages
            elif key == "pair_id":
                ids = self.pairs
            elif key == "number":
                ids = [1]
            elif key == "user_id":
                ids = self.users
            elif key == "entry_id":   # the players' entries: POST only (a GET answers 405)
                ids = self.entries
            elif key == "what":
                ids = ["entries", "schedule", "results", "template"]
            elif key == "kind":
                ids = []
            elif key == "pk":
                ids = self._pk(route)
            elif key == "entry_id":
                ids = self.entries
            else:
                raise KeyError(f"{name}: no value for <{key}> in {route}")
            options = [{**o, key: v} for o in options for v in ids]
        return options

    def _pk(self, route):
        if "rulings/" in route:
            return self.rulings
        if "appeals/" in route:
            return self.appeals
        if "stages/" in route:
            return self.stages
        if "entries/" in route or "pairs/" in route:
            return self.pairs
        if "staff/" in route:
            return self.staff
        raise KeyError(f"no value for <pk> in {route}")


def addresses(event, sample=None):
    """Every address of the event to open (and the patterns without any object yet to fill them)."""
    sample = sample or Sample(event)
    found = []
    for route, name in routes():
        if name in SKIPPED:
            continue
        for values in sample.values_for(route, name):
            found.append(Address(name, route, _to_url(route, values)))
    return found


def clients(users):
    """A logged-in test client per role (Chinese, the default)."""
    made = {"anonymous": Client()}
    for role in ROLES[1:]:
        client = Client()
        client.force_login(users[role])
        made[role] = client
    return made


def body_of(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def kind_of(response) -> str:
    content_type = response.get("Content-Type", "")
    for kind in ("html", "json", "pdf", "spreadsheetml", "png", "svg", "javascript", "event-stream", "csv"):
        if kind in content_type:
            return kind
    return content_type


def xlsx_text(data: bytes) -> str:
    book = load_workbook(io.BytesIO(data), read_only=True)
    lines = []
    for sheet in book.worksheets:
        lines.append(f"## {sheet.title}")
        for row in sheet.iter_rows(values_only=True):
            lines.append("\t".join("" if v is None else str(v) for v in row))
    return "\n".join(lines)


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]
