"""The Raspberry Pi camera through picamera2, which is imported only when the camera is
opened: it comes from Raspberry Pi OS's apt (``python3-picamera2``) and is never required
elsewhere. Both of its streams are read at once: a small analysis stream the dice are found
in, and the same view at twice the size that their faces are read from."""

from __future__ import annotations

import logging

import cv2
import numpy as np

from companion.vision.camera import CameraError, explain

log = logging.getLogger(__name__)


def i420_to_bgr(yuv: np.ndarray, width: int) -> np.ndarray:
    """A planar I420 frame (height * 3/2 rows) as BGR, ``width`` pixels wide. Each row is
    the stream's stride wide: its width rounded up to what the ISP writes (on a Pi 5 to 128
    bytes; 640 needs no padding, 704 would be 768). The planes keep that stride, so the
    picture converts as a wider one whose extra columns are cut off."""
    return cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)[:, :width]


class PiCamera:
    """The Pi camera via picamera2: a full-size main stream and a 640x480 YUV420 lores stream."""

    # Seconds without a frame before the camera is taken for lost. picamera2 waits for a
    # frame for ever, and a loose ribbon cable (or a stalled sensor) stops the frames without
    # an error (picamera2 issues 794 and 962); the camera runs at 30 frames a second.
    frame_timeout = 5.0

    def __init__(self, analysis_size: tuple[int, int] = (640, 480)):
        self.name = "pi"
        try:
            from picamera2 import Picamera2  # Raspberry Pi OS: apt install python3-picamera2
        except ImportError as exc:
            raise CameraError(
                "picamera2 is not installed: on Raspberry Pi OS run "
                "`sudo apt install python3-picamera2` (the venv needs "
                "--system-site-packages)",
                code="camera/no-picamera2",
            ) from exc
        except Exception as exc:  # installed, but it fails on import: mostly a venv numpy
            # other than the system's one it was built with (picamera2 issue 1088)
            raise CameraError(
                f"picamera2 is installed but cannot be imported ({type(exc).__name__}: "
                f"{exc}). If it speaks of numpy, the program's venv has another numpy than "
                "the system's, which apt's picamera2 needs: run `sudo deploy/install.sh` "
                "again, which keeps the system's numpy",
                code="camera/broken",
            ) from exc
        self.size = analysis_size
        self._main: np.ndarray | None = None  # the main stream's I420 of the last frame
        self._detail: np.ndarray | None = None  # ... as BGR, once asked for
        try:
            from libcamera import ColorSpace  # comes with picamera2

            self._cam = Picamera2()
            # The lores stream is scaled from the main stream's crop of the sensor (on a Pi 4
            # always the same crop: rpicam-apps' --lores-par is Pi 5 only), so a main stream of
            # another shape would stretch it: picamera2's default main is 1280x720, and a
            # 640x480 lores of that is squashed to three quarters of its width, every die with
            # it. The main stream takes the lores shape, at twice its size. Both streams are
            # encoded as BT.601 at video levels (SMPTE 170M), which is what OpenCV's I420
            # conversion decodes; picamera2 would pick Rec. 709 for a main stream this wide,
            # and a 709 picture decoded as 601 shifts the colours a dot face is told by.
            config = self._cam.create_video_configuration(
                # YUV420, not picamera2's 4-byte XBGR8888: its six buffers take 11 MB of the
                # camera's memory instead of 29 (a Pi Zero 2 W has 512 MB in all)
                main={"size": (2 * analysis_size[0], 2 * analysis_size[1]), "format": "YUV420"},
                lores={"size": analysis_size, "format": "YUV420"},
                colour_space=ColorSpace.Smpte170m(),
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # libcamera raises RuntimeError/IndexError variously
            raise explain(exc, "the Pi camera") from exc
        self._focus()

    def _focus(self) -> None:
        """Keep the dice in focus on a camera that can focus (Camera Module 3): a blur of
        2 px takes the reader's recall on the dev photos from 94% to 72% (models/README.md).
        Fixed-focus modules (1 and 2) are set by hand; a failure here leaves the camera on."""
        if "AfMode" not in getattr(self._cam, "camera_controls", {}):
            return
        try:
            from libcamera import controls

            self._cam.set_controls({"AfMode": controls.AfModeEnum.Continuous})
        except Exception:  # an older libcamera: the lens stays where it is
            log.warning("could not turn on the Pi camera's autofocus", exc_info=True)

    def read(self) -> np.ndarray:
        try:
            # Both streams of one frame (a picamera2 Job): planar I420, height * 3/2 rows each
            job = self._cam.capture_arrays(["lores", "main"], wait=False)
            (yuv, self._main), _ = job.get_result(timeout=self.frame_timeout)
            self._detail = None
        except TimeoutError as exc:  # the Job's Future raises the builtin one (Python 3.11)
            raise CameraError(
                f"the Pi camera gave no frame for {self.frame_timeout:g} s: check that its "
                "ribbon cable is pushed fully into both connectors, latches closed; the "
                "device keeps retrying",
                code="camera/stalled",
            ) from exc
        except Exception as exc:
            raise explain(exc, "the Pi camera") from exc
        return i420_to_bgr(yuv, self.size[0])

    def detail(self) -> np.ndarray | None:
        """The main stream of the frame last read: the same view at twice the size, where a
        small die has four times the pixels (converted once, when first asked for: most
        frames are never read)."""
        if self._detail is None and self._main is not None:
            self._detail = i420_to_bgr(self._main, 2 * self.size[0])
        return self._detail

    def close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:  # already gone with the cable
            log.debug("closing the Pi camera failed", exc_info=True)
