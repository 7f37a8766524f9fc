"""Settings of the test suite: `config.settings` as it is, DEBUG off like a real site, with the
published development key allowed (config/safety.py).

The permission is put in the environment, not just here, so that the processes the tests start
(Celery workers, `manage.py`, runserver) inherit it while they load `config.settings` themselves.
"""

import os
import tempfile

os.environ.setdefault("TOPOS_ALLOW_DEV_SECRET", "true")
# The API's throttles (games.api.throttles) stay on, far above what any test asks, so no test is refused by
# accident; tests of the throttles set their own rates.  Their counts go to this run's own cache folder.
for _scope in ("ANON", "USER", "MOVES"):
    os.environ.setdefault(f"TOPOS_API_RATE_{_scope}", "1000/s")
os.environ.setdefault("TOPOS_CACHE_DIR", tempfile.mkdtemp(prefix="topos-test-cache-"))

from .settings import *  # noqa: E402,F401,F403

# Always this run's own folder, even where REDIS_URL is set: the throttle tests clear the cache, and clearing a
# Redis cache flushes the whole database, broker queues included.  One subfolder per pytest-xdist worker, whose
# tests clear theirs without touching another's.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.path.join(os.environ["TOPOS_CACHE_DIR"], os.environ.get("PYTEST_XDIST_WORKER", "main")),
        "KEY_PREFIX": "topos-test",
    }
}

# The throttles too, unless a test points them at Redis (tests/api/test_throttling.py).
TOPOS_THROTTLE_REDIS_URL = ""

# Every test hashes with the fast hasher: the suite creates hundreds of users with a password, the real hasher
# takes a noticeable fraction of a second per call, and no test is about hashing.  Here rather than in a fixture:
# module-scoped users (the browser tests') are hashed quickly too.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
