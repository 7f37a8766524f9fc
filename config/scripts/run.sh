#!/usr/bin/env bash
# Install, migrate, create the demo account and serve the site on this machine (the embedded default: SQLite in WAL
# mode, the filesystem broker in .broker/).  Then config/scripts/supervise.py runs, as one group:
#   gunicorn with uvicorn workers (as `serve.sh web` with TOPOS_ASGI=1), or with --dev Django's runserver, which
#   reloads on every code change;
#   without REDIS_URL, a Celery worker (bots, emails, notifications; restarted if it dies) and one Celery beat
#   (deadlines, reminders, digests; a second one on the same .broker/ refuses to start).
# Ctrl-C stops them all.  With REDIS_URL set, start `celery -A config worker` and `celery -A config beat` yourself.
#
#   bash config/scripts/run.sh [--dev] [ADDRESS]      ADDRESS: 127.0.0.1:8000 unless given, e.g. 0.0.0.0:8080
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${TOPOS_SKIP_INSTALL:-}" ]; then  # the deployment tests' shared virtualenv is installed already
  source config/scripts/python.sh
  ensure_venv
fi
address="127.0.0.1:8000"
dev=""
for arg in "$@"; do
  case "$arg" in --dev) dev=1 ;; -*) echo "usage: $0 [--dev] [ADDRESS]" >&2; exit 2 ;; *) address="$arg" ;; esac
done
# Decision 28: served as a real site, DEBUG off (an error shows the site's own page, not a traceback to anyone, and
# no request keeps a log of its queries); --dev keeps it on.  TOPOS_EMBEDDED lets the settings make the site's
# own SECRET_KEY once (a git-ignored file beside the database) and answer at the address served
# (config/local_site.py); config.production ignores both.
export DEBUG="${DEBUG:-${dev:+true}}"
export DEBUG="${DEBUG:-false}"
export TOPOS_EMBEDDED=1
export TOPOS_BIND="$address"
# Every link in every email starts with this (the address served here unless told otherwise).
export SITE_URL="${SITE_URL:-http://${address}}"
.venv/bin/python config/scripts/prepare.py  # migrate (when needed) and seed_demo, in one start of Django
exec .venv/bin/python config/scripts/supervise.py "$@"
