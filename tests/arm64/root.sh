#!/usr/bin/env bash
# Builds DIR: what a Raspberry Pi's 64-bit Raspberry Pi OS Bookworm runs this project with,
# for qemu-aarch64 to run here (tests/integration/test_arm64.py).
#   DIR/root   Debian Bookworm's arm64 Python 3.11 and the libraries it needs, unpacked
#              from Debian's own packages (Raspberry Pi OS Bookworm is built on them)
#   DIR/site   this project's runtime dependencies as pip on a Pi gets them (PyPI's
#              aarch64 wheels), at the versions .venv has, so readings can be compared
#              number for number (the test installs the project itself from the work tree)
#   DIR/ort-1.21.0  the onnxruntime that dies on a Pi 4 with "Illegal instruction", to show
#              that the emulated Pi 4 CPU does catch such a build
# Usage: tests/arm64/root.sh DIR VENV_PYTHON   (as root, or with sudo for apt)
set -euo pipefail
dir=$1
python=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

# Bookworm's arm64 packages: the architecture is added for downloads only; nothing arm64
# is installed on this machine.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
fi
$sudo apt-get update -qq
command -v qemu-aarch64 >/dev/null ||
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends qemu-user

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/debs" "$dir.tmp/root"
# Debian's arm64 Python 3.11 and everything it runs on, as apt resolves it (so a library a
# Debian update adds is fetched too): what python3.11-minimal and libpython3.11-stdlib
# depend on, all the way down, and libstdc++6, which the numpy, OpenCV and onnxruntime
# wheels link to. A few of them (dpkg, tar) are never run here; unpacking them is harmless.
mapfile -t packages < <(apt-cache depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances \
    python3.11-minimal:arm64 libpython3.11-stdlib:arm64 libstdc++6:arm64 |
    grep -E '^[a-z0-9][^ ]*:arm64$' | sort -u)
if [ "${#packages[@]}" -lt 3 ]; then
    echo "root.sh: apt found no arm64 packages for python3.11; is Debian Bookworm's" \
        "arm64 in apt's sources? (dpkg --print-foreign-architectures)" >&2
    exit 1
fi
# (as root, apt would download as its _apt user, which cannot write here)
(cd "$dir.tmp/debs" && apt-get download -qq -o APT::Sandbox::User=root "${packages[@]}")
for deb in "$dir.tmp"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dir.tmp/root"
done
rm -rf "$dir.tmp/debs"

aarch64=(--only-binary=:all: --python-version 3.11 --implementation cp
    --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64
    --platform manylinux2014_aarch64)
"$python" -m pip freeze --exclude-editable >"$dir.tmp/constraints.txt"
"$python" -c 'import tomllib, sys; print("\n".join(tomllib.load(open(sys.argv[1], "rb"))
    ["project"]["dependencies"]))' "$here/pyproject.toml" >"$dir.tmp/requirements.txt"
"$python" -m pip install --quiet --target "$dir.tmp/site" "${aarch64[@]}" \
    -c "$dir.tmp/constraints.txt" -r "$dir.tmp/requirements.txt"
"$python" -m pip install --quiet --no-deps --target "$dir.tmp/ort-1.21.0" "${aarch64[@]}" \
    onnxruntime==1.21.0
rm -rf "$dir"
mv "$dir.tmp" "$dir"
