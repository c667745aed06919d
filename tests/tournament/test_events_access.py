"""Roles per event: every endpoint and page × every role, held in this event, held in another event, or
none (and anonymous). The event is unpublished, so reading it is a staff right too.

The matrix below gives the expected answer for a role held IN THIS EVENT ("y": allowed, "-": refused).
The same role held only in ANOTHER event, an account with no role, and an anonymous visitor are refused
everywhere (403/404, or the login page): that is the second half of every case.

    endpoint / page                                organiser  chief_referee  table_referee  arbitration
    GET  /events/<slug>/ (hub)                       y           y              y              y
    GET  /events/<slug>/settings/                    y           -              -              -
    GET  /events/<slug>/staff/                       y           -              -              -
    GET  /manage/<slug>/stages/                      y           -              -              -
    GET  /manage/<slug>/referee-grid/                y           -              -              -
    GET  /manage/<slug>/printouts/                   y           -              -              -
    GET  /api/events/<slug>/                         y           y              y              y
    PATCH /api/events/<slug>/                        y           -              -              -
    GET  /api/events/<slug>/staff/                   y           -              -              -
    POST /api/events/<slug>/staff/                   y           -              -              -
    POST /api/events/<slug>/entries/                 y           -              -              -
    POST /api/events/<slug>/stages/                  y           -              -              -
    POST /api/stages/<id>/draws/                     y           -              -              -
    POST /api/matches/<id>/referees/                 y           -              -              -
    POST /api/matches/<id>/hands/                    -           y              y              -
    POST /api/matches/<id>/rulings/                  -           y              y              -
    POST /api/rounds/<id>/clock/actions/             -           y              -              -
    POST /api/rounds/<id>/close/                     y           y              -              -
    GET  /tables/<id>/ (scoring table)               y           y              y              y

(The table referee holds the role and is assigned to the match the match endpoints use.)
"""
import json

import pytest

from tests.scoring.test_hands_support import hand_body
from tests.tournament.test_draws_support import make_event
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.models import EventRole, Match, Round

ROLES = ["organiser", "chief_referee", "table_referee", "arbitration"]


def _parse(doc):
    rows = []
    for line in doc.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[0] in ("GET", "POST", "PATCH"):
            marks = parts[-4:]
            path = " ".join(parts[1:-4])
            rows.append((parts[0], path, dict(zip(ROLES, (m == "y" for m in marks)))))
    return rows


MATRIX = _parse(__doc__)


@pytest.fixture
def world(db, make_user):
    """Two unpublished events, A drawn; per role a user holding it in A, another holding it in B only."""
    a = make_event(8, 4, published=False, slug="event-a")
    b = make_event(8, 4, published=False, slug="event-b")
    groups = create_stages_from_format(a)[0]
    draws.draw_groups(groups, seed="matrix")
    match = Match.objects.filter(round__stage=groups, ns__isnull=False).order_by("round__number", "table").first()
    users = {}
    for role in ROLES:
        here, there = make_user(), make_user()
        EventRole.objects.create(event=a, user=here, role=role)
        EventRole.objects.create(event=b, user=there, role=role)
        users[(role, "this")], users[(role, "other")] = here, there
    match.referees.add(users[("table_referee", "this")])
    users[("none", "none")] = make_user()
    return {"event": a, "stage": groups, "match": match, "round": Round.objects.get(pk=match.round_id),
            "users": users}


def _request(client, method, path, w):
    path = path.split(" ")[0].replace("<slug>", w["event"].slug).replace("<id>", "{id}")
    if "/stages/{id}/" in path:
        path = path.replace("{id}", str(w["stage"].pk))
    elif "/rounds/{id}/" in path:
        path = path.replace("{id}", str(w["round"].pk))
    else:
        path = path.replace("{id}", str(w["match"].pk))
    bodies = {
        "/hands/": hand_body(1, 40, declarer="N"),
        "/rulings/": {},
        "/referees/": {"referee": w["users"][("table_referee", "this")].pk},
        "/staff/": {"display_name": "新裁判", "role": "table_referee"},
        "/entries/": {},
        "/stages/": {"kind": "round_robin"},
        "/draws/": {"kind": "nonsense"},
        "/clock/actions/": {"action": "nonsense"},
        "/close/": {"note": ""},
    }
    if method == "GET":
        return client.get(path)
    body = next((b for key, b in bodies.items() if path.endswith(key)), {})
    if method == "PATCH":
        body = {"venue": "体育馆"}
    send = client.patch if method == "PATCH" else client.post
    return send(path, data=json.dumps(body), content_type="application/json")


def _allowed(response):
    if response.status_code in (401, 403, 404):
        return False
    if response.status_code == 302 and "/accounts/login/" in response["Location"]:
        return False
    return True


def test_matrix(client, world):
    """Every row of the matrix, in its order (one world: the rows' writes do not change who may do what;
    closing the round comes after the hands)."""
    wrong = []
    for method, path, expected in MATRIX:
        for role in ROLES:
            for where in ("this", "other"):
                client.force_login(world["users"][(role, where)])
                response = _request(client, method, path, world)
                want = expected[role] if where == "this" else False
                if _allowed(response) != want:
                    wrong.append((method, path, role, where, response.status_code))
                client.logout()
        client.force_login(world["users"][("none", "none")])
        if _allowed(_request(client, method, path, world)):
            wrong.append((method, path, "no role", "-", "allowed"))
        client.logout()
        if _allowed(_request(client, method, path, world)):
            wrong.append((method, path, "anonymous", "-", "allowed"))
    assert not wrong, "\n".join(map(str, wrong))


def test_published_event_is_read_by_anybody(client, world):
    event = world["event"]
    event.published = True
    event.save()
    assert client.get(f"/events/{event.slug}/").status_code == 200
    assert client.get(f"/api/events/{event.slug}/").status_code == 200
    assert client.patch(f"/api/events/{event.slug}/", data="{}", content_type="application/json").status_code in (
        401, 403)


def test_the_site_roles_and_the_events_are_read_in_one_query(world, make_user, django_assert_num_queries):
    """A check at a match reads the account's site-wide roles and its roles in the match's event together
    (one query, told apart), and keeps them for the request; the same account's roles in another event are
    another query and do not mix."""
    from tournament import access, roles

    both = make_user(roles.ARBITRATION)   # a site-wide group
    EventRole.objects.create(event=world["event"], user=both, role="chief_referee")
    other = make_event(8, 4, published=False, slug="event-c")
    EventRole.objects.create(event=other, user=both, role="organiser")
    match = Match.objects.get(pk=world["match"].pk)
    access.load_access(both, match)   # the match's event and the assignment, as a write reads them
    both = type(both).objects.get(pk=both.pk)   # nothing kept yet
    access.remember_access(both, match)
    with django_assert_num_queries(1):
        assert access.may(both, access.RECORD, match=match)            # the chief referee of this event
        assert access.may(both, access.DECIDE_SECOND, match=match)     # the site-wide arbitration group
        assert not access.may(both, access.MANAGE, match=match)        # organiser elsewhere only
        assert access.roles_of(both, match=match) == {"chief_referee", "arbitration"}
    with django_assert_num_queries(1):
        assert access.roles_of(both, other) == {"organiser", "arbitration"}
