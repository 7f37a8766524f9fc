"""Settings read the environment strictly, and the production path passes `check --deploy`."""

import os
import pathlib
import subprocess
import sys

import pytest

from config import checks
from config.env import ImproperEnvironment, env_bool, env_int, env_list
from config.safety import DEVELOPMENT_SECRET_KEY

ROOT = pathlib.Path(__file__).resolve().parents[2]
REAL_KEY = "k3J9x-Vq2m!Zr8Lp0wTy4Hs6Nd1Fb7Gc5Ae2Ui9Oo3Pj8Kl0Mn4Bv6Cx1Zq7Wr5Et2Yu"


def manage(*args, **env):
    """manage.py in a fresh process on `config.settings` (or the DJANGO_SETTINGS_MODULE given), with only the
    environment given: not the test suite's permission to use the development key (config/testing.py)."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "SITE_URL",
            "ALLOWED_HOSTS",
            "TOPOS_ALLOW_DEV_SECRET",
            "TOPOS_BEHIND_PROXY",
            "TOPOS_TRUSTED_PROXIES",
            "TOPOS_EMBEDDED",
            "TOPOS_BIND",
            "CSRF_TRUSTED_ORIGINS",
            "DJANGO_SETTINGS_MODULE",
        )
    }
    base.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("raw,expected", [("1", True), ("true", True), ("On", True), ("0", False), ("no", False)])
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("TOPOS_FLAG", raw)
    assert env_bool("TOPOS_FLAG", not expected) is expected


def test_env_readers_fail_loudly_on_nonsense(monkeypatch):
    monkeypatch.setenv("TOPOS_FLAG", "maybe")
    with pytest.raises(ImproperEnvironment, match="TOPOS_FLAG"):
        env_bool("TOPOS_FLAG", False)
    monkeypatch.setenv("TOPOS_NUMBER", "ten")
    with pytest.raises(ImproperEnvironment, match="whole number"):
        env_int("TOPOS_NUMBER", 1)
    monkeypatch.setenv("TOPOS_HOSTS", "a.example, b.example,")
    assert env_list("TOPOS_HOSTS", []) == ["a.example", "b.example"]


def test_production_settings_pass_check_deploy_with_real_values():
    done = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.production",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="topos.example",
        DEBUG="false",
        SITE_URL="https://topos.example",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_real_secret_key():
    done = manage(
        "check",
        DJANGO_SETTINGS_MODULE="config.production",
        ALLOWED_HOSTS="topos.example",
        DEBUG="false",
        SITE_URL="https://topos.example",
    )
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


@pytest.mark.parametrize("site_url", [None, "", "http://localhost:8000", "http://127.0.0.1:8000/"])
def test_production_refuses_to_start_without_the_address_put_in_emails(site_url):
    env = {} if site_url is None else {"SITE_URL": site_url}
    done = manage(
        "check",
        DJANGO_SETTINGS_MODULE="config.production",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="topos.example",
        DEBUG="false",
        **env,
    )
    assert done.returncode != 0
    assert "SITE_URL must be set to the address people use to reach the site" in done.stderr


def test_a_site_url_that_is_not_an_address_stops_the_site():
    done = manage("check", SITE_URL="topos.example", DEBUG="true")
    assert done.returncode != 0
    assert "SITE_URL must be the site's address" in done.stderr


def test_a_malformed_variable_stops_the_site():
    done = manage("check", DEBUG="perhaps")
    assert done.returncode != 0
    assert "DEBUG must be one of" in done.stderr


def test_database_url_selects_postgresql():
    done = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/topos",
        DEBUG="true",
    )
    assert done.stdout.strip().splitlines()[-1] == "django.db.backends.postgresql", done.stderr


# --- Settings that refuse to be unsafe (decision 14) -------------------------------------------------

PRODUCTION = {"DJANGO_SETTINGS_MODULE": "config.production", "DEBUG": "false", "SITE_URL": "https://topos.example"}


def settings_value(expression: str, **env) -> str:
    done = manage("shell", "-c", f"from django.conf import settings; print(repr({expression}))", **env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "key,words",
    [
        (DEVELOPMENT_SECRET_KEY, "development key published in the repository"),
        ("short-but-random-Zx81", "too weak"),
        ("ab" * 30, "too weak"),
        ("Xk9#q" * 12, "no short pattern repeated"),  # 5 different characters, 60 long
        ("k3J9x-Vq2m!Zr8Lp0wTy" * 3, "no short pattern repeated"),  # 20 different, one pattern thrice
    ],
)
def test_production_refuses_the_development_key_and_weak_ones(key, words):
    # Even where the development key is otherwise allowed (the tests' own permission).
    done = manage("check", SECRET_KEY=key, ALLOWED_HOSTS="topos.example", TOPOS_ALLOW_DEV_SECRET="true", **PRODUCTION)
    assert done.returncode != 0
    assert words in done.stderr


@pytest.mark.parametrize(
    "hosts,words",
    [
        (None, "ALLOWED_HOSTS is empty"),
        ("", "ALLOWED_HOSTS is empty"),
        ("*", "accepts any Host header"),
        ("topos.example,*", "accepts any Host header"),
        (".com", "every host name under a public suffix"),
        ("topos.example,.org.", "every host name under a public suffix"),
    ],
)
def test_production_refuses_to_answer_any_host(hosts, words):
    env = {} if hosts is None else {"ALLOWED_HOSTS": hosts}
    done = manage("check", SECRET_KEY=REAL_KEY, **PRODUCTION, **env)
    assert done.returncode != 0
    assert words in done.stderr


def test_production_takes_real_keys_and_a_domain_with_its_subdomains():
    """What the guards let through: keys as the usual generators make them (hex too), and `.topos.example`."""
    import secrets

    from config.safety import allowed_hosts_problem, secret_key_problem, site_url_problem

    for key in (secrets.token_urlsafe(50), secrets.token_hex(32), REAL_KEY):
        assert secret_key_problem(key) is None, key
    assert allowed_hosts_problem([".topos.example", "topos.example"]) is None
    assert site_url_problem("http://127.0.0.1:8000") is None and site_url_problem("https://topos.example") is None


def test_production_refuses_a_site_address_on_plain_http():
    done = manage(
        "check",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="topos.example",
        **{**PRODUCTION, "SITE_URL": "http://topos.example"},
    )
    assert done.returncode != 0
    assert "SITE_URL is 'http://topos.example': links in emails would not use HTTPS" in done.stderr


def test_production_believes_x_forwarded_proto_only_behind_a_declared_proxy():
    env = {**PRODUCTION, "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": "topos.example"}
    assert settings_value("settings.SECURE_PROXY_SSL_HEADER", **env) == "None"
    assert (
        settings_value("settings.SECURE_PROXY_SSL_HEADER", TOPOS_BEHIND_PROXY="true", **env)
        == "('HTTP_X_FORWARDED_PROTO', 'https')"
    )
    assert (
        settings_value("settings.SECURE_PROXY_SSL_HEADER", TOPOS_TRUSTED_PROXIES="1", **env)
        == "('HTTP_X_FORWARDED_PROTO', 'https')"
    )
    assert (
        settings_value("settings.SECURE_PROXY_SSL_HEADER", TOPOS_TRUSTED_PROXIES="1", TOPOS_BEHIND_PROXY="false", **env)
        == "None"
    )
    assert settings_value("settings.ALLOWED_HOSTS", **env) == "['topos.example']"


@pytest.mark.parametrize("env", [{}, {"DEBUG": "false"}, {"DEBUG": "false", "SECRET_KEY": DEVELOPMENT_SECRET_KEY}])
def test_the_default_settings_refuse_the_development_key_without_debug(env):
    # wsgi.py, asgi.py, manage.py and the Celery app all load config.settings by default.
    done = manage("check", **env)
    assert done.returncode != 0
    assert "development key is published in the repository" in done.stderr


def test_the_development_key_serves_debug_runs_and_the_tests_only():
    assert settings_value("settings.SECRET_KEY", DEBUG="true") == repr(DEVELOPMENT_SECRET_KEY)
    assert settings_value("settings.SECRET_KEY", TOPOS_ALLOW_DEV_SECRET="true") == repr(DEVELOPMENT_SECRET_KEY)
    assert settings_value("settings.SECRET_KEY", SECRET_KEY=REAL_KEY) == repr(REAL_KEY)


def test_check_deploy_reports_the_development_key_and_any_host():
    done = manage("check", "--deploy", DEBUG="true", ALLOWED_HOSTS="*")
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "topos.E001" in out and "development key" in out
    assert "topos.E003" in out and "'*'" in out
    assert "topos.W004" in out  # SITE_URL is the localhost default


@pytest.mark.parametrize(
    "overrides,check_id",
    [
        ({"SECRET_KEY": DEVELOPMENT_SECRET_KEY}, "topos.E001"),
        ({"SECRET_KEY": REAL_KEY, "SECRET_KEY_FALLBACKS": [DEVELOPMENT_SECRET_KEY]}, "topos.E002"),
        ({"ALLOWED_HOSTS": []}, "topos.E003"),
        ({"SITE_URL": "http://topos.example"}, "topos.E005"),
        ({"SECURE_CSP": {}}, "topos.W006"),
    ],
)
def test_each_deploy_check_names_its_problem(settings, overrides, check_id):
    settings.SECRET_KEY, settings.ALLOWED_HOSTS = REAL_KEY, ["topos.example"]
    settings.SITE_URL = "https://topos.example"
    assert all_deploy_problems() == []
    for name, value in overrides.items():
        setattr(settings, name, value)
    assert [p.id for p in all_deploy_problems()] == [check_id]


def all_deploy_problems():
    return [
        *checks.secret_key_check(None),
        *checks.allowed_hosts_check(None),
        *checks.site_url_check(None),
        *checks.content_security_policy_check(None),
    ]


# --- API limits (decision 12, point 6) ----------------------------------------------------------------


def test_api_rates_come_from_the_environment_with_defaults_and_off():
    rates = settings_value(
        "settings.TOPOS_API_RATES",
        DEBUG="true",
        TOPOS_API_RATE_ANON="",
        TOPOS_API_RATE_USER="30/min",
        TOPOS_API_RATE_MOVES="off",
    )
    assert rates == repr({"anon": "60/min", "user": "30/min", "moves": None})


def test_a_malformed_api_rate_stops_the_site():
    done = manage("check", DEBUG="true", TOPOS_API_RATE_MOVES="ten a second")
    assert done.returncode != 0
    assert "TOPOS_API_RATE_MOVES must look like 60/min" in done.stderr


def test_the_throttles_share_redis_when_there_is_one_and_files_otherwise(tmp_path):
    expression = "settings.CACHES['default']['BACKEND']"
    assert settings_value(expression, DEBUG="true", REDIS_URL="redis://127.0.0.1:6379/0").endswith("RedisCache'")
    assert settings_value(expression, DEBUG="true").endswith("FileBasedCache'")
    assert settings_value(
        "settings.CACHES['default']['LOCATION']", DEBUG="true", TOPOS_CACHE_DIR=str(tmp_path)
    ) == repr(str(tmp_path))


@pytest.mark.django_db
def test_postgresql_connections_run_without_jit():
    """Short queries paid for JIT compilation (bench/bench_player_stats.py); the site turns it off."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
