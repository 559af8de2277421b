"""This machine's addresses on the local network, for the join link phones open."""

from __future__ import annotations

import fcntl
import socket
import struct


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, likeliest reached first (``ranked``;
    Linux; no traffic sent)."""
    found: list[str] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        names = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(
                    s.fileno(),
                    0x8915,  # SIOCGIFADDR
                    struct.pack("256s", name[:15].encode()),
                )
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return ranked(found) or ["127.0.0.1"]


def loopback(ip: str) -> bool:
    """An address only this machine reaches (127.x.x.x)."""
    return ip.startswith("127.")


def link_local(ip: str) -> bool:
    """An address a cable to no DHCP server gives (169.254.x.x)."""
    return ip.startswith("169.254.")


def ranked(ips: list[str]) -> list[str]:
    """``ips`` in the order phones are likeliest to reach them, the join link's first: a
    LAN's addresses, then link-local ones (169.254.x.x, a cable to no DHCP server), then
    loopback; otherwise as the interfaces are numbered."""
    return sorted(ips, key=lambda ip: (loopback(ip), link_local(ip)))
