"""Settings, read from the environment.

Defaults are the embedded, server-less set-up (SQLite and Celery's filesystem transport under
``var/``) so ``make run`` works on a laptop. Production sets ``DATABASE_URL`` (PostgreSQL) and
``CELERY_BROKER_URL`` or ``REDIS_URL`` (Redis), ``DJANGO_SECRET_KEY`` and ``DJANGO_DEBUG=0``.
Several machines also set ``DJANGO_FILE_STORAGE=database`` (or ``s3``): then nothing a request or a
task needs lives in a machine's own ``var/`` (README, "More than one server").
"""
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("DJANGO_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name, default):
    """Read a boolean environment variable ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    SECRET_KEY = "django-insecure-local-development-key-only-never-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files served by the site itself (no CDN at a venue)
    "infra",  # app label "config" (infra/apps.py says why)
    "scoring",
    "tournament",
    "rulings",
    "demo",
]

MIDDLEWARE = [
    "infra.middleware.BodyDrainedMiddleware",  # first: a refused request's body is read before the answer leaves
    "infra.middleware.LanguageRestoredMiddleware",  # before any that speaks: the language ends with the request
    "django.middleware.security.SecurityMiddleware",
    "infra.middleware.SafeGZipMiddleware",  # outside the ETag: a 304 compares the body's own hash
    "infra.etags.ApiConditionalGetMiddleware",  # ETag and 304 for the API's reads
    "infra.middleware.BodySizeLimitMiddleware",
    "infra.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "infra.middleware.ChineseFirstMiddleware",
    "infra.langmark.ChineseNamesMarkedMiddleware",  # outside LocaleMiddleware: reads its Content-Language
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "infra.idempotency.IdempotencyKeyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "infra.middleware.UserErrorPagesMiddleware",
    "infra.middleware.DatabaseUnavailableMiddleware",
]

# Request bodies: any request at most MAX_REQUEST_BYTES (an import file is at most 5 MB), a body that is
# not a file upload (forms, the API's JSON) at most DATA_UPLOAD_MAX_MEMORY_SIZE; 413 past either.
MAX_REQUEST_BYTES = int(os.environ.get("DJANGO_MAX_REQUEST_BYTES", str(6 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DJANGO_DATA_UPLOAD_MAX_MEMORY_SIZE", str(1024 * 1024)))
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: DATABASE_URL (postgres://...) or SQLite under var/.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file-backed test database, so a real Celery worker process can see what a test wrote.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = ["infra.auth.LockoutModelBackend"]
# A lockout after repeated failed logins (per login name and address, counted in the cache; see infra/auth.py).
LOGIN_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURE_LIMIT", "10"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("DJANGO_LOGIN_LOCKOUT_SECONDS", "900"))
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Language: Chinese first, English second.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files (printouts built in the background): DJANGO_FILE_STORAGE picks where every machine keeps them.
#   filesystem  MEDIA_ROOT under var/ (the default; one machine, or a disk every machine mounts)
#   database    the database itself (infra.storage.DatabaseStorage): nothing more to share
#   s3          an S3-compatible object store through django-storages (pip install "django-storages[s3]");
#               AWS_STORAGE_BUCKET_NAME, AWS_S3_ENDPOINT_URL, AWS_S3_REGION_NAME, and the keys in
#               AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (read by boto3 itself)
FILE_STORAGE = os.environ.get("DJANGO_FILE_STORAGE", "filesystem").strip().lower()
FILE_STORAGES = {
    "filesystem": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "database": {"BACKEND": "infra.storage.DatabaseStorage"},
    "s3": {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ.get("AWS_STORAGE_BUCKET_NAME", ""),
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "location": os.environ.get("AWS_LOCATION", "media"),
            "default_acl": None,  # private: files are served by the views that check who may read them
            "file_overwrite": False,
        },
    },
}
if FILE_STORAGE not in FILE_STORAGES:
    raise ImproperlyConfigured(f"DJANGO_FILE_STORAGE must be one of {', '.join(FILE_STORAGES)}")
STORAGES = {
    "default": FILE_STORAGES[FILE_STORAGE],
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "media/"

# Security: strict by default in production; each switch can be turned off by environment
# for a plain-HTTP venue network (see README).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# No inline scripts or styles anywhere (tests/test_security_headers.py): the site's own files only.
_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
CONTENT_SECURITY_POLICY = os.environ.get("DJANGO_CONTENT_SECURITY_POLICY", _CSP)
CONTENT_SECURITY_POLICY_INLINE_STYLES = _CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
CSP_INLINE_STYLE_PATHS = ["/admin/", "/api/docs/"]  # Django's admin and Swagger UI set inline styles
# Features Chromium knows only: one it does not ("bluetooth") is an error on every page's console
# (tests/test_csp_browser.py).
PERMISSIONS_POLICY = ("camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), "
                      "magnetometer=(), gyroscope=(), accelerometer=(), interest-cohort=()")
if env_bool("DJANGO_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many reverse proxies (nginx) stand in front and append the client's address to X-Forwarded-For: the one
# rule for the client's address of the login lockout and of every throttle (infra.auth.client_address, DRF's
# NUM_PROXIES). 0 (the default): X-Forwarded-For is never believed, REMOTE_ADDR is the client.
TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT", "0"))

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "infra.api_schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "infra.auth.CsrfSessionAuthentication",   # DRF's, its CSRF refusal in the user's language
        "tournament.staff.authentication.ApiTokenAuthentication",
        "tournament.selfscore.authentication.SideCodeAuthentication",   # a side's code: its writes' key owner
        "infra.auth.SwitchableBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["infra.auth.AnonThrottle", "infra.auth.UserThrottle"],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_PARSER_CLASSES": [
        "infra.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [   # DRF's, the JSON one encoding with orjson (the same answers, faster)
        "infra.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "infra.api_errors.api_exception_handler",
}
# HTTP Basic for the API (a password hash per request): off by default in production, where scripts and
# referee devices use an event's API tokens. Throttle rates ("N/second|minute|hour|day"; "" turns one off),
# counted in the default cache (shared by every process with REDIS_URL).
API_BASIC_AUTH = env_bool("DJANGO_API_BASIC_AUTH", DEBUG)
API_THROTTLE_RATES = {
    scope: (os.environ.get(f"DJANGO_THROTTLE_{scope.upper()}", default) or None)
    for scope, default in (("anon", "300/min"), ("user", "1200/min"), ("login", "20/min"))
}
# The reads a hall polls (the round clock, the live tables) are not throttled per address (a hall of phones
# behind one router is one address); a published event's answer to a visitor may be kept this many seconds by
# any cache in front (infra.etags.hall_read_headers).
HALL_READ_MAX_AGE = int(os.environ.get("DJANGO_HALL_READ_MAX_AGE", "1"))

SPECTACULAR_SETTINGS = {
    "TITLE": "Tractor tournament referee system API",
    "DESCRIPTION": (
        "Events, entries, draws, matches, hands, rulings and appeals.\n\n"
        "**Credentials.** A program sends an API token, `Authorization: Bearer trk_...` (security scheme "
        "`apiToken`): an event's token (made by the event's organisers on its staff page or with "
        "`POST /api/events/{slug}/tokens/`) acts as one person in that event; a site-wide organiser token "
        "(`POST /api/tokens/`) creates events. The session cookie (`cookieAuth`) is the pages' own: its writes "
        "need the `X-CSRFToken` header. Published events are read without credentials.\n\n"
        "**Retries.** Every write takes an `Idempotency-Key` header: a retry with the same key is applied once "
        "and answered with the stored answer (`Idempotent-Replay: true`).\n\n"
        "**Polling.** Every read answers with an `ETag`; send it back as `If-None-Match` to get 304 while nothing "
        "changed; the match lists take `changed_since`.\n\n"
        "**Errors.** Every 4xx body is `{\"code\", \"field\", \"detail\"}`: branch on `code`, show `detail` "
        "(in the language of `Accept-Language` or the language cookie)."),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # the API's clients (the console, the table page, scripts) send JSON; so is every body documented
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    "SWAGGER_UI_DIST": "SIDECAR",  # drf-spectacular-sidecar: no CDN, works on a venue network without internet
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # distinct names for choice sets whose fields share a name with another API's
    # the enums named, then the variants of a request (infra.api_schema.state_variants) with their own enums
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "infra.api_schema.state_variants"],
    "ENUM_NAME_OVERRIDES": {
        "ResultDecisionKindEnum": "tournament.models.competition.ResultDecision.Kind",
        "StageKindEnum": "tournament.models.competition.Stage.Kind",
        "HandOutcomeEnum": "scoring.models.Hand.Outcome",
        "PairRemovalKindEnum": ["suspended", "disqualified"],
        "SideEnum": ["NS", "EW"],
        "SideOrSeatEnum": ["NS", "EW", "N", "W", "S", "E"],
        "SeatEnum": "scoring.models.SEAT_CHOICES",
        "StaffRoleEnum": "tournament.models.staff.EventRole.Role",
        "RulingRoleEnum": ["declarers", "defenders"],
        "HandEntryKindEnum": "tournament.models.selfscore.HandEntry.Kind",
        "HandEntryStateEnum": ["waiting", "disputed", "confirmed", "decided", "withdrawn", "lapsed"],
        "EntryStepStateEnum": "tournament.models.selfscore.EntryStep.State",
        "HandRecordersEnum": "tournament.models.event.Event.Recorders",
    },
}

# Celery: Redis when configured, else kombu's filesystem transport under var/ (no server needed).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL") or "filesystem://"
CELERY_DATA_DIR = VAR_DIR / "celery"
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "results", "control"):
        (CELERY_DATA_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DATA_DIR / "queue"),
        "data_folder_out": str(CELERY_DATA_DIR / "queue"),
        "processed_folder": str(CELERY_DATA_DIR / "processed"),
        "control_folder": str(CELERY_DATA_DIR / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = os.environ.get(
        "CELERY_RESULT_BACKEND", f"file://{CELERY_DATA_DIR / 'results'}"
    )
else:
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TIMEZONE = TIME_ZONE
# Every task is idempotent (config.celery.IDEMPOTENT_TASKS says why), so a message is acknowledged only once
# its task has finished, and a worker that dies mid-task gives it back to the broker.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TRACK_STARTED = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    # Hall clocks: fire any announcement or end that a lost or late ETA task missed (exactly once).
    "sweep-round-clocks": {"task": "tournament.sweep_clocks", "schedule": 15.0},
    # Print jobs: requeue a build whose worker died (no heartbeat) or whose task was lost, exactly once.
    "sweep-print-jobs": {"task": "tournament.sweep_print_jobs", "schedule": 30.0},
    # Every event with a round open: its event file into EVENT_SNAPSHOT_DIR when the last is an interval old.
    "snapshot-events": {"task": "tournament.snapshot_events", "schedule": 60.0},
    # Forget stored Idempotency-Key answers older than a day.
    "purge-idempotency-records": {"task": "config.purge_idempotency_records", "schedule": 3600.0},
}

# The event survives its laptop (tournament.transfer.snapshots): while an event has a round open, its event
# file is written every EVENT_SNAPSHOT_MINUTES into EVENT_SNAPSHOT_DIR (set it to a USB stick's mount point or
# a second machine's share), the newest EVENT_SNAPSHOT_KEEP of each event kept.
EVENT_SNAPSHOT_DIR = Path(os.environ.get("DJANGO_SNAPSHOT_DIR") or VAR_DIR / "snapshots")
EVENT_SNAPSHOT_MINUTES = float(os.environ.get("DJANGO_SNAPSHOT_MINUTES", "5"))
EVENT_SNAPSHOT_KEEP = int(os.environ.get("DJANGO_SNAPSHOT_KEEP", "12"))

# A running print job writes a heartbeat at most every PRINT_JOB_HEARTBEAT_EVERY seconds while it builds; one
# silent for PRINT_JOB_HEARTBEAT_TIMEOUT seconds lost its worker and is requeued by the sweep.
PRINT_JOB_HEARTBEAT_EVERY = float(os.environ.get("PRINT_JOB_HEARTBEAT_EVERY", "5"))
PRINT_JOB_HEARTBEAT_TIMEOUT = float(os.environ.get("PRINT_JOB_HEARTBEAT_TIMEOUT", "60"))


# Cache (the hall display's shared data, staff flags): Redis when REDIS_URL is set, else a folder under var/
# (one machine). DJANGO_CACHE=database puts it in the database's table config_cache (made by `migrate`):
# shared by every machine without Redis. DJANGO_CACHE=redis|database|file chooses explicitly.
CACHE_TABLE = "config_cache"
CACHE_KIND = os.environ.get("DJANGO_CACHE") or ("redis" if os.environ.get("REDIS_URL") else "file")
CACHE_BACKENDS = {
    "redis": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ.get("REDIS_URL", "")},
    "database": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": CACHE_TABLE},
    "file": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(VAR_DIR / "cache")},
}
if CACHE_KIND not in CACHE_BACKENDS:
    raise ImproperlyConfigured(f"DJANGO_CACHE must be one of {', '.join(CACHE_BACKENDS)}")
CACHES = {"default": CACHE_BACKENDS[CACHE_KIND]}
# Anonymous visitors' copies of an event's public pages (tournament.pagecache); off in the tests but theirs.
PUBLIC_PAGE_CACHE = env_bool("DJANGO_PUBLIC_PAGE_CACHE", True)
# Sessions live in the database (every machine shares it); with Redis they are also cached there, so a
# request reads its session without a query.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db" if CACHE_KIND == "redis" else "django.contrib.sessions.backends.db"
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

# Printouts embed a TrueType CJK font: a PDF viewer without Chinese fonts must still show the names.
CJK_FONT_PATHS = env_list(
    "CJK_FONT_PATHS",
    [
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    ],
)
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
