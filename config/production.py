"""Production settings: everything from `config.settings`, plus HTTPS-only cookies, HSTS and real mail.

Use with DJANGO_SETTINGS_MODULE=config.production; `manage.py check --deploy` passes
with no warnings when SECRET_KEY, ALLOWED_HOSTS and DEBUG=false are given.
"""
from .env import ImproperEnvironment, env_bool, env_int, env_str
from .settings import *  # noqa: F401,F403
from .settings import DEBUG, MAILERS

if DEBUG:
    raise ImproperEnvironment("DEBUG must be false in production.")
SECRET_KEY = env_str("SECRET_KEY") or ""
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    raise ImproperEnvironment("SECRET_KEY must be set to a long random value (50 characters or more).")

# Real mail in production: SMTP unless another production backend is named.
if MAILERS["default"]["BACKEND"].endswith(("console.EmailBackend", "locmem.EmailBackend", "dummy.EmailBackend")):
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": {
        "host": env_str("EMAIL_HOST") or "localhost", "port": env_int("EMAIL_PORT", 587),
        "username": env_str("EMAIL_HOST_USER") or "", "password": env_str("EMAIL_HOST_PASSWORD") or "",
        "use_tls": env_bool("EMAIL_USE_TLS", True)}}}

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
