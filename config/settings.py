"""Settings of the Topos site, read from the environment with strict parsing.

Defaults give the embedded site: SQLite in the project folder, console email, and
Celery tasks run in-process.  DATABASE_URL and REDIS_URL switch to PostgreSQL and a
real broker with workers and beat.  `config.production` tightens security on top.
"""

from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

import boards

from . import local_site
from .env import ImproperEnvironment, env_bool, env_int, env_list, env_str
from .safety import DEVELOPMENT_SECRET_KEY

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
# --- Secret key (decision 14: settings that refuse to be unsafe) -----------------------------------
# The development key is published in the repository: it signs sessions, password-reset links and
# tokens only where DEBUG is on (run.sh --dev) or where TOPOS_ALLOW_DEV_SECRET says so (the test suite,
# config/testing.py).  Anything else without a SECRET_KEY of its own stops here; config.production
# goes further and refuses any weak key, and `check --deploy` reports it (config/checks.py).
# The embedded default (run.sh sets TOPOS_EMBEDDED) serves with DEBUG off too (decision 28): without a SECRET_KEY
# given, it makes one at random once and keeps it in a git-ignored file of its own (config/local_site.py), by default
# beside its SQLite database.  config.production never reads that file: its key comes from the environment alone.
TOPOS_EMBEDDED = env_bool("TOPOS_EMBEDDED", False)
_DATABASE_URL = env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'topos.sqlite3'}"
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY and TOPOS_EMBEDDED and not DEBUG:
    _database = dj_database_url.parse(_DATABASE_URL)
    SECRET_KEY = local_site.secret_key_from_file(
        Path(
            env_str("TOPOS_SECRET_KEY_FILE")
            or (
                Path(_database["NAME"]).parent / "secret-key"
                if _database["ENGINE"] == "django.db.backends.sqlite3"
                else BASE_DIR / "secret-key"
            )
        )
    )
SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
if SECRET_KEY == DEVELOPMENT_SECRET_KEY and not DEBUG and not env_bool("TOPOS_ALLOW_DEV_SECRET", False):
    raise ImproperEnvironment(
        "SECRET_KEY must be set to a long random value when DEBUG is false: the development "
        "key is published in the repository. (Set DEBUG=true for development.)"
    )
# --- end of the secret key block ------------------------------------------------------------------
# The one base address of every link in an email (notifications, sign-up, password reset), never the host of
# whichever request happened to send the mail.  config.production refuses the localhost default.
SITE_URL = (env_str("SITE_URL") or "http://localhost:8000").rstrip("/")
if urlsplit(SITE_URL).scheme not in ("http", "https") or not urlsplit(SITE_URL).hostname:
    raise ImproperEnvironment(f"SITE_URL must be the site's address, such as https://topos.example, not {SITE_URL!r}.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
if TOPOS_EMBEDDED and env_str("ALLOWED_HOSTS") is None:
    # The embedded default answers at the address it serves (TOPOS_BIND, run.sh's argument; 0.0.0.0: the machine's
    # names and addresses) and at SITE_URL's host.  config.production takes ALLOWED_HOSTS from the environment alone.
    ALLOWED_HOSTS = local_site.allowed_hosts(env_str("TOPOS_BIND") or "127.0.0.1:8000", SITE_URL)
if TOPOS_EMBEDDED and env_str("CSRF_TRUSTED_ORIGINS") is None:
    CSRF_TRUSTED_ORIGINS = [local_site.site_origin(SITE_URL)]
# Ruling S6: a "your turn" reaching someone away from the table is mailed this many seconds later, unless she looks
# at the table meanwhile (feed.presence; docs/notifications.md).  Her open page or table stream
# writes her presence often enough to be seen within it.
TOPOS_TURN_MAIL_GRACE_SECONDS = env_int("TOPOS_TURN_MAIL_GRACE_SECONDS", 120)
if TOPOS_TURN_MAIL_GRACE_SECONDS < 0:
    raise ImproperEnvironment("TOPOS_TURN_MAIL_GRACE_SECONDS must be 0 or more.")
# Decision 17: a viewer of a table counts as a spectator while her page asked this recently (games.services.spectators).
TOPOS_SPECTATOR_SECONDS = env_int("TOPOS_SPECTATOR_SECONDS", 120)

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
    # Each game's site side in its own folder (boards/<game>/), one app per game the engine registers.
    *boards.installed_apps(),
    "games",
    "ratings",  # ruling S5: ratings and leaderboards
    "feed",  # decision 12, point 2: the event feed and its streams
    "notifications",  # what people are told and how (decision 5), owning its models (decision 15)
    "chat",  # decision 17, point 1: chat at every table (its models keep their tables, games_chat*)
    "tournaments",  # decision 17: round-robin tournaments
    "config",  # decision 14: the site's deploy checks, 404 page and favicon (config/apps.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # decision 14 (safety): below WhiteNoise, so static files keep their long cache and need no policy.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "config.private_cache.PrivateCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.personal.PersonalSettingsMiddleware",  # her language and time zone, once she is known
    "config.not_found.NotFoundPageMiddleware",  # decision 14: after Common (APPEND_SLASH) and Auth (staff)
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
                "notifications.context_processors.unread",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        _DATABASE_URL,
        # Persistent connections (decision 16): opening one per request cost as much as the request's own work.  A
        # connection that died (a database restart) is dropped by the health check before a request uses it.
        # runserver closes its thread's connections after each request anyway; ASGI sets 0 (config/gunicorn.conf.py).
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=env_bool("DATABASE_CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (web processes, the worker, beat) share the file: wait up to 20 s for the lock instead of
    # failing, and take it when a transaction begins (IMMEDIATE), not half-way through.  WAL, set on every connection
    # of every process: readers never wait for the writer nor it for them, and a commit is one append (synchronous
    # NORMAL: a power cut may lose the last commits, never the file's consistency).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
    # The tests' database is a file too (not SQLite's in-memory default), so that a real Celery
    # worker, another process, can share it with the test and its live server.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-topos.sqlite3")}
    # Writers queue for SQLite's one write lock in the order they come, woken at once, instead of retrying in SQLite's
    # busy handler (sleeps of up to 100 ms, first come not first served): config/sqlite/base.py (decision 28).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("TOPOS_PG_JIT_OFF", True):
    # The site's queries are short; PostgreSQL's JIT compiled a prolific player's statistics for ~100 ms
    # to save a few (bench/bench_player_stats.py: 13 ms without, 35 ms with).  Set TOPOS_PG_JIT_OFF=false to keep it.
    _pg_options = DATABASES["default"].setdefault("OPTIONS", {})
    _pg_options["options"] = (_pg_options.get("options", "") + " -c jit=off").strip()
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

# Django 6.1 mailers: console by default (printed readably, config/console_mail.py); SMTP (or any backend) from the
# environment.
_EMAIL_BACKEND = env_str("EMAIL_BACKEND") or "config.console_mail.ConsoleEmailBackend"
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
    # DRF's own two, the JSON one without its check for circular references (games.api.renderers, decision 28).
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    # No DEFAULT_PAGINATION_CLASS nor PAGE_SIZE: every list pages itself with its own cursor paging and page size
    # (games.api.pagination).
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
# No task ever runs inside a web request.  With REDIS_URL, Redis is the broker and
# `celery worker` plus `celery beat` run the tasks.  Without it (the embedded default)
# the broker is kombu's filesystem transport in TOPOS_BROKER_DIR: a folder of message
# files that needs no server and no extra package, and that the web process, the worker
# and beat on one machine all see.  (SQLAlchemy's transport on a SQLite file would add a
# dependency and a second database competing for SQLite's single writer.)
REDIS_URL = env_str("REDIS_URL") or ""
TOPOS_BROKER_DIR = Path(env_str("TOPOS_BROKER_DIR") or BASE_DIR / ".broker")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = False  # tests that want tasks inline ask for the `celery_eager` fixture
CELERY_TASK_ACKS_LATE = True  # a task is acknowledged only once done ...
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # ... and redelivered if its worker dies mid-way
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 600)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # A message taken by a worker that died comes back after the visibility timeout; the worker
    # looks for such messages every interval x throttle seconds (kombu's defaults: 10 x 10).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT,
        "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10),
        "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10),
        # A broker that does not answer costs a request one short try, never kombu's retries
        # (which took 6 s a send): the move is committed and the outbox sweep sends what could
        # not be sent.  The worker's own connection keeps retrying (broker_connection_max_retries).
        "socket_connect_timeout": 1,
        "max_retries": 0,
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    _BROKER_QUEUE = TOPOS_BROKER_DIR / "queue"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_BROKER_QUEUE),
        "data_folder_out": str(_BROKER_QUEUE),
        "control_folder": str(TOPOS_BROKER_DIR / "control"),
        "polling_interval": 0.1,  # a live Toppo bot should not wait a second to hear of its task; a listdir is cheap
        "visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT,
    }
    for _folder in (_BROKER_QUEUE, TOPOS_BROKER_DIR / "control"):
        _folder.mkdir(parents=True, exist_ok=True)  # the transport expects them to exist
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
    "deadlines": {
        "task": "games.tasks.deadlines_sweep",
        "schedule": float(TOPOS_DEADLINE_SWEEP_SECONDS),
        "options": {"expires": 2 * TOPOS_DEADLINE_SWEEP_SECONDS},
    },
    "deadline-reminders": {
        "task": "games.notifications.tasks.deadline_reminders",
        "schedule": 300.0,
        "options": {"expires": 300},
    },
    "effects-outbox": {"task": "games.tasks.effects_sweep", "schedule": 30.0, "options": {"expires": 60}},
    "daily-digest": {
        "task": "games.notifications.tasks.digests_send",
        "schedule": crontab(hour=TOPOS_DIGEST_HOUR, minute=0),
    },
    # Ruling S4: a vacation ends by itself when its planned end (at the latest, the allowance) is reached.
    "vacations-end": {"task": "games.tasks.vacations_end_due", "schedule": 60.0, "options": {"expires": 60}},
    # Decision 29: pace profiles of those who played in the last hour (games.selectors.pace).
    "pace-profiles": {"task": "games.tasks.pace_profiles_refresh", "schedule": 3600.0, "options": {"expires": 3600}},
    # Decision 17: tournaments start (or are cancelled) at their start time, and end when their last table does.
    "tournaments": {"task": "games.tournaments.tasks.tournaments_sweep", "schedule": 60.0, "options": {"expires": 60}},
}
# Ruling S4: vacation a player may take per calendar year (in the site's TIME_ZONE), stopping her correspondence clocks.
TOPOS_VACATION_DAYS_PER_YEAR = env_int("TOPOS_VACATION_DAYS_PER_YEAR", 21)

# Bots wait a little before they answer, like a person (seconds; 0 in tests).
TOPOS_BOT_DELAY_SCALE = float(env_str("TOPOS_BOT_DELAY_SCALE") or "1")
# Tests only: a bot's move waits this long before it commits, so a test can kill the worker mid-move.
TOPOS_BOT_TEST_SLEEP = float(env_str("TOPOS_BOT_TEST_SLEEP") or "0")
# Tests only: a bot thinks this long (outside any transaction, as a strong bot does) before it decides.
TOPOS_BOT_TEST_THINK = float(env_str("TOPOS_BOT_TEST_THINK") or "0")

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads it to send the token with every request
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# --- Limits on abuse, token lifetimes and retention (decision 14: limits) ---------------------
# Every login goes through the limited backend (accounts.backends): failed logins are counted per
# account and per client address, in the database, so all web processes share the counts.
AUTHENTICATION_BACKENDS = ["accounts.backends.LimitedModelBackend"]
# How many proxies in front of the site append to X-Forwarded-For (0: the site faces the clients and
# REMOTE_ADDR is the client).  Behind one nginx: 1.  Too high a number lets clients pick their address.
TOPOS_TRUSTED_PROXIES = env_int("TOPOS_TRUSTED_PROXIES", 0)
# rule: (at most this many, in this many seconds), a sliding window (accounts.limits).
TOPOS_RATE_LIMITS = {
    "login-account": (10, 15 * 60),  # failed logins with one username
    "login-address": (30, 15 * 60),  # failed logins from one client address (an IPv6 /64)
    "reset-address": (10, 3600),  # password reset emails asked from one address
    "reset-recipient": (3, 3600),  # ... for one email address
    "signup-address": (10, 3600),  # sign-ups (each sends an email) from one address
    "signup-recipient": (3, 3600),  # ... with one email address
    "invite-sender": (20, 3600),  # invitations (each may send an email) by one player
    "invite-address": (30, 3600),  # ... from one address
    "invite-recipient": (10, 3600),  # ... to one player
}
# An Idempotency-Key's first answer is kept this long, then purged by beat (hourly).
TOPOS_IDEMPOTENCY_RETENTION_HOURS = env_int("TOPOS_IDEMPOTENCY_RETENTION_HOURS", 24)
# The event feed (decision 12): events older than this are purged by beat, hourly.  A client away longer
# resumes from what is left (its cursor still works) and reads the tables themselves.
TOPOS_EVENTS_RETENTION_DAYS = env_int("TOPOS_EVENTS_RETENTION_DAYS", 14)
# Under a WSGI server each open stream holds a thread (up to a minute at a time, feed.stream): fine for
# runserver and the tests' live server, which start a thread per connection, not for gunicorn's few threads,
# where config.production turns it off (the pages poll instead; under uvicorn the streams never reach WSGI).
TOPOS_WSGI_STREAMS = env_bool("TOPOS_WSGI_STREAMS", True)
# Under ASGI (uvicorn workers) Django runs each request on a thread and a database connection of its own, with no
# bound: 1,000 POSTs at once were 1,000 threads fighting for SQLite's one writer, and a third gave up after the 20 s
# lock timeout (500).  At most this many requests are inside Django at once in each process (config/asgi.py); the
# rest wait their turn as coroutines, holding nothing.  The event streams, answered in front, are not counted.
TOPOS_ASGI_REQUESTS = env_int("TOPOS_ASGI_REQUESTS", 8)
if TOPOS_ASGI_REQUESTS < 1:
    raise ImproperEnvironment("TOPOS_ASGI_REQUESTS must be 1 or more.")
CELERY_BEAT_SCHEDULE.update(
    {
        "events-purge": {"task": "games.tasks.events_purge", "schedule": 3600.0, "options": {"expires": 3600}},
        "idempotency-purge": {
            "task": "games.tasks.idempotency_purge",
            "schedule": 3600.0,
            "options": {"expires": 3600},
        },
        "limit-hits-purge": {
            "task": "accounts.tasks.limit_hits_purge",
            "schedule": 3600.0,
            "options": {"expires": 3600},
        },
        # Decision 16: read requests only note a token's use in the cache (accounts.token_uses); this writes it.
        "token-uses": {"task": "accounts.tasks.token_uses_record", "schedule": 300.0, "options": {"expires": 300}},
    }
)
SPECTACULAR_SETTINGS["DESCRIPTION"] += (
    "\n\nAPI tokens may expire (chosen when the key is created) and are all revoked when their owner's password "
    "is changed or reset; an expired or revoked key gets 401 with a `detail` saying which. "
    f"An `Idempotency-Key` is remembered for {TOPOS_IDEMPOTENCY_RETENTION_HOURS} hours. "
    "Invitations are limited per player, per client address and per invited player (at most "
    f"{TOPOS_RATE_LIMITS['invite-sender'][0]} an hour by one player); a refusal is 429 with `Retry-After` "
    "(seconds) and `retry_after` in the body."
)
# --- Content-Security-Policy (decision 14, safety) ---------------------------------------------------
# Every script is a file of our own: no inline <script>, no on*= handlers, no eval (htmx runs with
# allowEval off, see templates/base.html), no inline <style> or style="" attributes.  The API's
# documentation pages (Swagger UI, Redoc), which need inline styles, relax it for themselves only
# (games/api/urls.py).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# --- end of the Content-Security-Policy block -----------------------------------------------------

# --- Deployment: static files, health, structured logs (decision 14, "deploy") ---------------------------------------
INSTALLED_APPS += ["config.monitoring"]
MIDDLEWARE.insert(
    0, "config.monitoring.logs.RequestLogMiddleware"
)  # outermost: times every request, whatever answers it
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")  # where collectstatic puts them
# Without collectstatic (runserver, the PostgreSQL commands of docs/operations.md, DEBUG false too) WhiteNoise serves
# the apps' own static files, looked up when asked for (not all listed at start-up, which would cost every test client
# 30 ms); config.production serves only the collected copies, hashed and compressed, listed once.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Health (config.monitoring.heartbeats): beat sends a heartbeat this often, a worker runs it; /healthz calls either
# of them
# down when its last stamp is older than TOPOS_HEALTH_STALE_SECONDS.
TOPOS_HEARTBEAT_SECONDS = env_int("TOPOS_HEARTBEAT_SECONDS", 30)
TOPOS_HEALTH_STALE_SECONDS = env_int("TOPOS_HEALTH_STALE_SECONDS", 4 * TOPOS_HEARTBEAT_SECONDS)
if not 0 < TOPOS_HEARTBEAT_SECONDS < TOPOS_HEALTH_STALE_SECONDS:
    raise ImproperEnvironment("TOPOS_HEALTH_STALE_SECONDS must be longer than TOPOS_HEARTBEAT_SECONDS (both > 0).")
# A worker's main process writes down every TOPOS_WORKER_BEAT_SECONDS that it lives and which tasks it holds
# (config.monitoring.workers); beat's sweep, every TOPOS_LOST_WORK_SWEEP_SECONDS, sends again the tasks of a worker
# silent for TOPOS_WORKER_LOST_SECONDS.  So a live table's bot held by a worker that died moves again within about
# LOST + SWEEP seconds (15 by default) instead of minutes; liveness is the process's, so a slow task is never resent.
TOPOS_WORKER_BEAT_SECONDS = float(env_str("TOPOS_WORKER_BEAT_SECONDS") or "2")
TOPOS_WORKER_LOST_SECONDS = float(env_str("TOPOS_WORKER_LOST_SECONDS") or "10")
TOPOS_LOST_WORK_SWEEP_SECONDS = float(env_str("TOPOS_LOST_WORK_SWEEP_SECONDS") or "5")
if not 0 < 2 * TOPOS_WORKER_BEAT_SECONDS <= TOPOS_WORKER_LOST_SECONDS or TOPOS_LOST_WORK_SWEEP_SECONDS <= 0:
    raise ImproperEnvironment(
        "TOPOS_WORKER_LOST_SECONDS must be at least twice TOPOS_WORKER_BEAT_SECONDS, and all of them above 0."
    )
CELERY_BEAT_SCHEDULE["lost-work"] = {
    "task": "config.monitoring.tasks.lost_work_sweep",
    "schedule": TOPOS_LOST_WORK_SWEEP_SECONDS,
    "options": {"expires": 2 * TOPOS_LOST_WORK_SWEEP_SECONDS},
}
CELERY_BEAT_SCHEDULE["heartbeat"] = {
    "task": "config.monitoring.tasks.heartbeat",
    "schedule": float(TOPOS_HEARTBEAT_SECONDS),
    "options": {"expires": TOPOS_HEARTBEAT_SECONDS},
}

# Logs go to stderr.  LOG_FORMAT=json: one JSON object a line, in web, worker and beat (config/celery.py hands
# Celery's logging to this), with a line per request and per task (config.monitoring.logs).
LOG_FORMAT = (env_str("LOG_FORMAT") or "text").strip().lower()
if LOG_FORMAT not in ("text", "json"):
    raise ImproperEnvironment(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.monitoring.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
}

# --- API limits (decision 12, points 5 and 6): request sizes, JSON depth, throttling, pages ------------------------
# Every body over TOPOS_MAX_BODY_BYTES, and JSON nested deeper than TOPOS_JSON_MAX_DEPTH, is refused with 400 before
# any view runs (config/request_limits.py), wherever it is sent.  Below the locale (the message is translated) and
# above CSRF (which would otherwise read a huge form to look for its token).
# No form or API call of the site sends more than a few KiB (there are no uploads); the worst JSON body this allows
# costs ~25 ms to measure.
TOPOS_MAX_BODY_BYTES = env_int("TOPOS_MAX_BODY_BYTES", 256 * 1024)
TOPOS_JSON_MAX_DEPTH = env_int("TOPOS_JSON_MAX_DEPTH", 64)
if not 0 < TOPOS_MAX_BODY_BYTES <= 2_621_440 or not 0 < TOPOS_JSON_MAX_DEPTH <= 500:
    raise ImproperEnvironment(
        "TOPOS_MAX_BODY_BYTES must be 1 to 2621440 (Django's own limit) and TOPOS_JSON_MAX_DEPTH 1 to 500."
    )
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.locale.LocaleMiddleware") + 1, "config.request_limits.RequestLimitsMiddleware"
)

# The throttles' counts live in the cache, which every web process must share: with REDIS_URL, Redis (Django's
# RedisCache); without it, files in TOPOS_CACHE_DIR, which all processes on the one machine of the embedded setup
# see (like the filesystem broker above), with no table to create and no server to run.
if REDIS_URL:
    # A Redis that does not answer costs a request one short wait (the throttles then let it through).  The cache
    # shares the broker's database: never cache.clear() here, it would flush the task queues too.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "topos",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    TOPOS_CACHE_DIR = Path(env_str("TOPOS_CACHE_DIR") or BASE_DIR / ".cache")
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(TOPOS_CACHE_DIR),
            "KEY_PREFIX": "topos",
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }


def _api_rate(name: str, default: str) -> str | None:
    """A DRF rate such as 60/min or 10/s from the environment; `off` turns the limit off."""
    raw = (env_str(name) or default).strip().lower()
    if raw in ("off", "none", "0"):
        return None
    count, _slash, period = raw.partition("/")
    if (
        not count.isdigit()
        or int(count) < 1
        or period not in ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")
    ):
        raise ImproperEnvironment(f"{name} must look like 60/min, 10/s, 1000/hour or off, not {raw!r}.")
    return f"{int(count)}/{period}"


# Requests a client may make (games.api.throttles): anonymous ones per client address, signed-in ones per account,
# and, on top, a burst limit on move submission per account.  A refusal is 429 with Retry-After (seconds).
TOPOS_API_RATES = {
    "anon": _api_rate("TOPOS_API_RATE_ANON", "60/min"),
    "user": _api_rate("TOPOS_API_RATE_USER", "600/min"),
    "moves": _api_rate("TOPOS_API_RATE_MOVES", "10/s"),
}
# Where the throttles keep their windows: Redis in one round trip per throttle (games.api.throttles); empty, the
# cache (files on the embedded site).
TOPOS_THROTTLE_REDIS_URL = env_str("TOPOS_THROTTLE_REDIS_URL") or REDIS_URL
TOPOS_THROTTLE_KEY_PREFIX = "topos:throttle"
REST_FRAMEWORK.update(
    {
        "DEFAULT_THROTTLE_CLASSES": ["games.api.throttles.AnonThrottle", "games.api.throttles.UserThrottle"],
        "DEFAULT_PARSER_CLASSES": [
            "games.api.parsers.LimitedJSONParser",
            "rest_framework.parsers.FormParser",
            "rest_framework.parsers.MultiPartParser",
        ],
    }
)
SPECTACULAR_SETTINGS["DESCRIPTION"] += (
    "\n\nLists come in pages: follow `next`. Requests are throttled (anonymous ones per client address, others per "
    "account, move submissions per account on top): past a limit the answer is 429 with `Retry-After` (seconds). "
    f"A body over {TOPOS_MAX_BODY_BYTES // 1024} KiB, or JSON nested deeper than {TOPOS_JSON_MAX_DEPTH} levels, is "
    "400 (`too_large`, `too_deep`) on every endpoint. So is a character no text column can store, anywhere in the "
    "path, the query, a header or the body: U+0000 or a lone surrogate (`\\ud800`-`\\udfff` in JSON) is 400 "
    "`bad_characters`."
)
SPECTACULAR_SETTINGS.setdefault("POSTPROCESSING_HOOKS", ["drf_spectacular.hooks.postprocess_schema_enums"])
SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"].append("games.api.schema_limits.document_limits")
# OpenAPI links: a table's `id` leads to its join, its moves... (games.api.schema_links)
SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"].append("games.api.schema_links.declare_links")

# --- Chat at every table (decision 17, point 1; chat/services.py) ------------------------------------
# Messages one account may post: a burst (so many within so many seconds) and a day's worth, counted from her own
# messages (a deleted one still counts).  Past either, 429 with Retry-After.
TOPOS_CHAT_BURST = (env_int("TOPOS_CHAT_BURST_MESSAGES", 5), env_int("TOPOS_CHAT_BURST_SECONDS", 10))
TOPOS_CHAT_DAILY = env_int("TOPOS_CHAT_DAILY_MESSAGES", 500)
# Decision 12 point 4: the notification events and email choices are one enum each in the schema, however many
# fields use them (the preferences take one field per event).
SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {}).update(
    {
        "NotificationEventEnum": "notifications.api.EVENT_VALUES",
        "EmailChoiceEnum": "notifications.api.EMAIL_VALUES",
    }
)
SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"].append("games.api.responses.add_view_schemas")  # decision 12
SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"].update(
    {
        "BotLevelEnum": "games.api.serializers.BOT_LEVEL_CHOICES",
        # A table's and a tournament's `status` are two enums, each with its own name (decision 17).
        "GameStatusEnum": "games.models.Game.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        # A table's pace and the paces a game offers (the catalogue) are one choice set.
        "PaceEnum": "games.models.Pace",
        # Why a game was aborted and why a chat line was reported: two `reason` enums, each named.
        "AbortReasonEnum": "games.models.Game.AbortReason",
        "ChatReportReasonEnum": "chat.models.ChatReport.Reason",
    }
)

# Decision 29, point 1: sandboxes (sandbox/), tried lines on a copy of a game sampled from one seat's view; and point 4:
# private notes (notes/).  A sandbox unused this many days is deleted by beat's sweep; a person keeps at most
# TOPOS_SANDBOXES_PER_PERSON of them, each at most TOPOS_SANDBOX_MAX_MOVES moves; sandbox writes are limited per
# account by TOPOS_API_RATE_SANDBOX (a DRF throttle, on top of the account's rate).
INSTALLED_APPS += ["sandbox", "notes"]
TOPOS_SANDBOX_DAYS = env_int("TOPOS_SANDBOX_DAYS", 7)
TOPOS_SANDBOXES_PER_PERSON = env_int("TOPOS_SANDBOXES_PER_PERSON", 20)
TOPOS_SANDBOX_MAX_MOVES = env_int("TOPOS_SANDBOX_MAX_MOVES", 500)
TOPOS_SANDBOX_RATE = _api_rate("TOPOS_API_RATE_SANDBOX", "60/min")
CELERY_BEAT_SCHEDULE["sandboxes-expire"] = {
    "task": "sandbox.tasks.sandboxes_expire",
    "schedule": 3600.0,
    "options": {"expires": 3600},
}

# --- Push and webhooks (decision 29, point 3: outbound/, docs/webhooks.md) ----------------------------------------
INSTALLED_APPS += ["outbound"]
# Web Push's VAPID key: PEM or the raw key in base64url.  Unset: a key made on first use and kept in
# TOPOS_VAPID_KEY_FILE, by default beside the SQLite database of the embedded default; with PostgreSQL and no key,
# push is off (every web process and worker must sign with one key: set it in the environment).
TOPOS_VAPID_PRIVATE_KEY = env_str("TOPOS_VAPID_PRIVATE_KEY") or ""
TOPOS_VAPID_KEY_FILE = env_str("TOPOS_VAPID_KEY_FILE") or (
    str(Path(DATABASES["default"]["NAME"]).parent / "vapid-private.pem")
    if DATABASES["default"]["ENGINE"] == "config.sqlite"
    else ""
)
TOPOS_VAPID_SUBJECT = env_str("TOPOS_VAPID_SUBJECT") or ""  # mailto: or https: contact; the from-address if unset
# Every request to an address a person gave (outbound.safe_http): bounded in time and in what is read back.
TOPOS_OUTBOUND_TIMEOUT_SECONDS = env_int("TOPOS_OUTBOUND_TIMEOUT_SECONDS", 10)
TOPOS_OUTBOUND_MAX_RESPONSE_BYTES = env_int("TOPOS_OUTBOUND_MAX_RESPONSE_BYTES", 65536)
# Networks reached although not public: for the tests' local receivers only, never from the environment, and
# emptied by config.production.
TOPOS_OUTBOUND_ALLOWED_NETWORKS: list[str] = []
TOPOS_WEBHOOK_MAX_ATTEMPTS = env_int("TOPOS_WEBHOOK_MAX_ATTEMPTS", 6)
TOPOS_WEBHOOK_RETRY_SECONDS = env_int("TOPOS_WEBHOOK_RETRY_SECONDS", 30)  # then 60, 120, ... between attempts
TOPOS_WEBHOOKS_PER_PERSON = env_int("TOPOS_WEBHOOKS_PER_PERSON", 10)
SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"].update(
    {
        "WebhookFormatEnum": "outbound.api.FORMAT_VALUES",
        "WebhookDeliveryStatusEnum": "outbound.api.DELIVERY_STATUS_VALUES",
    }
)
CELERY_BEAT_SCHEDULE["outbound"] = {
    "task": "outbound.tasks.outbound_sweep",
    "schedule": 60.0,
    "options": {"expires": 60},
}
