"""Advertise the scoreboard over mDNS/zeroconf as an _http._tcp service.

Phones often cannot resolve .local names, so the QR code carries the IP address;
mDNS is for laptops and apps that browse for services.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable

from companion.device.lan import loopback

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


def shown(addresses: list[str]) -> list[str]:
    """The addresses worth advertising: loopback only when the machine has no other."""
    return [ip for ip in addresses if not loopback(ip)] or addresses


class Advertiser:
    """The service's mDNS name, kept on the machine's addresses as they change.

    A Pi whose Wi-Fi comes up after the service started had only loopback to advertise, and
    a new DHCP lease moves its address; ``follow`` registers the name again (on the
    interfaces there are now) whenever the addresses differ. Never raises."""

    def __init__(
        self, port: int, *, name: str = "Table Companion", interfaces: list[str] | None = None
    ):
        self.port, self.name, self.interfaces = port, name, interfaces
        self.addresses: list[str] = []
        self._withdraw: Callable[[], None] = lambda: None

    def follow(self, addresses: list[str]) -> None:
        addresses = shown(addresses)
        if sorted(addresses) == sorted(self.addresses):
            return
        if self.addresses:
            log.info("mDNS: the addresses are now %s", ", ".join(addresses))
        self._withdraw()
        self._withdraw = advertise(self.port, addresses, name=self.name, interfaces=self.interfaces)
        self.addresses = addresses

    def withdraw(self) -> None:
        self._withdraw()
        self._withdraw, self.addresses = (lambda: None), []

    def keep_following(
        self, addresses: Callable[[], list[str]], every: float = 30.0
    ) -> Callable[[], None]:
        """Follow ``addresses()`` now and every ``every`` seconds in a thread; returns what
        stops that and withdraws the name."""
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(every):
                try:
                    self.follow(addresses())
                except Exception as exc:  # never end the thread: the name is only a help
                    log.warning("mDNS: could not check the addresses (%s)", exc)

        self.follow(addresses())
        thread = threading.Thread(target=run, name="mdns", daemon=True)
        thread.start()

        def stop_and_withdraw() -> None:
            stop.set()
            thread.join(timeout=5)
            self.withdraw()

        return stop_and_withdraw
