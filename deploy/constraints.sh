#!/usr/bin/env bash
# Prints the pip constraints that keep the device's venv on the system's own numpy, given
# its version (the numpy that python3-picamera2 pulled in from apt):
#
#   deploy/constraints.sh 1.24.2 > constraints.txt
#
# picamera2 comes from apt, and so does simplejpeg, which it imports on `import picamera2`:
# a C extension built against the system's numpy. A venv with a numpy of the other major
# version (pip would fetch numpy 2 for a current OpenCV over Bookworm's 1.24) cannot import
# picamera2 ("numpy.dtype size changed": picamera2 issues 1088 and 1211). OpenCV 4.12 and
# later need numpy 2, so over a numpy 1 the last OpenCV before them is used.
# deploy/install.sh uses it on the Pi, and tests/arm64/root.sh for the emulated Pi.
set -euo pipefail
numpy=${1:?usage: constraints.sh NUMPY_VERSION}
echo "numpy==$numpy"
case "$numpy" in
    1.*) echo "opencv-python-headless<4.12" ;;
esac
