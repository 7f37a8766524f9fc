"""Settings of the Topos site, read from the environment with strict parsing.

Defaults give the embedded site: SQLite in the project folder, console email, and
Celery tasks run in-process.  DATABASE_URL and REDIS_URL switch to PostgreSQL and a
real broker with workers and beat.  `config.production` tightens security on top.
"""
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

from .env import ImproperEnvironment, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG and not env_bool("TOPOS_ALLOW_DEV_SECRET", True):
        raise ImproperEnvironment("SECRET_KEY must be set.")
    # A fixed key only for the embedded default; config.production refuses to start without a real one.
    SECRET_KEY = "topos-development-only-key-never-use-in-production-0123456789"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = (env_str("SITE_URL") or "http://localhost:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from here, not from a CDN
    "django_htmx",
    "accounts",
    "games",
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
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "games.context_processors.site",
                "games.notifications.context_processors.unread",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'topos.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (web, in-process tasks) share the file: wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish")), ("zh-hant", _("Traditional Chinese"))]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]  # catalogues for templates/ and every app
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS: list = []  # static files live in the apps (games/static)

# Django 6.1 mailers: console by default; SMTP (or any backend) from the environment.
_EMAIL_BACKEND = env_str("EMAIL_BACKEND") or "django.core.mail.backends.console.EmailBackend"
_EMAIL_OPTIONS = {}
if _EMAIL_BACKEND.endswith("smtp.EmailBackend"):
    _EMAIL_OPTIONS = {
        "host": env_str("EMAIL_HOST") or "localhost",
        "port": env_int("EMAIL_PORT", 25),
        "username": env_str("EMAIL_HOST_USER") or "",
        "password": env_str("EMAIL_HOST_PASSWORD") or "",
        "use_tls": env_bool("EMAIL_USE_TLS", False),
    }
MAILERS = {"default": {"BACKEND": _EMAIL_BACKEND, "OPTIONS": _EMAIL_OPTIONS}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "Topos <noreply@topos.localhost>"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Topos API",
    "DESCRIPTION": (
        "Everything a browser can do on Topos: open tables, join, start, see a game as your seat sees it, "
        "list your legal actions and submit them. Authenticate with `Authorization: Token <key>` "
        "(create keys on your profile page) or a browser session with CSRF."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Celery -------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL") or ""
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True                 # a task is acknowledged only once done ...
CELERY_TASK_REJECT_ON_WORKER_LOST = True     # ... and redelivered if its worker dies mid-way
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 600)
# A message taken by a worker that died comes back after the visibility timeout; the worker
# looks for such messages every interval x throttle seconds (kombu's defaults: 10 x 10).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10),
}
# Hard limit well below the visibility timeout, so no task is redelivered while still running.
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 120)
CELERY_TASK_SOFT_TIME_LIMIT = max(1, CELERY_TASK_TIME_LIMIT - min(10, CELERY_TASK_TIME_LIMIT // 5))
if CELERY_TASK_TIME_LIMIT >= CELERY_BROKER_VISIBILITY_TIMEOUT:
    raise ImproperEnvironment("CELERY_TASK_TIME_LIMIT must stay below CELERY_VISIBILITY_TIMEOUT.")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = "topos"
# Beat (one process: `celery -A config beat`).  Every task below is safe to run twice at
# once, so a second beat by mistake costs work, never a double move or a double email.
TOPOS_DEADLINE_SWEEP_SECONDS = env_int("TOPOS_DEADLINE_SWEEP_SECONDS", 5)  # live Toppo clocks are seconds
TOPOS_DIGEST_HOUR = env_int("TOPOS_DIGEST_HOUR", 7)  # UTC
CELERY_BEAT_SCHEDULE = {
    "deadlines": {"task": "games.tasks.deadlines_sweep", "schedule": float(TOPOS_DEADLINE_SWEEP_SECONDS),
                  "options": {"expires": 2 * TOPOS_DEADLINE_SWEEP_SECONDS}},
    "deadline-reminders": {"task": "games.tasks.deadline_reminders", "schedule": 300.0, "options": {"expires": 300}},
    "effects-outbox": {"task": "games.tasks.effects_sweep", "schedule": 30.0, "options": {"expires": 60}},
    "daily-digest": {"task": "games.tasks.digests_send", "schedule": crontab(hour=TOPOS_DIGEST_HOUR, minute=0)},
}

# Bots wait a little before they answer, like a person (seconds; 0 in tests).
TOPOS_BOT_DELAY_SCALE = float(env_str("TOPOS_BOT_DELAY_SCALE") or "1")
# Tests only: a bot's move waits this long before it commits, so a test can kill the worker mid-move.
TOPOS_BOT_TEST_SLEEP = float(env_str("TOPOS_BOT_TEST_SLEEP") or "0")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads it to send the token with every request
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
