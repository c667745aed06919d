"""The session's user read in a table write's first round trip, and verified before anything is kept.

    SessionUserLead.of(request) -> SessionUserLead | None

Django reads a logged-in request's user (``auth.get_user``: the user row by the id the session names,
then the session's hash checked against the password's) in a round trip of its own, before the view. A
table's hand or ruling write then reads its match in another: the user is only needed by then (the owner
of the Idempotency-Key and the access columns take the id alone; DRF's session authentication and
``IsAuthenticated`` ask only whether the user is active and logged in). For those writes
(``claims_with_first_read``, on PostgreSQL) the idempotency middleware puts the user's read in front of
the write's first read (``config.rowread.leading``): one round trip less, with Django's ORM query
compiled for nothing.

Until its row arrives the request's user is a stand-in: a user model instance holding only its id, and
``is_active`` true (what DRF reads first); any other field read before the row arrives is read from the
database as a deferred field is (correct, at a query's cost). When the row arrives :meth:`check`
fills the stand-in (the same object every part of the request holds) and verifies what ``auth.get_user``
verifies: the user exists, the backend lets them authenticate (active), the session's hash is theirs. If
not, :class:`~config.api_errors.SessionUserChanged` stops the view, the middleware rolls the request back
(nothing of it is kept, nothing answered) and runs it again with the user read as Django reads it
(a session that no longer verifies is logged out there, as always). The middleware calls
:meth:`verify_now` before it answers or stores anything, so an answer is never given for a user not
verified. Only for the session backend's users of Django's ``ModelBackend.get_user`` (its subclasses
that keep it, as ``config.auth.LockoutModelBackend``); any other request reads its user as before.

The session itself is read the same way once the process knows it: Django reads it (its row, or Redis with
``cached_db``) in a round trip of its own when the request first asks for it. A process remembers the sessions
of the table writes it served (their data as read, at most ``KNOWN_MOST``); a write on a known session takes
that data without reading it, and its row is read in the user's statement, checked before the user is: the
session still stored, not expired, and holding the same data, or :class:`~config.api_errors.SessionUserChanged`
as above (the request is run again with the session read as Django reads it, and the process forgets it; with
``cached_db`` Django then reads its cached copy first, and decides as it always does). A table's write is then
two round trips, the session's included, and the session's query not compiled.
"""
import copy
import functools
import threading

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import get_user as middleware_user
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from . import rowread
from .api_errors import SessionUserChanged


@functools.cache
def _reader(session_model=None):
    """The user row in one prepared statement (built once per process: the user model is known by then); with
    ``session_model``, the session's stored data beside it (``session_text``: None when gone or expired)."""
    extra = {}
    if session_model is not None:
        extra["session_text"] = (f"SELECT session_data FROM {rowread.q(session_model._meta.db_table)} "
                                 "WHERE session_key = %s AND expire_date > %s")
    return rowread.JoinedRead(get_user_model(), (), extra=extra)


KNOWN_MOST = 10_000   # sessions a process remembers (a few hundred tables' referees per event day)
_known = {}           # session key -> [its data as last read, the stored text it was checked against or None]
_known_lock = threading.Lock()   # gthread workers: one thread's eviction must not meet another's insertion


def _assume_known(session):
    """Take the session's data as this process last read it, without reading it (to be checked by the write's
    first round trip: :meth:`SessionUserLead.check`): that data, or None when the session is not one
    of Django's database sessions (``db``, ``cached_db``), is not known here, or was already read."""
    if not isinstance(session, DatabaseSessionStore) or session.session_key is None:
        return None
    known = _known.get(session.session_key)
    if known is None or hasattr(session, "_session_cache"):
        return None
    # what SessionBase keeps of load(), read on the first access; a copy the request may change in place
    session._session_cache = copy.deepcopy(known[0])
    return known[0]


def _remember(session):
    """Remember a database session just read as Django reads it, for the next write on it."""
    if isinstance(session, DatabaseSessionStore) and session.session_key is not None:
        data = copy.deepcopy(dict(session.items()))
        with _known_lock:
            if len(_known) >= KNOWN_MOST:
                del _known[next(iter(_known))]   # the oldest remembered
            _known[session.session_key] = [data, None]


def _forget(session_key):
    with _known_lock:
        _known.pop(session_key, None)


class SessionUserLead:
    def __init__(self, request, user, backend, assumed=None):
        self.request, self.user, self.backend, self.assumed = request, user, backend, assumed
        self.session_key = request.session.session_key if assumed is not None else None
        self.verified = self.failed = False

    @classmethod
    def of(cls, request):
        """The session's user as a stand-in whose row is read with the write's first statements (set as the
        request's user), or None: no logged-in session, the user already read, another backend. A session
        this process knows is taken as known, its row read with the user's (else it is read now, and
        remembered)."""
        session = getattr(request, "session", None)
        if session is None or hasattr(request, "_cached_user"):
            return None
        assumed, lead = _assume_known(session), None
        try:
            lead = cls._standing_in(request, session, assumed)
        finally:
            if lead is None and assumed is not None:
                del session._session_cache   # not to be checked: read as Django reads it
        if lead is not None and assumed is None:
            _remember(session)
        return lead

    @classmethod
    def _standing_in(cls, request, session, assumed):
        try:
            user_id, backend_path = session[SESSION_KEY], session[BACKEND_SESSION_KEY]
        except KeyError:
            return None
        if backend_path not in settings.AUTHENTICATION_BACKENDS:
            return None
        backend = load_backend(backend_path)
        if not isinstance(backend, ModelBackend) or type(backend).get_user is not ModelBackend.get_user:
            return None
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        # is_active as DRF reads it first (checked when the row arrives); the stand-in is never saved
        known = {model._meta.pk.attname: pk, "is_active": True}
        fields = [f.attname for f in model._meta.concrete_fields if f.attname in known]
        user = model.from_db(DEFAULT_DB_ALIAS, fields, [known[name] for name in fields])
        request._cached_user = user   # what AuthenticationMiddleware's lazy request.user gives
        return cls(request, user, backend, assumed)

    def _read(self):
        """The user's read and its extra parameters: the session's key and the time, when taken as known."""
        if self.assumed is None:
            return _reader(), ()
        return _reader(self.request.session.model), (self.session_key, timezone.now())

    def statement(self):
        reader, params = self._read()
        return reader.statement(self.user.pk, *params)

    def check(self, row):
        """The user's row has arrived (the lead's check): fill the stand-in and verify it, or stop the view."""
        self._verify(self._read()[0].from_row(row))

    def verify_now(self):
        """Read and verify the user now if the write sent no read that carried it (raises SessionUserChanged)."""
        if not self.verified:
            reader, params = self._read()
            self._verify(reader.get(self.user.pk, *params))

    def _session_holds(self, found):
        """The session taken as known is still stored, not expired (as Django's ``load`` asks) and holds the data
        taken (its text compared with the text checked last, else decoded)."""
        text = getattr(found, "session_text", None)
        known = _known.get(self.session_key)
        if text is None or known is None or known[0] is not self.assumed:   # forgotten or replaced meanwhile
            return False
        if text != known[1] and self.request.session.decode(text) != self.assumed:
            return False
        known[1] = text   # the next write compares the text alone
        return True

    def _verify(self, found):
        if self.assumed is not None and not self._session_holds(found):   # the session first: its data is trusted below
            self.failed = True
            raise SessionUserChanged
        if found is not None:
            for field in type(found)._meta.concrete_fields:
                self.user.__dict__[field.attname] = found.__dict__[field.attname]
        session_hash = self.request.session.get(HASH_SESSION_KEY)
        if (found is None or not self.backend.user_can_authenticate(self.user) or not session_hash
                or not constant_time_compare(session_hash, self.user.get_session_auth_hash())):
            self.failed = True
            raise SessionUserChanged
        self.verified = True

    def forget(self):
        """Drop the stand-in: the request's user (and its session, when taken as known) is read as Django reads
        it, now (so that the request run again finds its user read and makes no stand-in); the process
        forgets the session."""
        self._drop_assumed()
        del self.request._cached_user
        self.request.user = SimpleLazyObject(lambda: middleware_user(self.request))
        self.request.user._setup()

    def drop_unchecked(self):
        """An attempt that ends without having checked the session taken as known (an error before its first
        read) leaves nothing of it: the process forgets it, and it is read from its store if still asked for."""
        if not self.verified:
            self._drop_assumed()

    def _drop_assumed(self):
        if self.assumed is not None:
            _forget(self.session_key)
            session = self.request.session
            session.__dict__.pop("_session_cache", None)
            session.modified = False   # nothing of the attempt's session is saved
            self.assumed = None
