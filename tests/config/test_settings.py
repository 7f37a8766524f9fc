"""Settings read the environment strictly, and the production path passes `check --deploy`."""
import os
import pathlib
import subprocess
import sys

import pytest

from config.env import ImproperEnvironment, env_bool, env_int, env_list

ROOT = pathlib.Path(__file__).resolve().parents[2]
REAL_KEY = "k3J9x-Vq2m!Zr8Lp0wTy4Hs6Nd1Fb7Gc5Ae2Ui9Oo3Pj8Kl0Mn4Bv6Cx1Zq7Wr5Et2Yu"


def manage(*args, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY")}
    base.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=base, capture_output=True, text=True,
                          timeout=120)


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
    done = manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_SETTINGS_MODULE="config.production",
                  SECRET_KEY=REAL_KEY, ALLOWED_HOSTS="topos.example", DEBUG="false")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_real_secret_key():
    done = manage("check", DJANGO_SETTINGS_MODULE="config.production", ALLOWED_HOSTS="topos.example", DEBUG="false")
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


def test_a_malformed_variable_stops_the_site():
    done = manage("check", DEBUG="perhaps")
    assert done.returncode != 0
    assert "DEBUG must be one of" in done.stderr


def test_database_url_selects_postgresql():
    done = manage("shell", "-c", "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])",
                  DATABASE_URL="postgres://postgres@127.0.0.1:5432/topos")
    assert done.stdout.strip().splitlines()[-1] == "django.db.backends.postgresql", done.stderr
