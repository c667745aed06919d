"""The event's feed of match changes as server-sent events (issue 29 item 7): a scoreboard's EventSource
reconnects with the last id it got and receives what changed since, once; no worker is held open."""
import json

import pytest
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import make_round, play, tables_of
from tournament.competition.api.reads import FEED_RETRY_MS


def events(answer):
    """The answer's events as [(event, id, data)]; the retry line checked."""
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"].startswith("text/event-stream") and answer["Cache-Control"] == "no-store"
    blocks = answer.content.decode().split("\n\n")
    assert blocks[0] == f"retry: {FEED_RETRY_MS}"
    out = []
    for block in blocks[1:]:
        if block:
            fields = dict(line.split(": ", 1) for line in block.split("\n"))
            out.append((fields["event"], fields["id"], json.loads(fields["data"])))
    return out


@pytest.fixture
def tables(db, make_user):
    rnd = make_round(tables=3)
    return rnd, tables_of(rnd), make_user("chief_referee")


def test_a_scoreboard_gets_each_change_once_in_order(tables):
    rnd, (first, second, _third), chief = tables
    feed = f"/api/events/{rnd.stage.event.slug}/feed/"
    client = APIClient()
    [(kind, cursor, data)] = events(client.get(feed, HTTP_ACCEPT="text/event-stream"))   # as EventSource asks
    assert kind == "ready" and data == {}
    assert events(client.get(feed, HTTP_LAST_EVENT_ID=cursor)) == []              # nothing changed yet
    play(second, chief, defender_points=20)
    play(first, chief, defender_points=20)
    got = events(client.get(feed, HTTP_LAST_EVENT_ID=cursor))
    assert [(kind, data["id"]) for kind, _id, data in got] == [("match", second.pk), ("match", first.pk)]
    assert got[0][2]["ns_level"] == "5" and got[0][2]["status"] == "playing"
    cursor = got[-1][1]
    assert events(client.get(feed, {"last_event_id": cursor})) == []               # once: the cursor moved on
    play(second, chief, defender_points=20)
    [(_kind, _id, data)] = events(client.get(feed, HTTP_LAST_EVENT_ID=cursor))
    assert (data["id"], data["ns_level"]) == (second.pk, "8")


def test_a_bad_cursor_is_a_400_and_a_hidden_event_a_404(db):
    rnd = make_round(tables=1)
    feed = f"/api/events/{rnd.stage.event.slug}/feed/"
    bad = APIClient().get(feed, HTTP_LAST_EVENT_ID="yesterday")
    assert bad.status_code == 400 and bad.json()["field"] == "Last-Event-ID"
    hidden = make_round(tables=1, published=False)
    answer = APIClient().get(f"/api/events/{hidden.stage.event.slug}/feed/", HTTP_ACCEPT="text/event-stream")
    assert answer.status_code == 404
