"""The button and LEDs on gpiozero's MockFactory: every gesture and every status."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.device.config import GpioConfig
from companion.device.panel import STATE_LED, Panel


@pytest.fixture
def rig():
    factory = MockFactory()
    calls = []
    cfg = GpioConfig(hold_seconds=0.4, bounce_seconds=0.05)
    panel = Panel(cfg, lambda: calls.append("press"), lambda: calls.append("hold"), factory)
    yield panel, factory.pin(cfg.button), calls
    panel.close()


def tap(pin, down: float, up: float = 0.0) -> None:
    """Close the switch for ``down`` seconds, then leave it open for ``up`` seconds."""
    pin.drive_low()
    time.sleep(down)
    pin.drive_high()
    time.sleep(up)


def wait_for(cond, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def test_defaults_are_explicit_two_second_hold_and_debounce():
    factory = MockFactory()
    panel = Panel(GpioConfig(), lambda: None, lambda: None, factory)
    try:
        assert panel.button.hold_time == 2.0
        assert panel.button.pin.bounce == pytest.approx(0.05)  # handed to the pin factory
        assert panel.button.pull_up is True
    finally:
        panel.close()


def test_a_press_advances_once(rig):
    _panel, pin, calls = rig
    tap(pin, 0.1)
    assert wait_for(lambda: calls == ["press"])
    time.sleep(0.5)  # longer than the hold time: nothing more happens after release
    assert calls == ["press"]


def test_holding_undoes_and_does_not_also_advance(rig):
    _panel, pin, calls = rig
    pin.drive_low()
    assert wait_for(lambda: calls == ["hold"])  # fires while still held
    time.sleep(0.3)
    pin.drive_high()
    time.sleep(0.2)
    assert calls == ["hold"]


def test_a_bouncing_switch_advances_once(rig):
    _panel, pin, calls = rig
    for _ in range(5):  # contacts chattering within the 50 ms debounce
        tap(pin, 0.002, 0.002)
    tap(pin, 0.1, 0.3)
    assert calls.count("press") == 1, calls


def test_two_separate_presses_advance_twice(rig):
    _panel, pin, calls = rig
    for _ in range(2):
        tap(pin, 0.1, 0.15)
    assert wait_for(lambda: calls == ["press", "press"])


def test_a_refused_press_does_not_break_the_button():
    factory = MockFactory()
    calls = []

    def refuse():
        calls.append("press")
        raise RuntimeError("not now")

    panel = Panel(GpioConfig(bounce_seconds=0.01), refuse, lambda: None, factory)
    pin = factory.pin(17)
    try:
        for _ in range(2):
            tap(pin, 0.05, 0.1)
        assert wait_for(lambda: calls == ["press", "press"])
    finally:
        panel.close()


@pytest.mark.parametrize("state, led", sorted(STATE_LED.items()))
def test_each_status_lights_its_led(rig, state, led):
    panel, _, _ = rig
    panel.show(state)
    if led == "attention":  # blinks: seen both on and off within a second and a half
        seen = set()
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            seen.add(panel.leds["attention"].is_lit)
            time.sleep(0.05)
        assert seen == {True, False}
    else:
        assert panel.lit()[led] is True
    assert [n for n, on in panel.lit().items() if on and n != led] == []


def test_status_changes_turn_the_old_led_off(rig):
    panel, _, _ = rig
    panel.show("camera lost")
    assert panel.lit() == {"ready": False, "reading": False, "attention": False, "error": True}
    panel.show("waiting for a roll")
    assert panel.lit() == {"ready": True, "reading": False, "attention": False, "error": False}


def test_pins_come_from_the_config():
    factory = MockFactory()
    cfg = GpioConfig(
        button=22, led_ready=23, led_reading=24, led_attention=25, led_error=12, buzzer=26
    )
    panel = Panel(cfg, lambda: None, lambda: None, factory)
    try:
        panel.show("waiting for a roll")
        assert factory.pin(23).state == 1 and factory.pin(5).state == 0
        panel.chirp()
        assert wait_for(lambda: factory.pin(26).state == 1)
    finally:
        panel.close()


def test_off_the_pi_the_pins_fall_back_to_mock_and_say_why(monkeypatch, caplog):
    from gpiozero.pins.mock import MockFactory

    from companion.device.panel import pin_factory

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert isinstance(pin_factory(mock=True), MockFactory)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(pin_factory(mock=False), MockFactory)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "gpio-of-my-dreams")
    assert isinstance(pin_factory(mock=False), MockFactory)
    assert "unknown GPIOZERO_PIN_FACTORY 'gpio-of-my-dreams'" in caplog.text
