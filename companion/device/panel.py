"""The physical panel: one button and the status LEDs, through gpiozero.

Button (wired from its pin to ground; the pin's internal pull-up is used):
- a press advances the round of the running game (the table page's "Next round");
- holding it for ``hold_seconds`` (2 s) undoes the last action instead;
- ``bounce_seconds`` of debounce, so a noisy switch never advances twice.

A press is acted on when the button is released, so a hold never also advances.

LEDs: ready (green), reading (blue), attention (yellow, blinking) and error (red),
driven from the device's state. An optional buzzer chirps when a roll is accepted.

On the Pi gpiozero picks its default pin factory (lgpio on current Raspberry Pi
OS; RPi.GPIO misses edges on Pi 5 kernels). Off the Pi, or with ``[gpio] mock =
true``, it runs on gpiozero's own MockFactory, so the demo and the tests drive the
very same code.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable

from companion.device.config import GpioConfig

log = logging.getLogger(__name__)

# Which LED shows each device state (anything else: all off but "ready" blinking slowly).
STATE_LED = {
    "waiting for a roll": "ready",
    "no camera": "ready",
    "reading": "reading",
    "needs confirmation": "attention",
    "camera lost": "error",
    "dice not read": "error",
    "storage problem": "error",
}


def pin_factory(mock: bool):
    """gpiozero's MockFactory when asked, else a real pin factory (lgpio on a Pi).

    The order is gpiozero's own: the factory named by ``GPIOZERO_PIN_FACTORY`` if set
    ("mock" included), else lgpio (Raspberry Pi OS Bookworm, every Pi model), else
    RPi.GPIO. Off a Pi none of them loads; then the mock pins are used and the log
    says so (the button is still on the table page and the terminal's Enter key).
    """
    import os

    from gpiozero.pins.mock import MockFactory

    chosen = os.environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    if mock or chosen == "mock":
        return MockFactory()
    problems = []
    for name in (chosen,) if chosen else ("lgpio", "rpigpio"):
        try:
            return _real_factory(name)
        except Exception as exc:  # an ImportError off the Pi, a pin library's own error on it
            problems.append(f"{name}: {exc}")
    log.warning(
        "no GPIO pins here (%s): using gpiozero's mock pins; press the button on "
        "the table page or Enter in this terminal",
        "; ".join(problems),
    )
    return MockFactory()


def _real_factory(name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "pigpio":
            from gpiozero.pins.pigpio import PiGPIOFactory

            return PiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    raise ValueError(
        f"unknown GPIOZERO_PIN_FACTORY {name!r}: use lgpio, rpigpio, pigpio, native or mock"
    )


class Panel:
    """The button and LEDs. ``on_press``/``on_hold`` are called from gpiozero's thread."""

    def __init__(
        self,
        cfg: GpioConfig,
        on_press: Callable[[], None],
        on_hold: Callable[[], None],
        factory=None,
    ):
        from gpiozero import LED, Button, Buzzer

        self.cfg, self.on_press, self.on_hold = cfg, on_press, on_hold
        self.factory = factory
        self.button = Button(
            cfg.button,
            pull_up=True,
            bounce_time=cfg.bounce_seconds,
            hold_time=cfg.hold_seconds,
            hold_repeat=False,
            pin_factory=factory,
        )
        self.leds = {
            name: LED(pin, pin_factory=factory)
            for name, pin in (
                ("ready", cfg.led_ready),
                ("reading", cfg.led_reading),
                ("attention", cfg.led_attention),
                ("error", cfg.led_error),
            )
            if pin
        }
        self.buzzer = Buzzer(cfg.buzzer, pin_factory=factory) if cfg.buzzer else None
        self._held = False
        self._pressed_at = 0.0
        self._lock = threading.Lock()
        self.button.when_pressed = self._when_pressed
        self.button.when_held = self._when_held
        self.button.when_released = self._when_released
        self.state = ""

    def _when_pressed(self) -> None:
        with self._lock:
            self._pressed_at = time.monotonic()

    def _when_held(self) -> None:
        with self._lock:
            self._held = True
        log.info("button held: undo")
        self._safely(self.on_hold)

    def _when_released(self) -> None:
        with self._lock:
            held, self._held = self._held, False
            # Debounce in software as well: not every pin factory filters edges (the mock
            # pins do not), and a contact that was closed for less than the bounce time is
            # chatter, not a press.
            chatter = time.monotonic() - self._pressed_at < self.cfg.bounce_seconds
        if not held and not chatter:
            log.info("button pressed: advance")
            self._safely(self.on_press)

    @staticmethod
    def _safely(fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as exc:  # a refused action must not kill gpiozero's thread
            log.warning("button: %s", getattr(exc, "message", exc))

    def show(self, state: str) -> None:
        """Light the LED for the device ``state``."""
        self.state = state
        lit = STATE_LED.get(state)
        for name, led in self.leds.items():
            if name != lit:
                led.off()
        if lit in self.leds:
            if lit == "attention":
                self.leds[lit].blink(on_time=0.5, off_time=0.5)
            else:
                self.leds[lit].on()

    def chirp(self) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=0.08, off_time=0.08, n=1)

    def lit(self) -> dict[str, bool]:
        return {name: bool(led.is_lit) for name, led in self.leds.items()}

    def close(self) -> None:
        for part in (self.button, *self.leds.values(), self.buzzer):
            if part is not None:
                part.close()
