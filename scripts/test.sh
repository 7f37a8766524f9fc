#!/usr/bin/env bash
# Install what the tests need into .venv and run the whole suite (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/python.sh
ensure_venv
exec .venv/bin/python -m pytest -q "$@"
