#!/usr/bin/env bash
# Install what the tests need into .venv and run the whole suite (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/../.."
source config/scripts/python.sh
ensure_venv
ensure_chromium
exec .venv/bin/python -m pytest -q "$@"
