"""config.rowread.leading: a statement sent first with the block's next first_rows, exactly once."""
import pytest

from config import rowread


@pytest.fixture
def sent(monkeypatch):
    batches = []

    def fake(statements):
        batches.append([sql for sql, _params in statements])
        if "FAIL" in batches[-1]:
            raise RuntimeError("the round trip failed")
        return [(sql,) for sql, _params in statements]

    monkeypatch.setattr(rowread, "_first_rows", fake)
    return batches


def test_the_lead_rides_with_the_first_round_trip_only(sent):
    checked = []
    with rowread.leading("CLAIM", [], checked.append):
        assert rowread.first_rows([("READ", [])]) == [("READ",)]   # the lead's row goes to its check
        assert rowread.first_rows([("WRITE", [])]) == [("WRITE",)]
        rowread.send_lead()                                          # nothing waits: nothing sent
    assert sent == [["CLAIM", "READ"], ["WRITE"]] and checked == [("CLAIM",)]


def test_a_lead_whose_round_trip_failed_waits_for_the_next(sent):
    checked = []
    with rowread.leading("CLAIM", [], checked.append):
        with pytest.raises(RuntimeError):
            rowread.first_rows([("FAIL", [])])
        rowread.send_lead()
    assert sent == [["CLAIM", "FAIL"], ["CLAIM"]] and checked == [("CLAIM",)]


def test_a_check_that_refuses_stops_the_caller(sent):
    def refuse(row):
        raise LookupError("taken")

    with rowread.leading("CLAIM", [], refuse), pytest.raises(LookupError):
        rowread.first_rows([("READ", [])])
    assert rowread.first_rows([("AFTER", [])]) == [("AFTER",)]   # outside the block: no lead
    assert sent[-1] == ["AFTER"]


def test_nested_leads_go_together_the_outer_first(sent):
    checked = []
    with rowread.leading("USER", [], checked.append):
        with rowread.leading("CLAIM", [], checked.append):
            assert rowread.first_rows([("READ", [])]) == [("READ",)]
        with rowread.leading("LATER", [], checked.append):
            pass   # never sent: its block ended first
        assert rowread.first_rows([("WRITE", [])]) == [("WRITE",)]
    assert sent == [["USER", "CLAIM", "READ"], ["WRITE"]] and checked == [("USER",), ("CLAIM",)]


def test_the_first_refusal_stops_the_checks_after_it(sent):
    checked = []

    def refuse(row):
        raise LookupError("not this user")

    with rowread.leading("USER", [], refuse), rowread.leading("CLAIM", [], checked.append):
        with pytest.raises(LookupError):
            rowread.first_rows([("READ", [])])
    assert sent == [["USER", "CLAIM", "READ"]] and checked == []


@pytest.mark.django_db
def test_a_query_through_djangos_cursors_sends_the_leads_first(sent):
    """A view that reads with the ORM before its first_rows read (a body that does not validate reads the match
    to answer 404 first): the waiting statements go before that query, checked, and not again after it."""
    from django.db import connection

    checked = []
    with rowread.leading("USER", [], checked.append), rowread.leading("CLAIM", [], checked.append):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert checked == [("USER",), ("CLAIM",)] and cursor.fetchone() == (1,)
        assert rowread.first_rows([("READ", [])]) == [("READ",)]
    assert sent == [["USER", "CLAIM"], ["READ"]]
    with connection.cursor() as cursor:   # outside the block: nothing waits, nothing wrapped
        cursor.execute("SELECT 1")
    assert sent == [["USER", "CLAIM"], ["READ"]] and connection.execute_wrappers == []
