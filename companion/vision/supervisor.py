"""A camera that never gives up: ``CameraSupervisor`` wraps any camera ``camera.py`` opens.
When the camera is missing, busy or unplugged it reports why and keeps retrying, so the
service runs on (and dice can still be entered by hand)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np

from companion.vision.camera import Camera, CameraError

log = logging.getLogger(__name__)


class CameraSupervisor:
    """Keeps a camera open: ``read()`` gives a frame, or None while it is lost.

    ``status`` is "ok" or the error code; ``problem`` the message for the pages.
    Re-opening is tried at most every ``retry_every`` seconds. Each new problem is logged as
    a warning, unless ``log_problems`` is false: ``companion watch`` says them itself.
    """

    def __init__(
        self,
        opener: Callable[[], Camera],
        retry_every: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        log_problems: bool = True,
    ):
        self._open, self.retry_every, self._clock = opener, retry_every, clock
        self.log_problems = log_problems
        self.camera: Camera | None = None
        self.status, self.problem = "starting", ""
        self._last_try = -float("inf")

    def read(self) -> np.ndarray | None:
        if self.camera is None:
            if self._clock() - self._last_try < self.retry_every:
                return None
            self._last_try = self._clock()
            try:
                self.camera = self._open()
            except CameraError as exc:
                self._lost(exc)
                return None
        try:
            frame = self.camera.read()
        except CameraError as exc:
            self.camera.close()
            self.camera = None
            self._last_try = self._clock()
            self._lost(exc)
            return None
        if self.status != "ok":
            log.info("camera %s is giving frames", self.camera.name)
        self.status, self.problem = "ok", ""
        return frame

    def detail(self) -> np.ndarray | None:
        """The camera's ``detail`` of the frame last read (None while it is lost)."""
        return None if self.camera is None else self.camera.detail()

    def _lost(self, exc: CameraError) -> None:
        if self.log_problems and (self.status, self.problem) != (exc.code, exc.message):
            log.warning("camera: %s", exc.message)
        self.status, self.problem = exc.code, exc.message

    def close(self) -> None:
        if self.camera is not None:
            self.camera.close()
            self.camera = None
