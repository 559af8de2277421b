"""Advertise the scoreboard over mDNS/zeroconf as an _http._tcp service.

Phones often cannot resolve .local names, so the QR code carries the IP address;
mDNS is for laptops and apps that browse for services.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable

log = logging.getLogger(__name__)
SERVICE = "_http._tcp.local."


def advertise(
    port: int,
    addresses: list[str],
    *,
    name: str = "Table Companion",
    interfaces: list[str] | None = None,
) -> Callable[[], None]:
    """Register the service; returns a function that withdraws it. Never raises."""
    try:
        from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

        zc = Zeroconf(interfaces=interfaces or InterfaceChoice.All, ip_version=IPVersion.V4Only)
        info = ServiceInfo(
            SERVICE,
            f"{name}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in addresses],
            port=port,
            properties={"path": "/"},
            server=f"{socket.gethostname()}.local.",
        )
        zc.register_service(info, allow_name_change=True)
    except Exception as exc:  # the scoreboard works without mDNS: say so and go on
        log.warning("could not advertise over mDNS (%s); phones can still use the QR code", exc)
        return lambda: None

    def withdraw() -> None:  # never raises either: it runs while serve stops
        try:
            zc.unregister_service(info)
        except Exception as exc:  # the network gone first: phones time the name out
            log.warning("could not withdraw the mDNS name (%s)", exc)
        finally:
            zc.close()

    return withdraw
