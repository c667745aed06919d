"""schemathesis against the live OpenAPI description, for every role (issues 17 and 26): generated requests to
every operation, through the Django WSGI application (no server), as anonymous visitors, the organiser, the
chief referee, a table referee and an arbiter of the demo event, the organiser of another event, and a table
referee's API token (``Authorization: Bearer``). Every check schemathesis 4 has runs on every answer
(``CHECKS``: not_a_server_error, the status code, content type, headers and body as documented,
negative_data_rejection, positive_data_acceptance, missing_required_header, unsupported_method,
allow_header_conformance, ignored_auth, use_after_free, ensure_resource_availability,
object_level_authorization); every failure is listed.

The cases: schemathesis's coverage phase (the boundaries of every field: blank, too long, the wrong type, a
missing required field, an undeclared method, ...) as the role who may make the request (``coverage_role``),
and ``EXAMPLES`` fuzzed cases per operation and role
(positive and negative, a fixed seed, no shrinking), path parameters drawn from the demo's real objects half
of the time (always for negative bodies), so that the requests reach the views and services, not only the
404s. Generated texts hold NUL characters (schemathesis's default); a lone surrogate (which no UTF-8 text
holds, so schemathesis cannot generate one) is put in a text of every ``SURROGATE_EVERY``-th positive case by
the test, which expects the field's 400. About two minutes on 2 cores. ``SCHEMATHESIS_EXAMPLES``,
``SCHEMATHESIS_MODES`` (``positive,negative``) and ``SCHEMATHESIS_COVERAGE`` (``0``: none) widen or narrow a
run by hand.

What cannot hold by nature, and how the test treats it:

- positive_data_acceptance: a request the description allows is accepted unless the event's *state* refuses
  it, which no description of a request can state: the next hand's number changes with every hand, an
  appeal's second instance needs the first's decision, the last organiser stays, a draw needs the stage's
  entries... Those refusals are 400s naming their field; ``STATE_RULES`` lists each (operation, field) with
  its rule, and a 400 naming one of them is taken as the state's answer. Any other refusal of a valid request
  fails (the schema left something out), as does a validation error (``errors`` in the body) for any field.
- use_after_free and ensure_resource_availability follow the description's links (created, then read or
  deleted): it has none (the API's writes answer the object they made), so they check nothing here;
  object_level_authorization needs schemathesis's multi-identity configuration of the CLI, which this
  in-process run replaces by the roles (each role's refusals are checked as answers like any other);
  missing_required_header: no operation requires a header.
"""
import json
import os
import re
import time
import uuid
from collections import Counter

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS as REGISTERED_CHECKS
from schemathesis.generation.drivers import CoverageGenerator
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.overrides import Override
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.conftest import connection_kept

pytestmark = [pytest.mark.schemathesis]

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "8"))
MODES = [GenerationMode(mode) for mode in os.environ.get("SCHEMATHESIS_MODES", "positive,negative").split(",")]
COVERAGE = os.environ.get("SCHEMATHESIS_COVERAGE", "1") != "0"
SURROGATE_EVERY = 4
CSRF = "schemathesisschemathesisschemat1"  # a 32-character CSRF secret: the cookie and the header agree
ROLES = ["anonymous", "organiser", "chief", "referee1", "arbiter1", "other_organiser", "token"]
def coverage_role(operation) -> str:
    """The role whose requests to ``operation`` also get the coverage phase (the others: the fuzzed cases): the
    one who may make the write, so that its boundaries reach the view's checks, not the permission's refusal."""
    path, method = operation.path, operation.method.upper()
    if path.startswith("/api/matches/{match_id}/") and any(
            part in path for part in ("/hands/", "/lead/", "/rulings/")):
        return "referee1"
    if method != "GET" and (path.startswith(("/api/pairs/", "/api/rounds/", "/api/appeals/", "/api/rulings/"))
                            or path.endswith(("/result/", "/referees/"))):
        return "chief"
    return "organiser"

#: (operation, field): a 400 naming the field, to a request the description allows, is the event's state
#: refusing it (module docstring). Each is a rule about the event as it stands, not about the request.
STATE_RULES = {
    ("POST /api/matches/{match_id}/hands/", "number"): "the next hand's number, whatever was recorded so far",
    ("POST /api/matches/{match_id}/hands/", "declarer"): "a declarer for the first hand only, needed for it",
    ("POST /api/matches/{match_id}/hands/", "called_by"): "a 造反 names who called it: the attacking side's seat",
    ("POST /api/matches/{match_id}/hands/", "outcome"): "a 造反 where the profile allows it, after hand 1",
    ("POST /api/matches/{match_id}/hands/{number}/correct/", "called_by"): "the same, for a 造反 corrected",
    ("POST /api/matches/{match_id}/hands/{number}/correct/", "outcome"): "the same, for a 造反 corrected",
    ("POST /api/matches/{match_id}/hands/{number}/correct/", "number"): "only the last hand, the address's",
    ("POST /api/matches/{match_id}/hands/{number}/correct/", "declarer"): "a declarer for the first hand only",
    ("POST /api/matches/{match_id}/lead/", "hand_number"): "the hand in play",
    ("POST /api/matches/{match_id}/rulings/", "code"): "an offence of the event's rule profile",
    ("POST /api/matches/{match_id}/rulings/", "hand_number"): "a hand of the match",
    ("POST /api/matches/{match_id}/rulings/preview/", "code"): "an offence of the event's rule profile",
    ("POST /api/matches/{match_id}/rulings/", "declarer"): "a seat while the table has none, for a sanction needing it",
    ("POST /api/matches/{match_id}/rulings/preview/", "declarer"): "the same, as the record asks it (issue 43)",
    ("POST /api/matches/{match_id}/rulings/void-last/", "ruling"): "a ruling left to void",
    ("POST /api/rulings/{id}/choice/", "ruling"): "a ruling waiting for a choice",
    ("POST /api/rulings/{id}/choice/", "option"): "one of the ruling's options",
    ("POST /api/rulings/{id}/void/", "ruling"): "a ruling not void yet",
    ("GET /api/rulings/{id}/void/preview/", "ruling"): "a ruling not void yet",
    ("POST /api/rulings/{id}/approval/", "ruling"): "a ruling waiting for approval",
    ("POST /api/rulings/{id}/appeals/", "ruling"): "a ruling open to appeal",
    ("POST /api/appeals/{id}/decisions/", "instance"): "the first instance's decision before the second's",
    ("POST /api/appeals/{id}/decisions/", "amendment"): "an amendment of the appealed ruling's offence",
    ("POST /api/events/", "profile"): "a rule profile the site offers",
    ("POST /api/events/", "profile_version"): "a version of it the site offers",
    ("POST /api/events/", "end_date"): "not before the start date (two values: no schema compares them)",
    ("POST /api/events/", "slug"): "a web address no other event uses",
    ("PATCH /api/events/{slug}/", "profile"): "a rule profile the site offers, kept once play started",
    ("PATCH /api/events/{slug}/", "profile_version"): "a version of it the site offers",
    ("PATCH /api/events/{slug}/", "end_date"): "not before the start date",
    ("PATCH /api/events/{slug}/", "slug"): "a web address no other event uses",
    ("PATCH /api/events/{slug}/", "format"): "fixed once drawn",
    ("POST /api/events/{event_slug}/entries/", None): "entries are locked once drawn",
    ("POST /api/events/{slug}/staff/", "display_name"): "a new account needs the name it shows",
    ("POST /api/events/{slug}/staff/", "username"): "an account that may be given a role",
    ("POST /api/events/{slug}/staff/", "password"): "an existing account's password stays its owner's",
    ("DELETE /api/events/{slug}/staff/{id}/", "role"): "the last organiser stays",
    ("POST /api/events/{slug}/tokens/", "user"): "a person on the event's staff",
    ("POST /api/pairs/{id}/substitution/", "pair_in"): "a reserve pair of the team",
    ("GET /api/stages/{id}/standings/", "stage"): "only a round robin has standings",
    ("POST /api/stages/{id}/draws/", "stage"): "a stage none of whose matches has started",
    ("POST /api/stages/{id}/draws/", "entries"): "entries of the event, enough for the draw",
    ("POST /api/stages/{id}/draws/", "n_groups"): "no more groups than entries",
    ("POST /api/stages/{id}/draws/", "seeded"): "no more seeded entries than entries",
    ("POST /api/rounds/{round_id}/clock/actions/", "match"): "a table of this round",
    ("POST /api/rounds/{round_id}/clock/actions/", "action"): "what the clock's state allows (start once...)",
    ("POST /api/rounds/{round_id}/clock/actions/", "kind"): "what the clock's state allows (started first)",
    ("POST /api/matches/{match_id}/hand-entries/", "code"): "the side's code in force at the table (Side header)",
    ("POST /api/matches/{match_id}/hand-entries/", "number"): "past the recorded hands; a correction: the last",
    ("POST /api/matches/{match_id}/hand-entries/{entry_id}/confirm/", "code"): "the other side's code in force",
    ("POST /api/matches/{match_id}/hand-entries/{entry_id}/dispute/", "code"): "a side's code in force",
    ("POST /api/matches/{match_id}/hand-entries/{entry_id}/withdraw/", "code"): "the entering side's code",
}


@pytest.fixture
def demo_data(db, settings):
    """The demo event (accounts, groups played, rulings, clocks) and the ids its objects have."""
    from demo.event import seed_demo
    from rulings.models import Appeal, Ruling
    from scoring.models import Hand
    from tournament.models import EventRole, Match, Pair, Round, Stage

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    event = seed_demo()[0]
    # the demo's organiser creates no event (issue 26: no site-wide power); here it may, as a site
    # administrator lets a real organiser, so that POST /api/events/ is answered for real too
    get_user_model().objects.get(username="organiser").user_permissions.add(
        Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    matches = Match.objects.filter(round__stage__event=event)
    ruling = Ruling.objects.filter(match__round__stage__event=event).order_by("pk").first()
    Appeal.objects.create(ruling=ruling, side="NS", grounds="演示申诉", filed_by=ruling.recorded_by,
                          filed_at=ruling.recorded_at)  # the demo has none: the decisions' address needs one
    _other_event_and_token(event)
    return {
        "slug": [event.slug],
        "event_slug": [event.slug],
        "match_id": list(matches.values_list("pk", flat=True)[:12]),
        "round_id": list(Round.objects.filter(stage__event=event).values_list("pk", flat=True)),
        "stage": list(Stage.objects.filter(event=event).values_list("pk", flat=True)),
        "pair": list(Pair.objects.filter(event=event).values_list("pk", flat=True)[:6]),
        "ruling": list(Ruling.objects.filter(match__round__stage__event=event).values_list("pk", flat=True)[:8]),
        "appeal": list(Appeal.objects.filter(ruling__match__round__stage__event=event).values_list("pk", flat=True)),
        "staff": list(EventRole.objects.filter(event=event).values_list("pk", flat=True)),
        "number": sorted(set(Hand.objects.filter(match__in=matches).values_list("number", flat=True)))[:6],
    }


TOKENS = {}


def _other_event_and_token(event):
    """The organiser of another event (``other_organiser``, no role in the demo) and an API token of the
    demo's referee2 (a referee's tablet), kept in TOKENS."""
    import datetime as dt

    from tournament.events.services import create_event
    from tournament.staff.tokens import create_token

    other = get_user_model().objects.create_user(username="other_organiser", password="x" * 12)
    create_event(other, {"name": "另一场比赛", "start_date": dt.date(2026, 12, 6), "end_date": dt.date(2026, 12, 6),
                         "profile": "shenzhen-community"})
    referee2 = get_user_model().objects.get(username="referee2")
    TOKENS["token"] = create_token(event, referee2.pk, "二号台平板")[1]


def _ids_for(path, name, ids):
    """Which of the demo's ids fit the path parameter ``name`` of ``path``."""
    if name in ("slug", "event_slug", "match_id", "round_id", "number"):
        return ids[name]
    if name == "id":
        if path.startswith("/api/stages/"):
            return ids["stage"]
        if path.startswith(("/api/pairs/", "/api/entries/")):
            return ids["pair"]
        if path.startswith("/api/rulings/"):
            return ids["ruling"]
        if path.startswith("/api/appeals/"):
            return ids["appeal"]
        if "/staff/" in path:
            return ids["staff"]
    return []


def live_schema(ids):
    """The schema /api/schema/ serves, its path parameters drawn from the demo's ids half of the time."""
    raw = json.loads(Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    for path, item in raw["paths"].items():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                real = _ids_for(path, parameter["name"], ids) if parameter["in"] == "path" else []
                if real:
                    parameter["schema"] = {"anyOf": [{"enum": real}, parameter["schema"]]}
    return raw


def loaded_schema(ids):
    """The live schema for schemathesis, its security kept (so that a refusal before the method is known is
    the credentials' 401/403, and ignored_auth checks the refusals), but no credentials generated: who asks is
    the role's session or token (below)."""
    schema = schemathesis.openapi.from_dict(live_schema(ids))
    schema.app = get_wsgi_application()
    schema.config.generation.update(with_security_parameters=False)
    return schema


def _session_headers(username):
    """The cookie of a logged-in session and the CSRF header a browser would send with it."""
    if username == "anonymous":
        return {"headers": {}, "cookies": {}}
    if username in TOKENS:
        return {"headers": {"Authorization": f"Bearer {TOKENS[username]}"}, "cookies": {}}

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    session = client.cookies["sessionid"].value
    return {"headers": {"X-CSRFToken": CSRF}, "cookies": {"sessionid": session, "csrftoken": CSRF}}


def _strategy(operation, ids):
    """The cases of every MODE. Negative cases (bodies that do not fit the schema) go to the demo's real
    objects, so that they reach the checks of the views and services, not a 404."""
    strategies = []
    for mode in MODES:
        names = re.findall(r"{(\w+)}", operation.path)
        real = {name: _ids_for(operation.path, name, ids) for name in names}
        if mode is GenerationMode.NEGATIVE and not operation.body:
            continue  # nothing to break but the address: a 404
        if mode is GenerationMode.NEGATIVE and names and all(real.values()):
            strategies.append(st.fixed_dictionaries({n: st.sampled_from(v) for n, v in real.items()}).flatmap(
                lambda values: operation.as_strategy(generation_mode=GenerationMode.NEGATIVE,
                                                     path_parameters=values)))
        else:
            strategies.append(operation.as_strategy(generation_mode=mode))
    return st.one_of(strategies)


def _state_refusal(case, response) -> bool:
    """A 400 naming a field of STATE_RULES for this operation, without validation errors (module docstring)."""
    if response.status_code != 400:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    return "errors" not in body and (case.operation.label, body.get("field")) in STATE_RULES


def positive_data_acceptance_of_this_api(ctx, response, case):
    """schemathesis's positive_data_acceptance, with the state's refusals of STATE_RULES taken as answers."""
    if _state_refusal(case, response):
        return None
    return positive_data_acceptance(ctx, response, case)


CHECKS = [positive_data_acceptance_of_this_api if name == "positive_data_acceptance"
          else REGISTERED_CHECKS.get_by_names([name])[0] for name in REGISTERED_CHECKS.get_all_names()]


def _surrogate_copy(body):
    """``body`` with its first text (depth first, keys in order) replaced by one holding a lone surrogate, and the
    dotted path of that text; None when it holds no text."""
    if isinstance(body, str):
        return "a\ud800", ""
    if isinstance(body, dict):
        for key, value in body.items():
            found = _surrogate_copy(value)
            if found:
                return {**body, key: found[0]}, f"{key}.{found[1]}" if found[1] else key
    if isinstance(body, list):
        for i, value in enumerate(body):
            found = _surrogate_copy(value)
            if found:
                return [*body[:i], found[0], *body[i + 1:]], f"{i}.{found[1]}" if found[1] else str(i)
    return None


def _check_surrogate(case, session, failures):
    """The case with a lone surrogate in one of its texts: refused (the field's 400, or an earlier refusal)."""
    found = _surrogate_copy(case.body) if isinstance(case.body, dict) else None
    if not found:
        return
    body, field = found
    other = case.operation.Case(body=body, path_parameters=case.path_parameters, query=case.query)
    response = other.call(headers={**session["headers"], "Accept-Encoding": "identity"}, cookies=session["cookies"])
    if response.status_code == 400:
        named = response.json().get("field")
        if named != field:
            failures.append(f"{case.operation.label}: a lone surrogate in {field} answered 400 naming {named!r}")
    elif response.status_code not in (401, 403, 404, 405, 409, 429):
        failures.append(f"{case.operation.label}: a lone surrogate in {field} answered {response.status_code}: "
                        f"{response.text[:300]}")


def with_credentials(case, session):
    """``case`` carrying the role's credentials as its own, marked as given (not generated): ignored_auth sends
    it again without them, and with wrong ones, and expects the refusal."""
    # the in-process WSGI transport does not decode a gzipped answer, as a real client does (issue 44 compresses)
    case.headers = {**(case.headers or {}), **session["headers"], "Accept-Encoding": "identity"}
    key = case.headers.get("Idempotency-Key")
    if isinstance(key, str) and 0 < len(key.strip()) <= 200:
        # a valid key is the client's own for one write, as the description says; no schema states that it is
        # new, so a generated one (used again for another body: a 422) becomes a fresh one of the same kind
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    case.cookies = {**(case.cookies or {}), **session["cookies"]}
    case._has_explicit_auth = bool(session["headers"] or session["cookies"])
    return case


def _coverage_cases(operation, role):
    if not COVERAGE or role != coverage_role(operation):
        return []
    config = operation.schema.config.generation_for(operation=operation, phase="coverage")
    return list(CoverageGenerator(operation=operation, generation_modes=MODES, generation_config=config,
                                  auth_storage=None, override=Override(), feedback=FeedbackSources()))


def _run_operation(operation, role, session, failures, statuses, ids):
    """The coverage cases and up to EXAMPLES fuzzed requests to ``operation``; what fails goes to ``failures``
    (one line per operation, check and status)."""
    seen = set()
    count = [0]

    def check(case):
        response = with_credentials(case, session).call()
        statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except (Exception, BaseExceptionGroup) as failure:  # noqa: BLE001 - reported at the end, every one
            for one in getattr(failure, "exceptions", [failure]):
                key = (type(one).__name__, response.status_code)
                if key not in seen:
                    seen.add(key)
                    failures.append(f"{operation.label}: {response.status_code} {str(one).strip()[:1500]}\n"
                                    f"  body sent: {case.body!r}"[:2500] + f"\n  answer: {response.text[:400]}")
        if case.meta is not None and case.meta.generation.mode is GenerationMode.POSITIVE:
            count[0] += 1
            if count[0] % SURROGATE_EVERY == 1:
                _check_surrogate(case, session, failures)

    cache.clear()  # throttling counters (429) start afresh for each operation: the cases reach the views
    for case in _coverage_cases(operation, role):
        check(case)

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True, print_blob=False,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=_strategy(operation, ids))
    def run(case):
        check(case)

    cache.clear()
    run()


def test_every_operation_answers_as_documented_to_every_role(demo_data):
    """The demo is seeded once; the roles ask in turn (what one wrote, the next one reads)."""
    schema = loaded_schema(demo_data)
    sessions = {role: _session_headers(role) for role in ROLES}
    failures, report = [], []
    started = time.monotonic()
    with connection_kept():
        for role in ROLES:
            statuses = Counter()
            for result in schema.get_all_operations():
                found = []
                _run_operation(result.ok(), role, sessions[role], found, statuses, demo_data)
                failures += [f"as {role}: {failure}" for failure in found]
            report.append(f"{role}: {dict(sorted(statuses.items()))}")
            # each role reached the services, not only the refusals
            assert any(200 <= code < 300 for code in statuses), (role, statuses)
    print("\n".join(report), f"\n{time.monotonic() - started:.0f} s")
    if os.environ.get("SCHEMATHESIS_REPORT"):
        with open(os.environ["SCHEMATHESIS_REPORT"], "w") as out:
            out.write("\n\n".join(failures))
    assert not failures, f"{len(failures)} failure(s):\n\n" + "\n\n".join(failures)


WRITES = [  # (role, method, path, path parameters, body): requests the demo accepts, in this order
    ("referee1", "POST", "/api/matches/{match_id}/rulings/preview/", "table", {"code": "delay", "side": "NS"}),
    ("referee1", "POST", "/api/matches/{match_id}/rulings/", "table", {"code": "delay", "side": "NS"}),
    ("referee1", "POST", "/api/matches/{match_id}/rulings/void-last/", "table", {"reason": "记错了"}),
    ("referee1", "POST", "/api/matches/{match_id}/rulings/", "table", {"code": "delay", "side": "EW"}),
    ("chief", "POST", "/api/rulings/{id}/appeals/", "ruling", {"side": "EW", "grounds": "不服警告"}),
    ("referee1", "POST", "/api/matches/{match_id}/hands/", "table", "hand"),
    ("referee1", "POST", "/api/matches/{match_id}/lead/", "table", "lead"),
    ("chief", "POST", "/api/rounds/{round_id}/clock/actions/", "round", {"action": "add", "minutes": 1}),
    ("chief", "POST", "/api/rounds/{round_id}/clock/actions/", "round", {"action": "pause"}),
    ("organiser", "POST", "/api/events/", None, {"name": "接口测试赛", "start_date": "2026-12-06",
                                                  "end_date": "2026-12-06", "profile": "shenzhen-community"}),
    ("organiser", "PATCH", "/api/events/{slug}/", "event", {"venue": "深圳市民中心二楼"}),
    ("organiser", "POST", "/api/events/{slug}/staff/", "event", {"display_name": "周裁判", "role": "table_referee"}),
    ("organiser", "GET", "/api/events/{slug}/staff/", "event", None),
]


def test_accepted_writes_answer_as_documented(demo_data):
    """Generated bodies are mostly refused; these real ones are accepted, and their 2xx answers (the
    write's documented body) are checked the same way."""
    from rulings.models import Ruling
    from tournament.models import Match

    schema = loaded_schema(demo_data)
    sessions = {role: _session_headers(role) for role in ROLES}
    table = Match.objects.filter(referees__username="referee1", status=Match.Status.PLAYING).order_by("pk").first()
    assert table is not None, "the demo gives referee1 a table in play"
    state = Client().get(f"/api/matches/{table.pk}/state/").json()
    hand = {"number": state["next_number"], "trump": "S", "defender_points": 45, "bottom_points": 0}
    if state["declarer"] is None:
        hand["declarer"] = "N"
    with connection_kept():
        for role, method, path, target, body in WRITES:
            params = {"table": lambda: {"match_id": table.pk}, "round": lambda: {"round_id": table.round_id},
                      "event": lambda: {"slug": "demo"}, None: dict,
                      "ruling": lambda: {"id": Ruling.objects.filter(match=table).latest("pk").pk}}[target]()
            body = {"hand": hand, "lead": {"hand_number": state["next_number"] + 1, "made": True}}.get(body, body) \
                if isinstance(body, str) else body
            case = schema[path][method].Case(path_parameters=params, body=body) if body is not None \
                else schema[path][method].Case(path_parameters=params)
            response = with_credentials(case, sessions[role]).call()
            assert 200 <= response.status_code < 300, (role, method, path, response.status_code, response.text)
            case.validate_response(response, checks=CHECKS)
