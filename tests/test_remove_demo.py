"""A real event's install holds no demo (issue 26, item 6): the demo's accounts hold no site-wide power,
``manage.py remove_demo`` deletes the demo events and accounts (and refuses while a demo account works at a
real event), and ``make run DEMO=0`` starts without the demo while ``make run`` still loads it."""
import datetime as dt
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.db import connection

from demo.accounts import DEMO_ACCOUNTS, ensure_accounts
from demo.event import seed_demo
from scoring.models import Hand
from scoring.profile_store import latest_profile
from tests.conftest import REPO, TEST_PASSWORD
from tests.rulings.conftest import _fast_passwords  # noqa: F401  (autouse: a cheap hasher)
from tournament import access
from tournament.models import Event, EventRole, StaffAccount

DEMO_NAMES = {row[0] for row in DEMO_ACCOUNTS}


@pytest.fixture
def demo(db):
    return seed_demo()[0]


@pytest.fixture
def real(make_user):
    """A real event with its own organiser."""
    day = dt.date(2027, 3, 1)
    event = Event.objects.create(slug="chunjie", name="春节职工赛", start_date=day, end_date=day,
                                 profile=latest_profile("union-games"))
    organiser = make_user(first_name="真主办")
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    return event, organiser


def test_the_demo_accounts_hold_no_site_wide_power(demo):
    users = get_user_model().objects.filter(username__in=DEMO_NAMES)
    assert users.count() == len(DEMO_ACCOUNTS)
    for user in users:
        assert not (user.is_superuser or user.is_staff or user.groups.exists() or user.user_permissions.exists())
        assert StaffAccount.objects.get(user=user).demo
    organiser = users.get(username="organiser")
    assert not access.may(organiser, access.CREATE_EVENT)  # no event of its own...
    assert access.may(organiser, access.MANAGE, event=demo)  # ...but the demo's walkthrough as before


def test_seeding_again_takes_back_what_an_earlier_demo_gave(demo):
    organiser = get_user_model().objects.get(username="organiser")
    organiser.user_permissions.add(Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    StaffAccount.objects.filter(user=organiser).delete()  # seeded before the demo's mark existed
    ensure_accounts()
    organiser = get_user_model().objects.get(username="organiser")
    assert not organiser.user_permissions.exists() and not access.may(organiser, access.CREATE_EVENT)
    assert StaffAccount.objects.get(user=organiser).demo


def test_an_account_of_a_demo_login_name_with_its_own_password_is_not_the_demos(db, make_user, capsys):
    own = make_user(username="chief", first_name="真裁判长")
    ensure_accounts()
    own.refresh_from_db()
    assert own.first_name == "真裁判长" and own.check_password(TEST_PASSWORD)
    assert not StaffAccount.objects.filter(user=own, demo=True).exists()
    call_command("remove_demo")
    assert get_user_model().objects.filter(pk=own.pk).exists()
    assert not get_user_model().objects.filter(username="organiser").exists()


def test_remove_demo_deletes_the_demo_events_and_accounts_only(demo, real, capsys):
    event, organiser = real
    assert Hand.objects.filter(match__round__stage__event=demo).exists()
    call_command("remove_demo")
    out = capsys.readouterr().out
    assert "/events/demo/" in out and "organiser" in out
    assert not Event.objects.filter(slug="demo").exists()
    assert not get_user_model().objects.filter(username__in=DEMO_NAMES).exists()
    assert not Hand.objects.exists()  # the demo's append-only records went with it
    assert Event.objects.filter(pk=event.pk).exists() and get_user_model().objects.filter(pk=organiser.pk).exists()
    assert EventRole.objects.filter(event=event, user=organiser).exists()
    call_command("remove_demo")  # nothing left: says so
    assert "没有演示数据。" in capsys.readouterr().out   # Chinese first, as every message
    if connection.vendor == "postgresql":  # the append-only tables' row triggers are on again
        with connection.cursor() as cursor:
            cursor.execute("SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE '%%_append_only'")
            triggers = dict(cursor.fetchall())
        assert triggers and set(triggers.values()) == {"O"}, triggers


def test_remove_demo_refuses_while_a_demo_account_works_at_a_real_event(demo, real):
    event, _organiser = real
    chief = get_user_model().objects.get(username="chief")
    EventRole.objects.create(event=event, user=chief, role="chief_referee")
    with pytest.raises(CommandError) as refused:
        call_command("remove_demo")
    message = str(refused.value)
    assert "chief" in message and "春节职工赛" in message and "/events/chunjie/" in message and "工作人员" in message
    assert Event.objects.filter(slug="demo").exists()  # nothing removed
    assert get_user_model().objects.filter(username__in=DEMO_NAMES).count() == len(DEMO_ACCOUNTS)


def test_an_event_at_a_demo_address_with_its_own_organiser_is_kept(db, real, capsys):
    _event, organiser = real
    day = dt.date(2027, 5, 1)
    mine = Event.objects.create(slug="demo", name="Demo Cup", start_date=day, end_date=day,
                                profile=latest_profile("union-games"))
    EventRole.objects.create(event=mine, user=organiser, role="organiser")
    call_command("remove_demo")
    assert Event.objects.filter(pk=mine.pk).exists() and "保留（有真实主办方）" in capsys.readouterr().out


def _make_dry_run(*args):
    return subprocess.run(["make", "-n", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout


def test_make_run_loads_the_demo_and_make_run_demo_0_does_not():
    with_demo = _make_dry_run("run")
    assert "manage.py seed_demo" in with_demo and "gunicorn" in with_demo
    real_start = _make_dry_run("run", "DEMO=0")
    assert "manage.py seed_demo" not in real_start
    assert "manage.py migrate" in real_start and "manage.py remove_demo" in real_start and "gunicorn" in real_start


def test_the_real_start_leaves_no_demo_in_a_migrated_database(db):
    """What ``make run DEMO=0`` runs after ``migrate``: nothing of the demo is there, and remove_demo says so."""
    call_command("remove_demo")
    assert not Event.objects.exists()
    assert not get_user_model().objects.filter(username__in=DEMO_NAMES).exists()
