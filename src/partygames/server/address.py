"""The server's address as people should open it, and the pages that may open its WebSockets.

Share links and QR codes are built from one public URL (`Settings.base_url`, `--public-url`), never
from a request's `Host` header, which the client chooses (issue #21, item 8): `public_url` picks it
when none is configured (this machine's LAN address when bound to every interface, issue #23). A
WebSocket from a browser is taken only from a page this server served (`origin_allowed`).

A client's address (the per-address limits) is the connection's peer, or, when the peer is one of the
proxies in `Settings.trusted_proxies`, the last address in X-Forwarded-For that is not such a proxy
(uvicorn's proxy headers): a header from anyone else is ignored, and a proxy appends the address it saw,
so a forged entry never stands for the sender (issue #31, item 3). `check_trusted_proxies` reads the option.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

EVERY_INTERFACE = ("0.0.0.0", "::", "")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def lan_address() -> str | None:
    """This machine's IPv4 address on its network: the one its default route leaves from (connecting a
    UDP socket sends nothing). None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def public_url(host: str, port: int, configured: str | None = None) -> str:
    """The address people open: `configured` when given, else the bound host (every interface: the LAN
    address, so that phones can follow share links; localhost without a network)."""
    if configured:
        return configured.rstrip("/")
    if host in EVERY_INTERFACE:
        host = lan_address() or "localhost"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def check_public_url(url: str) -> str:
    """`url` if it is an http(s) address with a host (what a phone can open), else a ValueError."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"{url!r} is not an http:// or https:// address")
    return url.rstrip("/")


def check_trusted_proxies(value: str) -> tuple[str, ...]:
    """`value`, comma-separated, as the proxies trusted to say who the client is: each an IP address or a
    network (10.0.0.0/8), or * alone (any sender: only where nothing but the proxy can reach the process);
    else a ValueError naming the entry (uvicorn would take a typo as a literal that matches nothing)."""
    entries = tuple(part.strip() for part in value.split(",") if part.strip())
    if entries == ("*",):
        return entries
    for entry in entries:
        try:
            if "/" in entry:
                ipaddress.ip_network(entry)
            else:
                ipaddress.ip_address(entry)
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network") from None
    return entries


def _origin_key(url: str) -> tuple[str, str, int] | None:
    """Scheme, host and port of an origin or URL, the default port filled in (None: not one)."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme), parts.hostname, port


def origin_allowed(origin: str | None, host: str | None, public: str, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket may be opened from a page of `origin`: none given (not a browser), the
    address the request itself came to (`host`: its Host header, so a browser on the LAN address or on
    localhost keeps working), the public URL, or one of `allowed` ("*": any)."""
    if origin is None or "*" in allowed:
        return True
    key = _origin_key(origin)
    if key is None:
        return False
    scheme = key[0]
    same_host = host is not None and _origin_key(f"{scheme}://{host}") == key
    return same_host or key == _origin_key(public) or key in {_origin_key(a) for a in allowed}
