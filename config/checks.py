"""`manage.py check --deploy`: what Django's own deploy checks do not know about this site.

Django passes the development key (it is long and varied) and says nothing about ALLOWED_HOSTS,
the address put in emails, or a missing Content-Security-Policy; these checks do.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from .safety import DEVELOPMENT_SECRET_KEY, allowed_hosts_problem, is_loopback, secret_key_problem, site_url_problem

CSP_MIDDLEWARE = "django.middleware.csp.ContentSecurityPolicyMiddleware"


@register(Tags.security, deploy=True)
def secret_key_check(app_configs, **kwargs):
    problems = []
    if problem := secret_key_problem(settings.SECRET_KEY):
        problems.append(
            Error(
                problem,
                id="topos.E001",
                hint="Set SECRET_KEY to a long random value of this site's own (config.production "
                "refuses to start without one).",
            )
        )
    if DEVELOPMENT_SECRET_KEY in getattr(settings, "SECRET_KEY_FALLBACKS", []):
        problems.append(
            Error(
                "SECRET_KEY_FALLBACKS contains the development key published in the repository.",
                id="topos.E002",
                hint="Remove it: anything it signed can be forged.",
            )
        )
    return problems


@register(Tags.security, deploy=True)
def allowed_hosts_check(app_configs, **kwargs):
    if problem := allowed_hosts_problem(list(settings.ALLOWED_HOSTS)):
        return [Error(problem, id="topos.E003", hint="Set ALLOWED_HOSTS=topos.example (comma-separated).")]
    return []


@register(Tags.security, deploy=True)
def site_url_check(app_configs, **kwargs):
    if is_loopback(urlsplit(settings.SITE_URL).hostname):
        return [
            Warning(
                f"SITE_URL is {settings.SITE_URL!r}: every link in an email would point at the sender's own machine.",
                id="topos.W004",
                hint="Set SITE_URL=https://topos.example.",
            )
        ]
    if problem := site_url_problem(settings.SITE_URL):  # config.production refuses to start with it
        return [Error(problem, id="topos.E005", hint="Set SITE_URL=https://topos.example.")]
    return []


@register(Tags.security, deploy=True)
def content_security_policy_check(app_configs, **kwargs):
    if CSP_MIDDLEWARE not in settings.MIDDLEWARE or not getattr(settings, "SECURE_CSP", None):
        return [
            Warning(
                "No Content-Security-Policy is sent.",
                id="topos.W006",
                hint=f"Keep {CSP_MIDDLEWARE} in MIDDLEWARE and SECURE_CSP set (config/settings.py).",
            )
        ]
    return []
