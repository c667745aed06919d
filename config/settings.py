"""Settings, read from the environment.

Defaults are the embedded, server-less set-up (SQLite and Celery's filesystem transport under
``var/``) so ``make run`` works on a laptop. Production sets ``DATABASE_URL`` (PostgreSQL) and
``CELERY_BROKER_URL`` or ``REDIS_URL`` (Redis), ``DJANGO_SECRET_KEY`` and ``DJANGO_DEBUG=0``.
"""
import os
from pathlib import Path

import dj_database_url

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
        from django.core.exceptions import ImproperlyConfigured

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
    "config",
    "scoring",
    "tournament",
    "rulings",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.ChineseFirstMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.idempotency.IdempotencyKeyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.UserErrorPagesMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
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
AUTHENTICATION_BACKENDS = ["config.auth.LockoutModelBackend"]
# A lockout after repeated failed logins (per login name and address, counted in the cache; see config/auth.py).
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
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
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
PERMISSIONS_POLICY = ("camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
                      "magnetometer=(), gyroscope=(), accelerometer=(), interest-cohort=()")
if env_bool("DJANGO_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "tournament.staff.authentication.ApiTokenAuthentication",
        "config.auth.SwitchableBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["config.auth.AnonThrottle", "config.auth.UserThrottle"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api_errors.api_exception_handler",
}
# HTTP Basic for the API (a password hash per request): off by default in production, where scripts and
# referee devices use an event's API tokens. Throttle rates ("N/second|minute|hour|day"; "" turns one off),
# counted in the default cache (shared by every process with REDIS_URL).
API_BASIC_AUTH = env_bool("DJANGO_API_BASIC_AUTH", DEBUG)
API_THROTTLE_RATES = {
    scope: (os.environ.get(f"DJANGO_THROTTLE_{scope.upper()}", default) or None)
    for scope, default in (("anon", "300/min"), ("user", "1200/min"), ("login", "20/min"))
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Tractor tournament referee system API",
    "DESCRIPTION": "Events, entries, draws, matches, hands, rulings and appeals.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",  # drf-spectacular-sidecar: no CDN, works on a venue network without internet
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # distinct names for choice sets whose fields share a name with another API's
    "ENUM_NAME_OVERRIDES": {
        "ResultDecisionKindEnum": "tournament.models.competition.ResultDecision.Kind",
        "StageKindEnum": "tournament.models.competition.Stage.Kind",
        "HandOutcomeEnum": "scoring.models.Hand.Outcome",
        "PairRemovalKindEnum": ["suspended", "disqualified"],
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
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TRACK_STARTED = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    # Hall clocks: fire any announcement or end that a lost or late ETA task missed (exactly once).
    "sweep-round-clocks": {"task": "tournament.sweep_clocks", "schedule": 15.0},
    # Forget stored Idempotency-Key answers older than a day.
    "purge-idempotency-records": {"task": "config.purge_idempotency_records", "schedule": 3600.0},
}

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["REDIS_URL"]}
        if os.environ.get("REDIS_URL")
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

# Printouts embed a TrueType CJK font (see scoring/ and the printouts issue).
CJK_FONT_PATHS = env_list(
    "CJK_FONT_PATHS",
    [
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    ],
)
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
