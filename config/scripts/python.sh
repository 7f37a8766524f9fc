# Shared by the run and test scripts: a Python 3.12+ (Django 6 needs it) and a .venv with the pinned requirements.
pick_python() {
  for candidate in python3.13 python3.12 /root/.pyenv/versions/3.12*/bin/python3 /root/.pyenv/versions/3.13*/bin/python3 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "Topos needs Python 3.12 or newer (Django 6); none was found." >&2
  return 1
}

# pip runs only when requirements.txt changed since the last install into this .venv (decision 26: a second start does
# not reinstall): the hash of what was installed is kept in .venv/topos-requirements.sha256.
ensure_venv() {
  if [ ! -x .venv/bin/python ]; then
    "$(pick_python)" -m venv .venv
  fi
  local stamp=.venv/topos-requirements.sha256 wanted
  wanted="$(sha256sum requirements.txt | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    return 0
  fi
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
  echo "$wanted" >"$stamp"
}

ensure_chromium() {
  # The browser tests drive Debian's Chromium (Playwright may not download its own browser here).
  command -v chromium >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install Debian's 'chromium' package, or the browser tests will be skipped." >&2
  fi
}
