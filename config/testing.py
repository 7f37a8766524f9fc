"""Settings of the test suite: `config.settings` as it is, DEBUG off like a real site, with the
published development key allowed (config/safety.py).

The permission is put in the environment, not just here, so that the processes the tests start
(Celery workers, `manage.py`, runserver) inherit it while they load `config.settings` themselves.
"""
import os

os.environ.setdefault("TOPOS_ALLOW_DEV_SECRET", "true")

from .settings import *  # noqa: E402,F401,F403
