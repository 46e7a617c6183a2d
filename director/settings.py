"""Settings of the tournament director, all read from the environment.

Defaults run the whole product on one machine with nothing but Python: a SQLite file
under ``var/``, a Celery broker on the filesystem under ``var/celery/`` and a
local-memory cache. Set ``DATABASE_URL`` and ``REDIS_URL`` to run the same code on
PostgreSQL and Redis with any number of web and worker processes.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG", default=False)

DEVELOPMENT_SECRET_KEY = "development-only-secret-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEVELOPMENT_SECRET_KEY
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. The development key may only be used with DEBUG=1; "
        "set SECRET_KEY to a long random string to run with DEBUG off."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" + (",*" if DEBUG else ""))
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "director",
    "tournaments",
    "games.backgammon",
    "games.scrabble",
    "games.chess",
    "clocks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "director.urls"
WSGI_APPLICATION = "director.wsgi.application"
ASGI_APPLICATION = "director.asgi.application"

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

# --- Database -----------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'director.sqlite3'}"
# Web and worker processes keep a connection for CONN_MAX_AGE seconds (0: one per request or task).
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server, the Celery worker and beat share one file: every write
    # transaction takes the write lock at BEGIN (so two writers queue instead of one
    # failing half-way), WAL lets readers go on while someone writes.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not memory, so that Celery worker processes started by the tests see the
    # same test database; one per process, so that two test runs never share one.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-director-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery: Redis when REDIS_URL is set, nothing to install otherwise -------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "director"),
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # A task scheduled further ahead than this is handed to another worker again;
        # keep it well above the longest countdown we schedule (the confirmation
        # timeout; clocks reschedule close to their deadline).
        "visibility_timeout": 6 * 3600,
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_QUEUE_DIR = Path(os.environ.get("CELERY_QUEUE_DIR", VAR_DIR / "celery"))
    for sub in ("queue", "processed", "control"):
        (CELERY_QUEUE_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "director-filesystem://localhost//"  # kombu's, written safely: director/filesystem_broker.py
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_QUEUE_DIR / "queue"),
        "data_folder_out": str(CELERY_QUEUE_DIR / "queue"),
        "processed_folder": str(CELERY_QUEUE_DIR / "processed"),
        "control_folder": str(CELERY_QUEUE_DIR / "control"),
        "store_processed": False,
    }

# The public pages' edge (tournaments/edge_cache.py) gives readers each tournament's
# version as published in Redis — no SQL per reader — when every process shares Redis;
# without it, the version is read from the database.
EDGE_PUBLISHED_VERSIONS = env_flag("EDGE_PUBLISHED_VERSIONS", default=bool(REDIS_URL))

CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# How often beat looks for provisional results whose confirmation timeout has passed
# (the safety net behind the task scheduled for each result).
RESULT_CONFIRMATION_SWEEP_SECONDS = int(os.environ.get("RESULT_CONFIRMATION_SWEEP_SECONDS", "30"))
CELERY_BEAT_SCHEDULE = {
    "confirm-overdue-results": {
        "task": "tournaments.tasks.confirm_overdue_results",
        "schedule": RESULT_CONFIRMATION_SWEEP_SECONDS,
    },
    "confirm-overdue-games": {  # backgammon and chess games, entered one by one
        "task": "games.tasks.confirm_overdue_games",
        "schedule": RESULT_CONFIRMATION_SWEEP_SECONDS,
    },
    # The safety net behind every clock's scheduled timeout (a lost task, a killed
    # worker, a broker restart): a lost timeout is enforced at most this many seconds
    # plus CLOCK_SWEEP_GRACE_SECONDS late.
    "enforce-overdue-clocks": {
        "task": "clocks.tasks.enforce_overdue_clocks",
        "schedule": float(os.environ.get("CLOCK_SWEEP_SECONDS", "2")),
    },
}
# Clocks schedule their timeout task at most this far ahead; a task that wakes before
# the deadline schedules itself again (well inside Redis's visibility timeout).
CLOCK_SCHEDULE_HORIZON = int(os.environ.get("CLOCK_SCHEDULE_HORIZON", "300"))
# The sweep acts on a deadline this many seconds past (its own task is lost); one that
# has only just passed is left to its task.
CLOCK_SWEEP_GRACE_SECONDS = float(os.environ.get("CLOCK_SWEEP_GRACE_SECONDS", "1"))

# --- Auth ---------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "director:home"
LOGOUT_REDIRECT_URL = "public:tournament-list"

# --- Languages and time -------------------------------------------------------------
LANGUAGE_CODE = "cs"
LANGUAGES = [("cs", _("Czech")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Prague"
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))  # collectstatic writes here
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True

# --- REST API -----------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "tournaments.api.authentication.EntryKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tournament director API",
    "DESCRIPTION": (
        "Knockout tournaments for board games. Directors authenticate with a token "
        "(`Authorization: Token <key>`, from POST /api/auth/token/); players with "
        "their private link's key (`Authorization: Entry <key>`); the public reads "
        "without credentials. Errors are JSON: `detail` says what was wrong, "
        "`errors` names the field when one field is at fault."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "ConfirmationStatusEnum": "tournaments.models.ResultSubmission.Status",
        # Backgammon and chess games: the confirmation states and "held" for the director.
        "GameStatusEnum": "games.game_log.GameRow.Status",
        "SideEnum": "tournaments.models.Match.Side",
        "ResultKindEnum": "tournaments.models.ResultSubmission.Kind",
        "BackgammonKindEnum": "games.backgammon.models.KINDS",
        "ScrabbleTurnKindEnum": "games.scrabble.models.TURN_KINDS",
        "ScrabbleProtestKindEnum": "games.scrabble.models.PROTEST_KINDS",
    },
}

# --- Security when served for real --------------------------------------------------
if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", default=False)
    CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", default=False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_flag("BEHIND_PROXY") else None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
