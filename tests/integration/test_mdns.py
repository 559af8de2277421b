"""The scoreboard is advertised over mDNS (on loopback here: no traffic leaves the machine)."""

import gc
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

from zeroconf import IPVersion, Zeroconf

import companion.device.mdns
from companion.device.mdns import SERVICE, Advertiser, advertise


def in_thread(fn):
    """Run ``fn`` in a plain thread: zeroconf's blocking calls refuse to run where an
    asyncio loop is running, as Playwright's sync API leaves one in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result(timeout=30)


def test_the_service_is_found_by_a_browser_and_withdrawn_on_stop():
    in_thread(_advertise_and_find)


def _advertise_and_find():
    withdraw = advertise(8123, ["127.0.0.1"], name="Companion test", interfaces=["127.0.0.1"])
    other = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        info = other.get_service_info(SERVICE, f"Companion test.{SERVICE}", timeout=10000)
        assert info is not None
        assert (info.port, info.parsed_addresses()) == (8123, ["127.0.0.1"])
        assert info.properties[b"path"] == b"/"
    finally:
        withdraw()
        other.close()
        _collect_zeroconf_transports()


def _collect_zeroconf_transports():
    # zeroconf's close() leaves its datagram transports to the garbage collector, which
    # warns (ResourceWarning) in whichever test runs next; collect them here instead.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def test_a_failure_to_advertise_is_not_fatal():
    withdraw = in_thread(lambda: advertise(8123, ["not an address"], interfaces=["127.0.0.1"]))
    withdraw()  # a no-op, and no exception
    _collect_zeroconf_transports()


def test_withdrawing_never_raises_when_the_network_went_first(monkeypatch, caplog):
    # serve withdraws the name while it stops; a send failing there (the Wi-Fi gone first)
    # must not skip the rest of the clean-up. The failure is injected: no network is taken down.
    def unplugged(self, info):
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(Zeroconf, "unregister_service", unplugged)
    withdraw = in_thread(lambda: advertise(8124, ["127.0.0.1"], interfaces=["127.0.0.1"]))
    in_thread(withdraw)
    assert "could not withdraw the mDNS name ([Errno 101] Network is unreachable)" in caplog.text
    _collect_zeroconf_transports()


def test_the_name_follows_the_machine_to_its_new_address():
    # A Pi whose Wi-Fi came up after the service had advertised only 127.0.0.1, for good.
    in_thread(_follow_and_find)


def _follow_and_find():
    name = "Companion moving"
    advertiser = Advertiser(8125, name=name, interfaces=["127.0.0.1"])
    try:
        advertiser.follow(["127.0.0.1"])
        assert _found(name) == ["127.0.0.1"]
        advertiser.follow(["127.0.0.1", "192.0.2.7"])  # the Wi-Fi is up: loopback left out
        assert advertiser.addresses == ["192.0.2.7"]
        assert _found(name) == ["192.0.2.7"]
    finally:
        advertiser.withdraw()
        _collect_zeroconf_transports()


def _found(name):
    """The addresses a fresh browser on loopback resolves the service ``name`` to."""
    other = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        info = other.get_service_info(SERVICE, f"{name}.{SERVICE}", timeout=10000)
        return info and info.parsed_addresses()
    finally:
        other.close()


def test_the_addresses_are_checked_again_and_again_until_serve_stops(monkeypatch):
    registered, withdrawn = [], []

    def fake_advertise(port, addresses, **kw):  # what is registered, not how
        registered.append(addresses)
        return lambda: withdrawn.append(addresses)

    monkeypatch.setattr(companion.device.mdns, "advertise", fake_advertise)
    now = [["127.0.0.1"]]
    stop = Advertiser(8126).keep_following(lambda: now[0], every=0.02)
    assert registered == [["127.0.0.1"]]  # at once, before serve goes on
    now[0] = ["192.0.2.7", "198.51.100.3", "127.0.0.1"]
    for _ in range(500):
        if len(registered) == 2:
            break
        time.sleep(0.01)
    now[0] = ["198.51.100.3", "192.0.2.7"]  # the same addresses, listed in another order
    time.sleep(0.1)
    stop()
    assert registered == [["127.0.0.1"], ["192.0.2.7", "198.51.100.3"]]
    # the old name withdrawn, then the last one when serve stops
    assert withdrawn == [["127.0.0.1"], ["192.0.2.7", "198.51.100.3"]]
