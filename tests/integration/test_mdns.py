"""The scoreboard is advertised over mDNS (on loopback here: no traffic leaves the machine)."""

import gc
import warnings
from concurrent.futures import ThreadPoolExecutor

from zeroconf import IPVersion, Zeroconf

from companion.mdns import SERVICE, advertise


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
