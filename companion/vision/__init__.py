"""Reading dice from the camera: camera sources, finding dice, classifying faces, settling."""

# The cameras a spec can name (``camera.camera_opener``), for the options' help and the
# errors; here, not in ``camera``, so that building the command line imports no OpenCV.
CAMERA_SPECS = (
    "pi, usb:N, a webcam's device path (/dev/video0, /dev/v4l/by-id/...), video:FILE "
    "or replay:DIR[@FPS]"
)
