#!/usr/bin/env bash
# Production on PostgreSQL and Redis (README "Deploying").  Needs DATABASE_URL and REDIS_URL; uses
# config.production unless DJANGO_SETTINGS_MODULE says otherwise.
#
#   serve.sh           everything on this machine: collectstatic and migrate, then gunicorn, a Celery
#                      worker and beat; Ctrl-C or TERM stops all three, and so does any one of them dying
#   serve.sh prepare   collectstatic and migrate only (once per release, before the rest starts)
#   serve.sh web       gunicorn only          serve.sh worker    a Celery worker only
#   serve.sh beat      Celery beat only (run exactly one in the whole deployment)
#
# The parts alone are what containers or several machines run (compose.yaml); they exec, so signals reach them.
# TOPOS_ASGI=1: gunicorn runs uvicorn workers on config.asgi (config/gunicorn.conf.py), and the event streams are on:
# an open table page then follows its table's stream, holding no thread (README "Events").
set -euo pipefail
cd "$(dirname "$0")/../.."
part="${1:-all}"
case "$part" in all|prepare|web|worker|beat) ;; *)
  echo "usage: $0 [all|prepare|web|worker|beat]" >&2; exit 2 ;;
esac

missing=()
[ -n "${DATABASE_URL:-}" ] || missing+=("DATABASE_URL  the PostgreSQL database, e.g. postgres://topos:secret@127.0.0.1:5432/topos")
[ -n "${REDIS_URL:-}" ] || missing+=("REDIS_URL     the Celery broker, e.g. redis://127.0.0.1:6379/0")
if [ "${#missing[@]}" -gt 0 ]; then
  {
    echo "serve.sh runs the site in production, on PostgreSQL and Redis; set:"
    printf '  %s\n' "${missing[@]}"
    echo "(and SECRET_KEY, ALLOWED_HOSTS, SITE_URL: README \"Deploying\", .env.example).  To try the site on this"
    echo "machine without them, run config/scripts/run.sh instead."
  } >&2
  exit 2
fi
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.production}"
if [ -z "${TOPOS_SKIP_INSTALL:-}" ]; then  # the container image installs at build time
  source config/scripts/python.sh
  ensure_venv
fi
bin=.venv/bin
# Beat remembers when each periodic task last ran, so a restart neither repeats nor skips the daily digest.
beat_schedule="${CELERY_BEAT_SCHEDULE_FILE:-.beat/celerybeat-schedule}"

prepare() {
  "$bin/python" manage.py collectstatic --noinput -v 0
  "$bin/python" manage.py migrate --noinput
}
web() { exec "$bin/gunicorn" -c config/gunicorn.conf.py; }
# Concurrency: one process per core unless CELERY_WORKER_CONCURRENCY says otherwise; no gossip or mingle, which
# only serve remote control and cost every worker broker traffic.
worker() {
  exec "$bin/celery" -A config worker -l "${LOG_LEVEL:-info}" --without-gossip --without-mingle \
    ${CELERY_WORKER_CONCURRENCY:+-c "$CELERY_WORKER_CONCURRENCY"}
}
beat() {
  mkdir -p "$(dirname "$beat_schedule")"
  exec "$bin/celery" -A config beat -l "${LOG_LEVEL:-info}" -s "$beat_schedule"
}

case "$part" in
  prepare) prepare; exit 0 ;;
  web|worker|beat) "$part" ;;
esac

# all: the three side by side, stopped together.
prepare
pids=()
running() {
  local pid
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && return 0; done
  return 1
}
stop_all() {
  trap - INT TERM
  [ "${#pids[@]}" -gt 0 ] || return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  # gunicorn lets requests finish, the worker its tasks (a bot mid-move), within their graceful time; then they go.
  for _ in $(seq 1 "${TOPOS_STOP_SECONDS:-40}"); do
    running || break
    sleep 1
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap 'echo "serve.sh: stopping" >&2; stop_all; exit 130' INT
trap 'echo "serve.sh: stopping" >&2; stop_all; exit 143' TERM
(web) & pids+=($!)
(worker) & pids+=($!)
(beat) & pids+=($!)
echo "serve.sh: gunicorn (pid ${pids[0]}), Celery worker (pid ${pids[1]}) and beat (pid ${pids[2]}) started" >&2
# Whichever ends first, the others are stopped too: a supervisor sees one failure, not a half-running site.
status=0
wait -n || status=$?
echo "serve.sh: a process ended (status $status); stopping the others" >&2
stop_all
exit "$status"
