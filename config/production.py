"""Production settings: everything from `config.settings`, plus HTTPS-only cookies, HSTS and real mail.

Use with DJANGO_SETTINGS_MODULE=config.production; `manage.py check --deploy` passes
with no warnings when SECRET_KEY, ALLOWED_HOSTS, SITE_URL and DEBUG=false are given.  It refuses to
start with the development key or a weak one (short, or a short pattern repeated), a missing or '*' ALLOWED_HOSTS
or one that is a bare public suffix (`.com`), or a missing SITE_URL or one on plain HTTP.
"""

from urllib.parse import urlsplit

from .env import ImproperEnvironment, env_bool, env_int, env_list, env_str
from .safety import allowed_hosts_problem, is_loopback, secret_key_problem, site_url_problem
from .settings import *  # noqa: F401,F403
from .settings import DEBUG, MAILERS, SITE_URL

if DEBUG:
    raise ImproperEnvironment("DEBUG must be false in production.")
# Every link in an email is built on SITE_URL; the localhost default would send people nowhere.
if not env_str("SITE_URL") or is_loopback(urlsplit(SITE_URL).hostname):
    raise ImproperEnvironment(
        "SITE_URL must be set to the address people use to reach the site, such as "
        f"https://topos.example (it is {SITE_URL!r}); every link in an email starts with it."
    )
if problem := site_url_problem(SITE_URL):
    raise ImproperEnvironment(problem)
# --- Refusing unsafe values (decision 14) ----------------------------------------------------------
SECRET_KEY = env_str("SECRET_KEY") or ""
if problem := secret_key_problem(SECRET_KEY):
    raise ImproperEnvironment(
        f"{problem} Production needs a long random SECRET_KEY of its own, e.g. from "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )
# Only the host names given, never the development default list nor a wildcard that takes any Host header.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if problem := allowed_hosts_problem(ALLOWED_HOSTS):
    raise ImproperEnvironment(problem)
# X-Forwarded-Proto is believed only when a proxy in front sets it (and strips what clients send);
# without one, any client could claim HTTPS.  A proxy that terminates TLS needs TOPOS_BEHIND_PROXY=true,
# or SECURE_SSL_REDIRECT sends every request round in circles.  Declaring proxies for the client
# address (TOPOS_TRUSTED_PROXIES, the rate limits' setting) declares one here too.
TOPOS_BEHIND_PROXY = env_bool("TOPOS_BEHIND_PROXY", env_int("TOPOS_TRUSTED_PROXIES", 0) > 0)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TOPOS_BEHIND_PROXY else None
# --- end of the refusing block --------------------------------------------------------------------

# Real mail in production: SMTP unless another production backend is named.
if MAILERS["default"]["BACKEND"].endswith(
    ("console.EmailBackend", "ConsoleEmailBackend", "locmem.EmailBackend", "dummy.EmailBackend")
):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": env_str("EMAIL_HOST") or "localhost",
                "port": env_int("EMAIL_PORT", 587),
                "username": env_str("EMAIL_HOST_USER") or "",
                "password": env_str("EMAIL_HOST_PASSWORD") or "",
                "use_tls": env_bool("EMAIL_USE_TLS", True),
            },
        }
    }

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Deployment (decision 14, "deploy") -----------------------------------------------------------------------------
# Persistent database connections (DATABASE_CONN_MAX_AGE, 60 s, with health checks) come from config.settings.
# The same in the worker: Celery would close the connection after every task; it reuses it instead (recycled every
# so many tasks, and by the age and health rules above before each task: config/celery.py).  0: close after each.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 200) or None
# Event streams under gunicorn's threads would hold one each: off, the pages poll (TOPOS_ASGI=1 serves them,
# thread-free).
TOPOS_WSGI_STREAMS = env_bool("TOPOS_WSGI_STREAMS", False)
# Only the collected copies (collectstatic, which config/scripts/serve.sh runs): hashed names, served compressed and
# cached for good.  Without them every page is a 500 (the manifest is missing), which serve.sh never lets happen.
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = False
# Load balancers ask /healthz over plain HTTP inside the network: answer them, do not redirect them to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^healthz(/|$)"]

# Decision 29: the site never posts to a private address, whatever a settings file or the tests allowed.
TOPOS_OUTBOUND_ALLOWED_NETWORKS: list[str] = []
