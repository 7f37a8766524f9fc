#!/usr/bin/env bash
# Install, migrate, create the demo account and serve the site.  Without REDIS_URL (the
# embedded default: SQLite, the filesystem broker in .broker/) it also starts a real Celery
# worker with the beat schedule beside the web server; Ctrl-C stops both.  With REDIS_URL
# set, start `celery -A config worker` and `celery -A config beat` yourself (README).
set -euo pipefail
cd "$(dirname "$0")/../.."
source config/scripts/python.sh
ensure_venv
address="${1:-127.0.0.1:8000}"
export DEBUG="${DEBUG:-true}"
# Every link in every email starts with this (the address served here unless told otherwise).
export SITE_URL="${SITE_URL:-http://${address}}"
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo

worker=""
stop_worker() {
  [ -n "$worker" ] || return 0
  kill -TERM "$worker" 2>/dev/null || return 0
  # A warm shutdown lets a bot finish the move it is thinking about; then it must go.
  for _ in $(seq 1 30); do kill -0 "$worker" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$worker" 2>/dev/null || true
}
trap stop_worker EXIT
trap 'exit 130' INT TERM

if [ -z "${REDIS_URL:-}" ]; then
  broker="${TOPOS_BROKER_DIR:-.broker}"
  mkdir -p "$broker"
  # Bots, emails, notifications (the worker) and deadlines, reminders, digests (-B: the beat).
  .venv/bin/celery -A config worker -B -l info -s "$broker/celerybeat-schedule" \
    --without-gossip --without-mingle --without-heartbeat >>"$broker/worker.log" 2>&1 &
  worker=$!
  echo "Celery worker and beat started (pid $worker); their log is $broker/worker.log"
fi
.venv/bin/python manage.py runserver "$address"
