#!/usr/bin/env bash
# Builds DIR: what a Raspberry Pi's 64-bit Raspberry Pi OS Bookworm runs this project with,
# for qemu-aarch64 to run here (tests/integration/test_arm64.py).
#   DIR/root   Debian Bookworm's arm64 Python 3.11 and numpy and the libraries they need,
#              unpacked from Debian's own packages (Raspberry Pi OS Bookworm is built on
#              them; its picamera2 brings that numpy)
#   DIR/site   this project's runtime dependencies as deploy/install.sh has pip get them on
#              a Pi (PyPI's aarch64 wheels, held by deploy/constraints.sh to the system's
#              numpy, and so to an older OpenCV than .venv's), the rest at .venv's versions
#              (the test installs the project itself from the work tree)
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
    python3.11-minimal:arm64 libpython3.11-stdlib:arm64 libstdc++6:arm64 python3-numpy:arm64 |
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
# What a package's install script would do, which unpacking does not: numpy finds BLAS and
# LAPACK through the alternatives' links, here to the first choice apt makes for its
# dependencies (libblas3, liblapack3)
lib="$dir.tmp/root/usr/lib/aarch64-linux-gnu"
ln -sfn blas/libblas.so.3 "$lib/libblas.so.3"
ln -sfn lapack/liblapack.so.3 "$lib/liblapack.so.3"

aarch64=(--only-binary=:all: --python-version 3.11 --implementation cp
    --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64
    --platform manylinux2014_aarch64)
# .venv's versions, but for numpy and OpenCV, which follow the Pi's rule for its numpy
numpy=$(basename "$(echo "$dir.tmp"/root/usr/lib/python3/dist-packages/numpy-*-info)")
numpy=${numpy#numpy-}
numpy=${numpy%.*-info}
"$python" -m pip freeze --exclude-editable |
    grep -viE '^(numpy|opencv-python-headless)==' >"$dir.tmp/constraints.txt"
"$here/deploy/constraints.sh" "$numpy" >>"$dir.tmp/constraints.txt"
"$python" -c 'import tomllib, sys; print("\n".join(tomllib.load(open(sys.argv[1], "rb"))
    ["project"]["dependencies"]))' "$here/pyproject.toml" >"$dir.tmp/requirements.txt"
# (--no-warn-conflicts: pip would also weigh .venv's own packages, such as onnx's ml_dtypes,
# which asks numpy 2, against the numpy installed here)
"$python" -m pip install --quiet --no-warn-conflicts --target "$dir.tmp/site" "${aarch64[@]}" \
    -c "$dir.tmp/constraints.txt" -r "$dir.tmp/requirements.txt"
# the system's numpy (Debian's, in root) is the one used, as in the Pi's venv
rm -rf "$dir.tmp"/site/numpy "$dir.tmp"/site/numpy-*.dist-info "$dir.tmp"/site/numpy.libs
"$python" -m pip install --quiet --no-deps --target "$dir.tmp/ort-1.21.0" "${aarch64[@]}" \
    onnxruntime==1.21.0
rm -rf "$dir"
mv "$dir.tmp" "$dir"
