"""Cameras: one small interface and three sources.

- ``ReplayCamera``: a folder of images (sorted by name) or a video file, replayed
  at a chosen frame rate (tests, the demo).
- ``CaptureCamera``: any OpenCV VideoCapture device or file (a USB webcam); a video file
  read as the device reads a camera plays at its own frame rate, over and over.
- ``PiCamera`` (``pi_camera.py``): the Raspberry Pi camera through picamera2, imported
  only when used (it comes from Raspberry Pi OS's apt and is never required elsewhere). It
  reads a low-resolution YUV420 analysis stream, and beside it the same view at twice the
  size, from which the dice's faces are read (``detail``).

``open_camera(spec)`` picks one from a string: ``replay:DIR[@FPS]``, ``video:FILE``,
``usb:N``, a webcam's device path (``/dev/video0``, or a link to it that stays the same
from plug to plug: ``/dev/v4l/by-id/...``), ``pi``; ``camera_opener(spec)`` checks the spec
once and gives what opens that camera again and again. ``supervisor.CameraSupervisor``
keeps any of them open.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from companion.errors import CompanionError, VisionError
from companion.vision import CAMERA_SPECS
from companion.vision.files import FRAMES, read_picture, unreadable

log = logging.getLogger(__name__)
MAX_USB = 255  # /dev/video0 to /dev/video255, as many as Linux numbers
_PASSED_OVER: set[Path] = set()  # replayed frames found not to be pictures, already said


class CameraError(CompanionError, OSError):
    """The camera cannot give frames; the message says why and what to do."""

    code = "camera/failed"


BUSY_SIGNS = ("Device or resource busy", "Pipeline handler in use by another process")


def explain(exc: BaseException, what: str) -> CameraError:
    """A CameraError with a code and advice for a low-level camera failure."""
    text = str(exc)
    if any(sign in text for sign in BUSY_SIGNS):
        return CameraError(
            f"{what} is busy: another program is using it ({text}). Stop it "
            "(for example an old companion or libcamera-hello) and the "
            "device will pick the camera up again.",
            code="camera/busy",
        )
    return CameraError(
        f"{what} is not available ({text}). Check that it is plugged in "
        "and enabled; the device keeps retrying.",
        code="camera/missing",
    )


class Camera(Protocol):
    name: str

    def read(self) -> np.ndarray:
        """The next frame as a BGR array; raises CameraError when none can be had."""

    def detail(self) -> np.ndarray | None:
        """The frame last read at a higher resolution (BGR, the same view), for reading the
        dice's faces; None from a camera that gives one size only."""

    def close(self) -> None: ...


class Pace:
    """Waits until the next frame is due at ``fps`` frames a second (no wait when fps is 0)."""

    def __init__(self, fps: float):
        self.fps = fps
        self._next = 0.0

    def wait(self) -> None:
        if self.fps > 0:
            now = time.monotonic()
            if now < self._next:
                time.sleep(self._next - now)
            self._next = max(now, self._next) + 1.0 / self.fps


class ReplayCamera:
    """Frames from a folder of images or a video file, paced at ``fps`` (0: as fast as read).

    A file in the folder that is not a picture is passed over; a file gone mid-replay is a
    camera unplugged, and a folder with no picture left in it is a camera missing."""

    def __init__(self, source: str | Path, fps: float = 10.0, loop: bool = True):
        self.path = Path(source)
        self.name = f"replay:{self.path}"
        self.fps, self.loop = fps, loop
        self._pace = Pace(fps)
        self._index = 0
        self._bad: dict[Path, str] = {}  # frames in the folder that are not pictures, and why
        self._video: cv2.VideoCapture | None = None
        if self.path.is_dir():
            self.files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in FRAMES)
            if not self.files:
                kinds = ", ".join(sorted(FRAMES))
                raise CameraError(f"{self.path} holds no images ({kinds})", code="camera/missing")
        elif self.path.is_file():
            self.files = []
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise CameraError(f"cannot open the video {self.path}", code="camera/missing")
        else:
            raise CameraError(f"no folder or video at {self.path}", code="camera/missing")

    def pace(self) -> None:
        """Wait until the next frame is due at ``fps`` (no wait when fps is 0)."""
        self._pace.wait()

    def read(self) -> np.ndarray:
        self.pace()
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok:
                raise CameraError(f"the video {self.path} has ended", code="camera/ended")
            return frame
        for _ in range(len(self.files)):
            if self._index >= len(self.files):
                if not self.loop:
                    raise CameraError(f"the replay of {self.path} has ended", code="camera/ended")
                self._index = 0
            path = self.files[self._index]
            self._index += 1
            if path in self._bad:
                continue
            try:
                frame = read_picture(path)
            except VisionError as exc:  # over the pixel limit: passed over as unreadable
                frame, self._bad[path] = None, str(exc)
                continue
            if frame is not None:
                return frame
            if not path.is_file():  # gone mid-replay (the folder moved): a camera unplugged
                raise CameraError(f"frame {path} could not be read", code="camera/missing")
            # there, but not a picture (a broken copy, a HEIC): passed over from now on
            self._bad[path] = unreadable(path)
            if path not in _PASSED_OVER:  # said once, not again each time the replay reopens
                _PASSED_OVER.add(path)
                log.warning("replay: passing over %s: it is %s", path, self._bad[path])
        path, why = next(iter(self._bad.items()))
        raise CameraError(
            f"no frame in {self.path} could be read: {path.name} is {why}", code="camera/missing"
        )

    def detail(self) -> None:
        return None  # the frames as they were saved

    def close(self) -> None:
        if self._video is not None:
            self._video.release()


def quiet_opencv() -> None:
    """Keep OpenCV's own warnings ("can't open camera by index") off the terminal: the
    camera's CameraError already says what is wrong and what to do, and the supervisor
    retries every few seconds, which would print them again each time. OpenCV's errors
    still show, and so does anything a user asks for with OPENCV_LOG_LEVEL."""
    if "OPENCV_LOG_LEVEL" not in os.environ:
        logging = getattr(cv2.utils, "logging", None)
        if logging is not None:  # OpenCV 5
            logging.setLogLevel(logging.LOG_LEVEL_ERROR)
        else:  # OpenCV 4, as a Pi over Bookworm's numpy has (deploy/constraints.sh)
            cv2.setLogLevel(2)  # its LOG_LEVEL_ERROR


class CaptureCamera:
    """An OpenCV VideoCapture: a device number (USB webcam) or a file/stream path.

    ``live``: a video file stands in for a camera (``serve``): it plays at its own frame
    rate, not as fast as it decodes, and starts again at its end.
    Otherwise (``watch``) a file is read once, as fast as it decodes. A device or a stream
    gives frames at its own pace either way."""

    def __init__(self, source: int | str, live: bool = False, name: str | None = None):
        self.name = name or (f"usb:{source}" if isinstance(source, int) else f"video:{source}")
        quiet_opencv()
        self._cap = cv2.VideoCapture(source)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(_not_opened(name or source), code="camera/missing")
        # a video file ends; a device or a stream that stops giving frames was cut off
        self.source = source
        self._file = isinstance(source, str) and Path(source).is_file()
        self._loop = live and self._file
        if not self._file:
            _latest_frames(self._cap)
        self._pace = Pace(_frame_rate(self._cap) if self._loop else 0)

    def read(self) -> np.ndarray:
        self._pace.wait()
        ok, frame = self._cap.read()
        if (not ok or frame is None) and self._loop:  # a recorded game plays again
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        if not ok or frame is None:
            if self._file:
                raise CameraError(f"the video {self.source} has ended", code="camera/ended")
            raise CameraError(
                f"{self.name} stopped giving frames (unplugged?)", code="camera/missing"
            )
        return frame

    def detail(self) -> None:
        return None  # one size of frame

    def close(self) -> None:
        self._cap.release()


def _latest_frames(cap: cv2.VideoCapture) -> None:
    """Ask a webcam for one frame buffer instead of V4L2's four: the reader takes longer
    over a frame than the webcam takes to give one (70 ms here, more on a Pi), so all four
    stay full and each read took the oldest, a frame four reads old (about 1.2 s behind the
    table at 300 ms a read). With one, a frame is at most one read old. OpenCV's V4L2
    backend takes 1 to 10 (modules/videoio/src/cap_v4l.cpp); a backend that cannot (a
    network stream) keeps its own, which only costs the delay."""
    if not cap.set(cv2.CAP_PROP_BUFFERSIZE, 1):
        log.debug("the camera kept its own frame buffers (CAP_PROP_BUFFERSIZE refused)")


VIDEO_FPS = 30.0  # a video file that gives no frame rate (or an unlikely one) plays at this


def _frame_rate(cap: cv2.VideoCapture) -> float:
    """A video file's own frame rate, as OpenCV reads it from the file."""
    fps = cap.get(cv2.CAP_PROP_FPS)
    return fps if 1 <= fps <= 240 else VIDEO_FPS  # 0 or NaN when the file does not say


def _not_opened(source: int | str) -> str:
    """Why VideoCapture could not open ``source``: a device, a stream or a video file."""
    if isinstance(source, int) or source.startswith("/dev/"):
        where = f"usb:{source} (/dev/video{source})" if isinstance(source, int) else source
        return f"no camera at {where}: is it plugged in, and not used by another program?"
    if "://" in source:
        return f"cannot open the stream {source}: is it reachable, and is its address right?"
    if not Path(source).exists():
        return f"no video file at {source}: check the path (video:FILE plays a video file)"
    if Path(source).is_dir():
        return f"{source} is a folder, not a video: to replay its frames use replay:{source}"
    return f"cannot open the video {source}: OpenCV cannot play this file (try an .mp4 or .avi)"


_NODE = re.compile(r"video(\d+)")  # a V4L2 capture node's name: /dev/video2
BY_ID = Path("/dev/v4l/by-id")  # udev's links to the webcams plugged in, by make and serial


def webcams(by_id: Path = BY_ID) -> list[str]:
    """The webcams plugged in, each by its udev link to its picture (the link ending in
    video-index0; a webcam's other nodes carry metadata), sorted; none without the folder."""
    try:
        return sorted(str(p) for p in by_id.iterdir() if p.name.endswith("-video-index0"))
    except OSError:
        return []


def device_number(path: str) -> int | None:
    """The N of the /dev/videoN that ``path`` is, or links to now (a udev link such as
    /dev/v4l/by-id/usb-...-video-index0 follows its webcam to whatever node it gets at each
    plug); None when ``path`` names no video node."""
    node = _NODE.fullmatch(Path(os.path.realpath(path)).name)
    return None if node is None else int(node[1])


def _not_a_video_device(path: str) -> CameraError:
    return CameraError(
        f"{path} is not a video device: give a webcam's /dev/videoN, or a link to one that "
        "stays the same from plug to plug (`ls /dev/v4l/by-id` lists the webcams plugged in)",
        code="camera/spec",
    )


def open_device(path: str) -> CaptureCamera:
    """The webcam at the device path ``path``, looked up afresh at each open: after an unplug
    a by-id link names the webcam's new node, whatever other cameras took the old one."""
    if not os.path.exists(path):  # a by-id link is gone while its webcam is unplugged
        raise CameraError(
            f"no camera at {path}: is it plugged in? (`ls /dev/v4l/by-id` lists the webcams "
            "plugged in; the device keeps retrying)",
            code="camera/missing",
        )
    number = device_number(path)
    if number is None:
        raise _not_a_video_device(path)
    return CaptureCamera(number, name=path)


def open_camera(spec: str) -> Camera:
    """A camera from its spec: replay:DIR[@FPS], video:FILE, usb:N, a device path or pi."""
    return camera_opener(spec)()


def camera_opener(spec: str, live: bool = True) -> Callable[[], Camera]:
    """What opens the camera of ``spec``, each time it is called (a ``CameraSupervisor``
    retries it). A spec that names no camera raises here, once: no retry could mend it.
    ``live``: a replay or a video file stands in for a camera (``serve``, the demo): it
    starts again at its end, and a video plays at its own frame rate. Otherwise (``companion
    watch``) each is read once to its end, a video as fast as it decodes."""
    kind, _, rest = spec.partition(":")
    if kind == "replay" and rest:
        path, rate = _replay_spec(spec, rest)
        return lambda: ReplayCamera(path, rate, loop=live)
    if kind == "video" and rest:
        return lambda: CaptureCamera(rest, live=live)
    if kind == "usb":
        index = _usb_index(spec, rest)
        return lambda: CaptureCamera(index)
    if kind == "pi":
        from companion.vision.pi_camera import PiCamera  # it needs this module's errors

        return PiCamera
    if spec.startswith("/dev/"):
        # A path there now must be a video node; one not there yet is a webcam unplugged
        # (its by-id link comes with it), retried as usb:N is.
        if os.path.exists(spec) and device_number(spec) is None:
            raise _not_a_video_device(spec)
        return lambda: open_device(spec)
    hint = ""
    if os.path.isdir(spec):
        hint = f" ({spec} is a folder: to replay its frames, replay:{spec})"
    elif os.path.isfile(spec):
        hint = f" ({spec} is a file: to play a video, video:{spec})"
    raise CameraError(f"unknown camera {spec!r}{hint}; use {CAMERA_SPECS}", code="camera/spec")


def _replay_spec(spec: str, rest: str) -> tuple[str, float]:
    """The folder or video and the frame rate of ``replay:PATH[@FPS]`` (``rest``, after
    "replay:"), or a clear error."""
    path, _, fps = rest.partition("@")
    if not path:  # "replay:@5" would replay whatever folder it was started in
        raise CameraError(
            f"{spec!r} names no folder or video to replay: for example "
            f"replay:/home/pi/frames{'@' + fps if fps else ''}",
            code="camera/spec",
        )
    try:
        rate = float(fps) if fps else 10.0
    except ValueError:
        rate = float("nan")
    if not rate >= 0:  # and not NaN
        raise CameraError(
            f"replay frame rate must be a number, 0 (as fast as read) or more, not "
            f"{fps!r}: for example replay:{path}@10",
            code="camera/spec",
        )
    return path, rate


def _usb_index(spec: str, rest: str) -> int:
    """The OpenCV index of ``usb:N`` (``rest``, after "usb:"; "usb" alone is 0), or a clear
    error."""
    try:
        index = int(rest or 0)
    except ValueError:
        index = -1
    if not 0 <= index <= MAX_USB:  # OpenCV's "any camera" index -1 crashed the process
        raise CameraError(
            f"usb camera must be a number from 0 to {MAX_USB} like usb:0 (/dev/video0), "
            f"not {spec!r}",
            code="camera/spec",
        )
    return index
