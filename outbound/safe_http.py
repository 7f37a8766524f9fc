"""The one way out of the site to an address a person gave (a webhook, a push endpoint): against server-side
request forgery (decision 29).

- http and https only, no user name or password in the address;
- the host is resolved once, and every address it resolves to must be public: no private, loopback, link-local,
  multicast, reserved, unspecified or otherwise non-global address, IPv4 or IPv6, an IPv4 address inside IPv6
  (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) judged as that IPv4 address;
- the connection goes to the address that was checked (the socket is opened to it; TLS still checks the host's
  name), so a second DNS answer cannot point it elsewhere (no rebinding between check and connect);
- no redirect is followed (a 3xx is an answer like any other);
- the whole exchange is bounded in time (TOPOS_OUTBOUND_TIMEOUT_SECONDS) and the answer in size
  (TOPOS_OUTBOUND_MAX_RESPONSE_BYTES; the rest is not read).

TOPOS_OUTBOUND_ALLOWED_NETWORKS lists networks let through all the same: for the tests' local receivers only.  It
is empty unless a test sets it, and config.production empties it whatever the environment says.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

NAT64 = ipaddress.ip_network("64:ff9b::/96")


class Refused(Exception):
    """The address may not be reached (not sent; retrying will not help)."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if int(ip) >> 32 == 0 and int(ip) > 1:  # IPv4-compatible ::a.b.c.d (deprecated, still routable somewhere)
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """May the site connect to this address: a global unicast address, whatever it embeds too?"""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is a.b.c.d
            return is_public(ip.ipv4_mapped)
        inner = _embedded_ipv4(ip)
        if inner is not None and not is_public(inner):
            return False
        if ip.scope_id:
            return False
    bad = (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local)
    )
    return ip.is_global and not bad


def _allowed_anyway(ip) -> bool:
    for network in getattr(settings, "TOPOS_OUTBOUND_ALLOWED_NETWORKS", ()) or ():
        net = ipaddress.ip_network(network, strict=False)
        if ip.version == net.version and ip in net:
            return True
    return False


def check_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an address the site may post to, or Refused (before any DNS)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(_("This is not a web address.")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(_("Only http:// and https:// addresses can be used."))
    if parts.username or parts.password:
        raise Refused(_("An address with a user name or password in it cannot be used."))
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def resolve(host: str, port: int) -> list:
    """Every address `host` stands for, each checked; Refused if any may not be reached (or none is found)."""
    try:
        literal = ipaddress.ip_address(host)
        found = [literal]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            raise Refused(_("The address's host name could not be found.")) from None
        found = []
        for _family, _type, _proto, _name, sockaddr in infos:
            ip = ipaddress.ip_address(sockaddr[0].split("%")[0])
            if isinstance(ip, ipaddress.IPv6Address) and len(sockaddr) > 3 and sockaddr[3]:
                raise Refused(_("That address is inside a private network, and cannot be used."))
            found.append(ip)
    if not found:
        raise Refused(_("The address's host name could not be found."))
    for ip in found:
        if not (is_public(ip) or _allowed_anyway(ip)):
            raise Refused(_("That address is inside a private network, and cannot be used."))
    return found


def check_target(url: str) -> None:
    """Refused unless `url` could be posted to now (the check made when an address is given, and again on send)."""
    _scheme, host, port, _path = check_url(url)
    resolve(host, port)


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection to the checked address, whatever DNS says by now (the Host header keeps the name)."""

    def __init__(self, host, port, addresses, timeout, tls: bool):
        super().__init__(host, port, timeout=timeout)
        self._addresses, self._tls = list(addresses), tls

    def connect(self):
        sock, failure = None, None
        for address in self._addresses:  # each one checked; the first that answers
            # A socket of the address's family connected to the address itself: no name is looked up again (even
            # socket.create_connection would ask getaddrinfo once more).
            family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
            candidate = socket.socket(family, socket.SOCK_STREAM)
            try:
                candidate.settimeout(self.timeout)
                candidate.connect((str(address), self.port))
                sock = candidate
                break
            except OSError as exc:
                candidate.close()
                failure = exc
        if sock is None:
            raise failure or OSError("no address to connect to")
        if self._tls:
            context = ssl.create_default_context()
            sock = context.wrap_socket(sock, server_hostname=self.host)
        self.sock = sock


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST `body` to `url` as the module says; Refused for an address that may not be reached, OSError (a timeout
    included) or http.client.HTTPException when the exchange fails."""
    scheme, host, port, path = check_url(url)
    addresses = resolve(host, port)
    timeout = float(settings.TOPOS_OUTBOUND_TIMEOUT_SECONDS)
    limit = int(settings.TOPOS_OUTBOUND_MAX_RESPONSE_BYTES)
    deadline = time.monotonic() + timeout
    connection = _Pinned(host, port, addresses, timeout, scheme == "https")
    try:
        connection.request("POST", path, body=body, headers={**headers, "Content-Length": str(len(body))})
        _remaining(connection, deadline)
        response = connection.getresponse()
        chunks, size = [], 0
        while size < limit:
            _remaining(connection, deadline)
            chunk = response.read1(min(8192, limit - size)) if hasattr(response, "read1") else response.read(8192)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return Answer(status=response.status, body=b"".join(chunks))
    finally:
        connection.close()


def _remaining(connection, deadline: float) -> None:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(_("The address took too long to answer."))
    if connection.sock is not None:
        connection.sock.settimeout(left)
