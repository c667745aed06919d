"""Issue 29 "Done when": a typed client generated from the live schema by openapi-python-client (offline, from
the installed package) passes mypy, and drives an integrator's flow on the demo event: authenticate with a
token, list rounds and matches, record three hands and a ruling with Idempotency-Keys (a retry not doubled),
read levels and standings (round robin, Swiss, units), close a round as the chief, read the results and the
offence codes as JSON, get 304 for an If-None-Match. A scoreboard reads a published event with a plain Client,
no credentials, type-checked with mypy --strict (#46 item 7)."""
import importlib
import json
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client

from demo.event import seed_demo
from demo.swiss import seed_swiss_event, seed_union_event
from rulings.models import Ruling
from scoring.models import Hand
from tests.conftest import connection_kept
from tests.tournament.test_clock_fixtures import make_round
from tournament.staff import tokens

BIN = Path(sys.executable).parent
PACKAGE = "tractor_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory, django_db_setup, django_db_blocker):
    """The client package generated from /api/schema/ (its folder)."""
    folder = tmp_path_factory.mktemp("client")
    schema = folder / "schema.json"
    with django_db_blocker.unblock():
        schema.write_bytes(Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    assert json.loads(schema.read_text())["paths"]
    (folder / "cfg.yaml").write_text(f"post_hooks: []\npackage_name_override: {PACKAGE}\n")
    made = subprocess.run([BIN / "openapi-python-client", "generate", "--path", schema, "--output-path",
                           folder / PACKAGE, "--meta", "none", "--config", folder / "cfg.yaml"],
                          timeout=120, capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Endpoint will not be generated" not in made.stdout, made.stdout  # every operation has its function
    return folder


def test_a_client_generated_from_the_live_schema_passes_mypy(generated):
    package = generated / PACKAGE
    assert (package / "api" / "events" / "events_rounds_list.py").exists()
    typed = subprocess.run([BIN / "mypy", "--no-incremental", "--ignore-missing-imports", package],
                           timeout=300, capture_output=True, text=True)
    assert typed.returncode == 0, typed.stdout


def _import(generated, name):
    if str(generated) not in sys.path:
        sys.path.insert(0, str(generated))
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_an_integrators_flow_with_the_generated_client(generated, db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    event = seed_demo()[0]
    client_module, models = _import(generated, "client"), _import(generated, "models")
    operations = {"events": ["events_matches_list", "events_ranking_retrieve", "events_rounds_list",
                             "events_tokens_create"],
                  "matches": ["matches_hands_create", "matches_hands_list", "matches_retrieve",
                              "matches_state_retrieve", "ruling_record"],
                  "rounds": ["rounds_close_create"],
                  "stages": ["stages_standings_retrieve", "stages_swiss_standings_retrieve"]}
    operations["events"] += ["events_units_retrieve", "events_offences_list"]
    op = {name: _import(generated, f"api.{tag}.{name}") for tag, names in operations.items() for name in names}

    organiser = event.staff.get(role="organiser").user
    chief = event.staff.get(role="chief_referee").user
    _token, organiser_key = tokens.create_token(event, organiser.pk, "成绩导入", by=organiser)  # the staff page's

    def client_with(key):
        return client_module.AuthenticatedClient(
            base_url="http://testserver", token=key, raise_on_unexpected_status=True,
            httpx_args={"transport": httpx.WSGITransport(app=WSGIHandler())})

    with connection_kept():
        # the organiser's program makes the chief's token through the API
        made = op["events_tokens_create"].sync_detailed(event.slug, client=client_with(organiser_key),
                                                  body=models.EventTokenInput(name="裁判长程序", user=chief.pk),
                                                  idempotency_key=str(uuid.uuid4()))
        assert made.status_code == 201, made.content
        chief_client = client_with(made.parsed.key)

        # rounds with their ids, the playing tables of the running round
        rounds = op["events_rounds_list"].sync(event.slug, client=chief_client)
        running = next(r for r in rounds if r.clock == models.ClockEnum.RUNNING)
        tables = op["events_matches_list"].sync(event.slug, client=chief_client, round_=running.id,
                                          status=models.EventsMatchesListStatus.PLAYING)
        assert tables and {m.round_ for m in tables} == {running.id}
        match = op["matches_retrieve"].sync(tables[0].id, client=chief_client)
        assert (match.round_, match.stage, match.table) == (running.id, running.stage, tables[0].table)

        # three hands, each with its key; a retry with the first key is the stored answer, not a fourth hand
        before = len(op["matches_hands_list"].sync(match.id, client=chief_client))
        state = op["matches_state_retrieve"].sync(match.id, client=chief_client)
        keys = [str(uuid.uuid4()) for _ in range(3)]
        answers = []
        for offset, (key, points) in enumerate(zip(keys, (40, 85, 120))):
            number = state.next_number + offset
            first_hand = {"declarer": models.HandInputDeclarerEnum.N} if number == 1 else {}
            body = models.Played(number=number, trump=models.TrumpEnum.S, defender_points=points, **first_hand)
            answers.append((body, op["matches_hands_create"].sync_detailed(match.id, client=chief_client, body=body,
                                                                     idempotency_key=key)))
        assert [a.status_code for _b, a in answers] == [201, 201, 201], [a.content for _b, a in answers]
        replay = op["matches_hands_create"].sync_detailed(match.id, client=chief_client, body=answers[0][0],
                                                    idempotency_key=keys[0])
        assert replay.status_code == 201 and replay.headers["Idempotent-Replay"] == "true"
        assert replay.parsed.hand.number == answers[0][1].parsed.hand.number
        assert Hand.objects.filter(match_id=match.id).count() == before + 3

        # a ruling with its key, retried
        ruling_key = str(uuid.uuid4())
        offence = models.Record(code="delay", side=models.SideOrSeatEnum.NS, note="拖延出牌")
        ruled = op["ruling_record"].sync_detailed(match.id, client=chief_client, body=offence, idempotency_key=ruling_key)
        assert ruled.status_code == 201, ruled.content
        again = op["ruling_record"].sync_detailed(match.id, client=chief_client, body=offence, idempotency_key=ruling_key)
        assert again.status_code == 201 and again.parsed.id == ruled.parsed.id
        assert Ruling.objects.filter(match_id=match.id, code="delay").count() == 1

        # levels and standings
        now = op["matches_state_retrieve"].sync(match.id, client=chief_client)
        assert now.next_number == state.next_number + 3
        read = op["matches_retrieve"].sync(match.id, client=chief_client)
        assert set(now.levels.additional_properties.values()) <= {read.ns_level, read.ew_level}
        assert now.levels.additional_properties == answers[-1][1].parsed.state.levels.additional_properties
        ranking = op["events_ranking_retrieve"].sync(event.slug, client=chief_client)
        assert isinstance(ranking, models.Ranking)
        group_round = rounds[0]
        standings = op["stages_standings_retrieve"].sync(group_round.stage, client=chief_client)
        assert isinstance(standings, models.StageStandings) and standings.groups
        assert all(row.rank for group in standings.groups for row in group.rows)

        # the chief closes the group stage's first round (every table has its result)
        closed = op["rounds_close_create"].sync_detailed(group_round.id, client=chief_client,
                                                   idempotency_key=str(uuid.uuid4()))
        assert closed.status_code == 200, closed.content
        after = {r.id: r for r in op["events_rounds_list"].sync(event.slug, client=chief_client)}
        assert after[group_round.id].status == models.RoundReadStatusEnum.CLOSED

        # results as JSON, the codes a ruling takes; Swiss and unit standings of the other demo events
        results = op["events_matches_list"].sync(event.slug, client=chief_client,
                                                 status=models.EventsMatchesListStatus.FINISHED)
        assert results and all(m.winner_name for m in results if m.winner is not None)
        offences = op["events_offences_list"].sync(event.slug, client=chief_client)
        assert "delay" in {o.code for o in offences}
        swiss, union = seed_swiss_event(), seed_union_event()
        swiss_stage = swiss.stages.get(kind="swiss")
        table = op["stages_swiss_standings_retrieve"].sync(swiss_stage.pk, client=chief_client)
        assert isinstance(table, models.SwissStandings) and table.rows and table.rows[0].rank == 1
        units = op["events_units_retrieve"].sync(union.slug, client=chief_client)
        assert isinstance(units, models.UnitStandings) and units.complete and units.lines[0].rank == 1

        # polling: the rounds again with their ETag are a 304 without a body
        first = op["events_rounds_list"].sync_detailed(event.slug, client=chief_client)
        tag = first.headers["ETag"]
        unchanged = op["events_rounds_list"].sync_detailed(event.slug, client=chief_client, if_none_match=tag)
        assert unchanged.status_code == 304 and unchanged.content == b""



READER = '''"""A scoreboard: a published event's rounds and matches, read with no credentials (a plain Client)."""
from tractor_client.api.events import events_matches_list, events_retrieve, events_rounds_list
from tractor_client.api.matches import matches_retrieve
from tractor_client.client import Client
from tractor_client.models import Event, MatchRead


def scoreboard(client: Client, slug: str) -> tuple[str, list[int], list[str]]:
    event = events_retrieve.sync(slug, client=client)
    if not isinstance(event, Event):
        raise LookupError(slug)
    rounds = events_rounds_list.sync(slug, client=client)
    matches = events_matches_list.sync(slug, client=client)
    if not isinstance(rounds, list) or not isinstance(matches, list):
        raise LookupError(slug)
    levels: list[str] = []
    for listed in matches:
        match = matches_retrieve.sync(listed.id, client=client)
        if isinstance(match, MatchRead):
            levels.append(f"{match.table}: {match.ns_level}-{match.ew_level}")
    return event.name, [r.id for r in rounds], levels
'''


def test_a_plain_client_reads_a_published_event_with_no_credentials(generated, db):
    """#46 item 7: public reads were generated for an AuthenticatedClient only (their security held `{}` beside
    the schemes): a plain Client failed mypy, and an empty token is refused. Now a scoreboard's code, typed
    with `mypy --strict`, reads a published event with no credentials at all."""
    (generated / "scoreboard.py").write_text(READER)
    typed = subprocess.run([BIN / "mypy", "--strict", "--no-incremental", "scoreboard.py"], cwd=generated,
                           timeout=300, capture_output=True, text=True)
    assert typed.returncode == 0, typed.stdout
    rnd = make_round(tables=2)
    client_module, scoreboard = _import(generated, "client"), _import_file(generated, "scoreboard")
    anonymous = client_module.Client(base_url="http://testserver", raise_on_unexpected_status=True,
                                     httpx_args={"transport": httpx.WSGITransport(app=WSGIHandler())})
    with connection_kept():
        name, round_ids, levels = scoreboard.scoreboard(anonymous, rnd.stage.event.slug)
    assert (name, round_ids) == (rnd.stage.event.name, [rnd.pk])
    assert levels == ["1: -", "2: -"]   # no hand played yet: no levels


def _import_file(generated, name):
    if str(generated) not in sys.path:
        sys.path.insert(0, str(generated))
    return importlib.import_module(name)
