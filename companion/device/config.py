"""Configuration: one TOML file, every key optional, defaults documented here.

Where the file is looked for, first match wins:
  1. the path given with ``companion --config PATH``;
  2. the ``COMPANION_CONFIG`` environment variable;
  3. ``/etc/companion/config.toml`` (written by deploy/install.sh);
  4. none: the defaults below.

deploy/config.example.toml lists every key with its default.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from companion.textfile import read_text

KINDS = {int: "a whole number", float: "a number", bool: "true or false", str: "a quoted string"}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_BOUNCE = 0.5  # seconds; a longer debounce would swallow a quick second press
MIN_HOLD, MAX_HOLD = 0.5, 10.0  # seconds the button is held to undo
MAX_THREADS = 16  # [vision] threads: more than any Pi has cores

SYSTEM_CONFIG = Path("/etc/companion/config.toml")


def _default_data_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(base, "companion")


@dataclass(frozen=True)
class StorageConfig:
    data_dir: str = field(default_factory=_default_data_dir)  # games.db lives here

    @property
    def database(self) -> Path:
        return Path(self.data_dir).expanduser() / "games.db"


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"  # listen on the LAN so phones can reach the device
    port: int = 8000
    mdns: bool = True  # advertise as an _http._tcp service over mDNS/zeroconf


@dataclass(frozen=True)
class LogConfig:
    level: str = "INFO"


@dataclass(frozen=True)
class CameraConfig:
    # "pi", "usb:N", a webcam's device path ("/dev/video0", "/dev/v4l/by-id/..."),
    # "video:FILE", "replay:DIR[@FPS]", or "none" (dice entered by hand)
    source: str = "none"
    # Where it looks from: "down" (straight down over the table, as hardware/README.md mounts
    # it) or "slanted" (from the side, its picture's top the far side of the table). The reader
    # turns each die's crop so its far side is up (companion.vision.reader.VIEWS).
    view: str = "down"


@dataclass(frozen=True)
class VisionConfig:
    die: str = ""  # taught with `companion teach NAME` (symbols) or `... --standard` (pip dice)
    min_confidence: float = 0.0  # 0 uses the model card's threshold
    threads: int = 1  # onnxruntime threads a model runs on (install.sh: `bench threads` chooses)


@dataclass(frozen=True)
class GpioConfig:
    # BCM pin numbers; 0 means not fitted. See hardware/README.md.
    button: int = 17
    led_ready: int = 5
    led_reading: int = 6
    led_attention: int = 13
    led_error: int = 19
    buzzer: int = 0
    hold_seconds: float = 2.0  # hold the button this long to undo
    bounce_seconds: float = 0.05
    mock: bool = False  # use gpiozero's MockFactory (no hardware; the demo and tests)


@dataclass(frozen=True)
class Config:
    storage: StorageConfig = field(default_factory=StorageConfig)
    web: WebConfig = field(default_factory=WebConfig)
    log: LogConfig = field(default_factory=LogConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    source: str = "defaults"  # where this configuration came from


_SECTIONS = {
    "storage": StorageConfig,
    "web": WebConfig,
    "log": LogConfig,
    "camera": CameraConfig,
    "vision": VisionConfig,
    "gpio": GpioConfig,
}


def _section(name: str, cls: type, values: Any, where: str):
    if not isinstance(values, dict):
        raise ConfigError(f"{where}: [{name}] must be a table of settings")
    defaults = cls()
    known = {f.name: f for f in fields(cls)}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(
                f"{where}: [{name}] has no setting {key!r}; known: {', '.join(sorted(known))}"
            )
        expected = type(getattr(defaults, key))
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            values = {**values, key: float(value)}
            continue
        if not isinstance(value, expected) or isinstance(value, bool) != (expected is bool):
            raise ConfigError(f"{where}: [{name}] {key} must be {KINDS[expected]}, not {value!r}")
    return replace(defaults, **values)


def parse(data: dict, where: str = "config") -> Config:
    """A Config from parsed TOML, refusing unknown sections and wrong types."""
    unknown = set(data) - set(_SECTIONS)
    if unknown:
        raise ConfigError(
            f"{where}: unknown section(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(_SECTIONS))}"
        )
    parts = {
        name: _section(name, cls, data.get(name, {}), where) for name, cls in _SECTIONS.items()
    }
    config = Config(**parts, source=where)
    if not 0 < config.web.port < 65536:
        raise ConfigError(f"{where}: [web] port must be 1 to 65535, not {config.web.port}")
    _check_gpio(config.gpio, where)
    if not 0 <= config.vision.min_confidence < 1:
        raise ConfigError(
            f"{where}: [vision] min_confidence must be from 0 to below 1, "
            f"not {config.vision.min_confidence}"
        )
    if not 1 <= config.vision.threads <= MAX_THREADS:
        raise ConfigError(
            f"{where}: [vision] threads must be from 1 to {MAX_THREADS}, not "
            f"{config.vision.threads} (a Pi has 4 cores; 1 leaves the rest to the pages)"
        )
    if not config.storage.data_dir.strip():  # "" would keep the games wherever it started
        raise ConfigError(
            f"{where}: [storage] data_dir is empty; name a folder, or drop the line to keep the "
            f"games in {_default_data_dir()}"
        )
    if config.log.level.upper() not in LOG_LEVELS:
        raise ConfigError(
            f"{where}: [log] level must be one of {', '.join(LOG_LEVELS)}, not {config.log.level!r}"
        )
    return config


def _check_gpio(gpio, where: str) -> None:
    """Refuse a [gpio] section whose pins or times the device could not use."""
    pins = [
        v for k, v in vars(gpio).items() if isinstance(v, int) and not isinstance(v, bool) and v
    ]
    for k, v in vars(gpio).items():
        if isinstance(v, int) and not isinstance(v, bool) and not (v == 0 or 2 <= v <= 27):
            raise ConfigError(
                f"{where}: [gpio] {k} must be a BCM pin 2 to 27 (or 0 for none), not {v}"
            )
    if len(pins) != len(set(pins)):
        raise ConfigError(f"{where}: [gpio] two parts share a pin: {pins}; give each its own")
    # gpiozero refuses a negative time only once the pins open, and lets through a hold of
    # no time at all, which would make every press of the button an undo
    bounce, hold = gpio.bounce_seconds, gpio.hold_seconds
    if not 0 <= bounce <= MAX_BOUNCE:
        raise ConfigError(
            f"{where}: [gpio] bounce_seconds must be from 0 to {MAX_BOUNCE} (a switch settles "
            f"in a few hundredths), not {bounce}"
        )
    if not MIN_HOLD <= hold <= MAX_HOLD:
        raise ConfigError(
            f"{where}: [gpio] hold_seconds must be from {MIN_HOLD} to {MAX_HOLD} (shorter, a "
            f"press would be taken for a hold and undo), not {hold}"
        )


def load(path: str | os.PathLike | None = None) -> Config:
    """The configuration in force (see the module docstring for the search order)."""
    named_by = "--config"
    if path is None:
        path, named_by = os.environ.get("COMPANION_CONFIG"), "COMPANION_CONFIG"
        if path is None and SYSTEM_CONFIG.exists():
            path = SYSTEM_CONFIG
    if path is None:
        return Config()
    path = Path(path)
    text = read_text(
        path,
        "config file",
        lambda message, gone: ConfigError(message),
        missing=f"config file {path} does not exist; create it or drop {named_by}",
        folder=f"config file {path} is a folder; name the file in it, e.g. {path / 'config.toml'}",
    )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    return parse(data, str(path))
