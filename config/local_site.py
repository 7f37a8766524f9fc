"""What the embedded default (`config/scripts/run.sh`, which sets TOPOS_EMBEDDED=1) derives for itself, so that it
serves with DEBUG off on a fresh machine with no settings given (decision 28).

- Its SECRET_KEY, when none is given: made once, at random, and kept in a file of the site's own (beside its SQLite
  database, mode 0600, ignored by git), so that every process of the site (web, worker, beat) signs with the same key
  and sessions, tokens and emailed links stay valid across restarts.  Never the development key published in the
  repository, and never read by config.production, which takes SECRET_KEY from the environment alone.
- Its host names, when ALLOWED_HOSTS is not given: the machine's own names (localhost), the host of the address it
  serves (a wildcard such as 0.0.0.0 stands for the machine's host names and addresses) and that of SITE_URL.

Pure functions of their arguments and of the machine, no Django: config/settings.py calls them before Django is up.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
WILDCARDS = {"", "0.0.0.0", "::"}


def secret_key_from_file(path: Path) -> str:
    """The key kept in `path`, written there first (a fresh random one) if there is none; two processes at once: the
    first one's is kept, and both read it."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret-key-")
        try:
            os.write(fd, (secrets.token_urlsafe(60) + "\n").encode())
            os.close(fd)  # mkstemp made it 0600: readable by this account alone
            try:
                os.link(temporary, path)  # atomic: fails if another process made it meanwhile
            except FileExistsError:
                pass
        finally:
            os.unlink(temporary)
    key = path.read_text().strip()
    if not key:
        raise ValueError(f"{path} is empty: delete it and a new key is made (everyone is logged out).")
    return key


def _host_name(host: str) -> str:
    """`host` as ALLOWED_HOSTS writes it: an IPv6 address in brackets."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host.lower()


def _machine_names() -> set[str]:
    """This machine's host names and the addresses others reach it at (none of them sends a packet)."""
    names: set[str] = set()
    try:
        hostname = socket.gethostname()
        names |= {hostname, socket.getfqdn(), f"{hostname}.local"}
        names |= set(socket.gethostbyname_ex(hostname)[2])
    except OSError:
        pass
    # The address the machine would send from, to an address of the documentation ranges (connecting a UDP socket
    # only picks the route).
    for family, far in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((far, 9))
                names.add(probe.getsockname()[0])
        except OSError:
            pass
    return {name for name in names if name}


def allowed_hosts(address: str, site_url: str) -> list[str]:
    """The host names a site serving at `address` (HOST:PORT, as given to run.sh) and known as `site_url` answers."""
    host = address.rpartition(":")[0].strip("[]") if ":" in address else address
    names = set(LOCAL_HOSTS)
    names |= _machine_names() if host in WILDCARDS else {host}
    if site_host := urlsplit(site_url).hostname:
        names.add(site_host)
    return sorted({_host_name(name) for name in names})


def site_origin(site_url: str) -> str:
    """SITE_URL's origin (scheme://host:port), trusted for CSRF as the address people use."""
    parts = urlsplit(site_url)
    return f"{parts.scheme}://{parts.netloc}"
