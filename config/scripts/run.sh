#!/usr/bin/env bash
# Install, migrate, create the demo account and serve the site on the embedded default
# (SQLite, Celery tasks in-process), or on PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set.
set -euo pipefail
cd "$(dirname "$0")/../.."
source config/scripts/python.sh
ensure_venv
export DEBUG="${DEBUG:-true}"
.venv/bin/python manage.py compilemessages --ignore=.venv >/dev/null 2>&1 || true
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo
exec .venv/bin/python manage.py runserver "${1:-127.0.0.1:8000}"
