#!/usr/bin/env bash
# Install what the tests need into .venv and run the whole suite (the README's test command).
# On every core (pytest-xdist): each worker has its own test database (pytest-django's test_<name>_gwN), Redis
# database (tests/integration/workers.py), broker folder (tests/conftest.py) and cache folder (config/testing.py);
# `loadgroup` keeps the browser tests together on one worker (tests/browser/conftest.py).  Arguments go to pytest
# after these, so `-n 0` runs everything in this one process.
#
# One worker more than the cores, at most 4: the browser tests' worker spends most of its time waiting (for
# Chromium, for a bot's reaction time in the Celery worker, for a page's next poll), and with only one worker per
# core that core would sit idle while the others still have tests to run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source config/scripts/python.sh
ensure_venv
ensure_chromium
workers=$(($(nproc) + 1))
exec .venv/bin/python -m pytest -q -n "$((workers < 4 ? workers : 4))" --dist loadgroup "$@"
