#!/usr/bin/env bash
# Install, upgrade or remove Table Companion on Raspberry Pi OS (Bookworm or later;
# Pi 4, Pi 5, Pi Zero 2 W).
#
#   sudo deploy/install.sh               install, or upgrade in place (keeps data and config)
#   sudo deploy/install.sh --uninstall   remove the service and the program; keep games and config
#   sudo deploy/install.sh --uninstall --purge   also delete the games, the config and the user
#
# Run it from a clone of the repository (or pass --source WHEEL_OR_DIR). It is idempotent:
# running it again upgrades the package and restarts the service.
#
# For testing off a Pi, COMPANION_ROOT puts every path under another directory and
# SKIP_APT=1 / SKIP_SYSTEMD=1 / SKIP_USER=1 skip the steps that need a real system.
set -euo pipefail

ROOT="${COMPANION_ROOT:-}"
PREFIX="$ROOT/opt/companion"
DATA="$ROOT/var/lib/companion"
CONFIG_DIR="$ROOT/etc/companion"
UNIT="$ROOT/etc/systemd/system/companion.service"
COMMAND="$ROOT/usr/local/bin/companion"  # on the PATH, for `companion doctor` and the rest
SERVICE_USER=companion
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(dirname "$HERE")"
UNINSTALL=0
PURGE=0

say() { printf '==> %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) UNINSTALL=1 ;;
        --purge) PURGE=1 ;;
        --source) shift; SOURCE="${1:?--source needs a wheel or a directory}" ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run me as root: sudo $0 $*"
fi

systemd_on() { [ "${SKIP_SYSTEMD:-0}" != 1 ] && command -v systemctl >/dev/null; }

if [ "$UNINSTALL" = 1 ]; then
    if systemd_on; then
        systemctl disable --now companion.service 2>/dev/null || true
    fi
    rm -f "$UNIT"
    if systemd_on; then systemctl daemon-reload; fi
    rm -rf "$PREFIX"
    if [ -L "$COMMAND" ] && [ "$(readlink "$COMMAND")" = "$PREFIX/venv/bin/companion" ]; then
        rm -f "$COMMAND"
    fi
    say "removed the service and $PREFIX"
    if [ "$PURGE" = 1 ]; then
        rm -rf "$DATA" "$CONFIG_DIR"
        if [ "${SKIP_USER:-0}" != 1 ] && id "$SERVICE_USER" >/dev/null 2>&1; then
            userdel "$SERVICE_USER"
        fi
        say "purged the games in $DATA, the config in $CONFIG_DIR and the $SERVICE_USER user"
    else
        say "kept the games in $DATA and the config in $CONFIG_DIR (--purge deletes them)"
    fi
    exit 0
fi

if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    case "${VERSION_CODENAME:-}" in
        bookworm|trixie|forky) ;;
        *) say "warning: tested on Raspberry Pi OS Bookworm and later, this is ${PRETTY_NAME:-unknown}" ;;
    esac
fi

# The dice reader's onnxruntime is published for 64-bit systems only (none for 32-bit ARM on
# PyPI or piwheels), so on a 32-bit Raspberry Pi OS pip would stop much later with "No
# matching distribution found for onnxruntime". LONG_BIT is the user space's, which is what
# matters: 32-bit Raspberry Pi OS runs a 64-bit kernel on a Pi 4 or 5.
if [ "$(getconf LONG_BIT 2>/dev/null || echo 64)" != 64 ]; then
    die "this is a 32-bit system ($(getconf LONG_BIT)-bit user space on $(uname -m)), and \
the dice reader (onnxruntime) runs on 64-bit systems only. Flash Raspberry Pi OS Lite (64-bit) \
with Raspberry Pi Imager (README.md, \"Build your own\"), then run me again. Nothing was changed."
fi

if [ "${SKIP_APT:-0}" != 1 ]; then
    say "installing system packages (picamera2, lgpio, venv)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        python3-venv python3-pip python3-picamera2 python3-lgpio python3-numpy
fi

if [ "${SKIP_USER:-0}" != 1 ]; then
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        say "creating the $SERVICE_USER user"
        useradd --system --home-dir /var/lib/companion --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    for group in gpio video; do
        if getent group "$group" >/dev/null; then usermod -aG "$group" "$SERVICE_USER"; fi
    done
fi

say "installing the program in $PREFIX"
mkdir -p "$PREFIX"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    # --system-site-packages: picamera2 and lgpio come from apt, not from pip
    python3 -m venv --system-site-packages "$PREFIX/venv"
fi
# The venv keeps the system's numpy, which apt's picamera2 was built with (constraints.sh).
constraints="$(mktemp)"
trap 'rm -f "$constraints"' EXIT
system_numpy="$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
if [ -n "$system_numpy" ]; then
    "$HERE/constraints.sh" "$system_numpy" >"$constraints"
    say "keeping the system's numpy $system_numpy for picamera2"
fi
"$PREFIX/venv/bin/pip" install --quiet --upgrade -c "$constraints" "$SOURCE"
mkdir -p "$(dirname "$COMMAND")"
ln -sfn "$PREFIX/venv/bin/companion" "$COMMAND"
if [ -f "$SOURCE/README.md" ]; then cp "$SOURCE/README.md" "$PREFIX/README.md"; fi

mkdir -p "$DATA"
if [ "${SKIP_USER:-0}" != 1 ]; then chown "$SERVICE_USER:$SERVICE_USER" "$DATA"; fi
chmod 750 "$DATA"

mkdir -p "$CONFIG_DIR"
if [ ! -f "$CONFIG_DIR/config.toml" ]; then
    say "writing $CONFIG_DIR/config.toml (edit it, then: sudo systemctl restart companion)"
    sed -e "s|^# data_dir = .*|data_dir = \"$DATA\"|" \
        -e 's|^source = "none"|source = "pi"|' \
        "$HERE/config.example.toml" > "$CONFIG_DIR/config.toml"
    # How many cores the dice reader's models run on: measured here, on this board, as
    # `companion bench threads` measures it (a few seconds; the fewest threads within 10%
    # of the fastest). A config kept from before keeps its own choice.
    say "measuring how many threads read a frame fastest on this board"
    if report="$("$PREFIX/venv/bin/companion" bench threads)" &&
        measured="$(printf '%s' "$report" | "$PREFIX/venv/bin/python" -c '
import json, sys
d = json.load(sys.stdin)
print(d["chosen"], ", ".join(f"{n}: {ms} ms" for n, ms in d["read_ms_median"].items()))')"
    then
        threads="${measured%% *}"
        sed -i "s|^threads = 1\$|threads = $threads|" "$CONFIG_DIR/config.toml"
        say "a frame read on threads ${measured#* }: [vision] threads = $threads"
    else
        say "could not measure the threads (companion bench threads): [vision] threads = 1"
    fi
else
    say "keeping the existing $CONFIG_DIR/config.toml"
fi

mkdir -p "$(dirname "$UNIT")"
install -m 644 "$HERE/companion.service" "$UNIT"
if systemd_on; then
    systemctl daemon-reload
    systemctl enable companion.service
    systemctl restart companion.service
    say "the service is running: journalctl -u companion -f shows its log"
fi

say "checking the device"
COMPANION_CONFIG="$CONFIG_DIR/config.toml" "$PREFIX/venv/bin/companion" doctor || \
    say "doctor found problems: fix them, then sudo systemctl restart companion"
