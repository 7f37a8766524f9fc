#!/usr/bin/env bash
# Install, migrate, create the demo account and serve the site on the embedded default
# (SQLite, Celery tasks in-process), or on PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set.
set -euo pipefail
cd "$(dirname "$0")/../.."
source config/scripts/python.sh
ensure_venv
export DEBUG="${DEBUG:-true}"
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo
# Deadlines, reminders and digests: the beat schedule, in-process when there is no Redis.
if [ -z "${REDIS_URL:-}" ]; then
  .venv/bin/python manage.py topos_beat &
  trap 'kill $! 2>/dev/null' EXIT
fi
.venv/bin/python manage.py runserver "${1:-127.0.0.1:8000}"
