"""The embedded default serves with DEBUG off on a fresh machine (decision 28): run.sh sets TOPOS_EMBEDDED, and the
settings make the site's own SECRET_KEY once and answer at the address it serves (config/local_site.py), while the
production settings stay as strict as ever."""

import stat

from config import local_site
from config.safety import DEVELOPMENT_SECRET_KEY, secret_key_problem
from tests.config.test_settings import PRODUCTION, REAL_KEY, manage, settings_value


def test_the_key_is_made_once_readable_by_its_owner_alone_and_kept(tmp_path):
    path = tmp_path / "site" / "secret-key"
    first = local_site.secret_key_from_file(path)
    assert secret_key_problem(first) is None  # long, random: what production itself would accept
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert local_site.secret_key_from_file(path) == first  # the next process, or the next start, signs alike
    assert local_site.secret_key_from_file(tmp_path / "another" / "secret-key") != first
    assert [p.name for p in path.parent.iterdir()] == ["secret-key"]  # no temporary file left behind


def test_the_site_answers_at_the_address_it_serves_and_at_its_site_url():
    hosts = local_site.allowed_hosts("127.0.0.1:8000", "http://127.0.0.1:8000")
    assert set(hosts) == {"localhost", "127.0.0.1", "[::1]"}
    assert "club.example" in local_site.allowed_hosts("127.0.0.1:8000", "http://club.example:8000")
    assert "192.168.7.9" in local_site.allowed_hosts("192.168.7.9:8080", "http://192.168.7.9:8080")
    assert "[fd00::9]" in local_site.allowed_hosts("[fd00::9]:8080", "http://localhost:8000")
    # Every address of the machine: its host name and the address it would send from, not any Host header.
    everywhere = local_site.allowed_hosts("0.0.0.0:8080", "http://localhost:8080")
    assert "*" not in everywhere and set(hosts) <= set(everywhere)
    assert len(everywhere) > len(hosts)


def test_run_sh_settings_make_their_own_key_beside_the_database_and_serve_without_debug(tmp_path):
    env = {"TOPOS_EMBEDDED": "1", "DEBUG": "false", "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"}
    key = settings_value("settings.SECRET_KEY", **env)
    assert (tmp_path / "secret-key").read_text().strip() == key.strip("'")
    assert key != repr(DEVELOPMENT_SECRET_KEY)
    assert settings_value("settings.SECRET_KEY", **env) == key  # the worker, beat and the next start: the same key
    assert settings_value("settings.DEBUG", **env) == "False"
    served = {**env, "TOPOS_BIND": "0.0.0.0:8080", "SITE_URL": "http://club.example:8080"}
    assert "'club.example'" in settings_value("settings.ALLOWED_HOSTS", **served)
    assert settings_value("settings.CSRF_TRUSTED_ORIGINS", **served) == "['http://club.example:8080']"
    # A SECRET_KEY given is used as given, and makes no file.
    given = tmp_path / "given"
    given.mkdir()
    assert settings_value(
        "settings.SECRET_KEY", **{**env, "DATABASE_URL": f"sqlite:///{given / 'db.sqlite3'}"}, SECRET_KEY=REAL_KEY
    ) == repr(REAL_KEY)
    assert not (given / "secret-key").exists()


def test_without_run_sh_no_key_is_made_and_debug_off_still_needs_one(tmp_path):
    done = manage("check", DEBUG="false", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert done.returncode != 0 and "development key is published in the repository" in done.stderr
    assert not (tmp_path / "secret-key").exists()


def test_production_never_takes_the_embedded_key_nor_its_hosts(tmp_path):
    env = {**PRODUCTION, "TOPOS_EMBEDDED": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    done = manage("check", **env, ALLOWED_HOSTS="topos.example")
    assert done.returncode != 0 and "SECRET_KEY is not set" in done.stderr
    done = manage("check", **env, SECRET_KEY=REAL_KEY)
    assert done.returncode != 0 and "ALLOWED_HOSTS is empty" in done.stderr


def test_a_server_error_shows_the_sites_own_page_in_her_language(rf):
    # With DEBUG off (run.sh now, production always) an error is this page, never a traceback.
    from django.utils import translation
    from django.views.defaults import server_error

    answer = server_error(rf.get("/"))
    assert answer.status_code == 500
    assert "Something went wrong" in answer.content.decode()
    with translation.override("es"):
        assert "Algo salió mal" in server_error(rf.get("/")).content.decode()
