"""Configuration: defaults, the TOML file, and clear errors for bad settings."""

import pytest

from companion.device import config
from companion.errors import ConfigError


def test_defaults_without_a_file(monkeypatch, tmp_path):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr(config, "SYSTEM_CONFIG", tmp_path / "absent.toml")
    c = config.load()
    assert (c.web.host, c.web.port, c.source) == ("0.0.0.0", 8000, "defaults")
    assert c.storage.database.name == "games.db"


def test_a_file_overrides_only_what_it_names(tmp_path, monkeypatch):
    path = tmp_path / "c.toml"
    path.write_text('[web]\nport = 8080\n[storage]\ndata_dir = "/srv/games"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    c = config.load()
    assert (c.web.port, c.web.host, str(c.storage.database)) == (
        8080,
        "0.0.0.0",
        "/srv/games/games.db",
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("[web]\nport = 'eighty'\n", "[web] port must be a whole number, not 'eighty'"),
        ("[web]\nprot = 80\n", "[web] has no setting 'prot'"),
        ("[camra]\n", "unknown section(s) camra"),
        ("[web]\nport = 70000\n", "port must be 1 to 65535"),
        ("[web\n", "is not valid TOML"),
        ("[gpio]\nbutton = 40", "[gpio] button must be a BCM pin 2 to 27"),
        ("[gpio]\nled_ready = 17", "two parts share a pin"),
        ('[gpio]\nhold_seconds = "2"', "[gpio] hold_seconds must be a number, not '2'"),
        (
            "[vision]\nmin_confidence = 1.5",
            "[vision] min_confidence must be from 0 to below 1, not 1.5",
        ),
        ("[vision]\nthreads = 0", "[vision] threads must be from 1 to 16, not 0 (a Pi has 4"),
        ("[vision]\nthreads = 2.5", "[vision] threads must be a whole number, not 2.5"),
        ('[log]\nlevel = "loud"', "[log] level must be one of DEBUG, INFO, WARNING, ERROR, CRIT"),
        ("[gpio]\nbounce_seconds = -0.01", "[gpio] bounce_seconds must be from 0 to 0.5"),
        ("[gpio]\nbounce_seconds = nan", "[gpio] bounce_seconds must be from 0 to 0.5"),
        ("[gpio]\nhold_seconds = 0", "[gpio] hold_seconds must be from 0.5 to 10.0 (shorter, a"),
        ("[gpio]\nhold_seconds = -1", "[gpio] hold_seconds must be from 0.5 to 10.0"),
        ("[gpio]\nhold_seconds = inf", "[gpio] hold_seconds must be from 0.5 to 10.0"),
        ('[camera]\nsorce = "pi"', "[camera] has no setting 'sorce'"),
        ('[storage]\ndata_dir = " "', "[storage] data_dir is empty; name a folder, or drop the"),
    ],
)
def test_bad_settings_are_named(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        config.load(path)
    assert message in info.value.message


def test_a_config_saved_with_a_byte_order_mark_is_read(tmp_path):
    # Windows Notepad saved UTF-8 with a BOM, which TOML's parser took for a bad statement
    (tmp_path / "c.toml").write_bytes(b"\xef\xbb\xbf[web]\nport = 8001\n")
    assert config.load(tmp_path / "c.toml").web.port == 8001


def test_a_config_that_is_a_folder_or_not_text_is_named(tmp_path):
    with pytest.raises(ConfigError) as info:
        config.load(tmp_path)
    assert info.value.message == (
        f"config file {tmp_path} is a folder; name the file in it, e.g. {tmp_path / 'config.toml'}"
    )
    (tmp_path / "c.toml").write_bytes(b"\xff\xfe[web]\n")  # saved as UTF-16 by an editor
    with pytest.raises(ConfigError, match=r"is not UTF-8 text \(byte 0\): save it as UTF-8"):
        config.load(tmp_path / "c.toml")


def test_a_missing_named_file_is_an_error_naming_where_it_was_named(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match=r"nope\.toml does not exist; .* drop --config$"):
        config.load(tmp_path / "nope.toml")
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match=r"gone\.toml does not exist; .* drop COMPANION_CONFIG$"):
        config.load()


def test_the_example_config_is_the_defaults():
    from pathlib import Path

    example = Path(__file__).parents[2] / "deploy" / "config.example.toml"
    parsed = config.parse(__import__("tomllib").loads(example.read_text()), "example")
    defaults = config.Config()
    assert parsed.camera == defaults.camera and parsed.gpio == defaults.gpio
    assert parsed.vision == defaults.vision and parsed.web == defaults.web


def test_whole_seconds_are_accepted_for_times(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[gpio]\nhold_seconds = 3\nbuzzer = 26\n")
    cfg = config.load(path)
    assert cfg.gpio.hold_seconds == 3.0 and cfg.gpio.buzzer == 26
