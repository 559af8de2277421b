"""Camera sources and the supervisor: replay, video, faults (missing, busy, unplugged)."""

import os
import subprocess
import sys
import time
import types
from concurrent.futures import Future

import cv2
import numpy as np
import pytest

from companion.vision.camera import (
    CameraError,
    CaptureCamera,
    ReplayCamera,
    camera_opener,
    device_number,
    explain,
    open_camera,
)
from companion.vision.pi_camera import PiCamera
from companion.vision.supervisor import CameraSupervisor


def frames(folder, n=3):
    folder.mkdir(exist_ok=True)
    for i in range(n):
        img = np.full((48, 64, 3), 40 * (i + 1), np.uint8)
        cv2.imwrite(str(folder / f"frame_{i:03d}.png"), img)
    return folder


def test_replay_reads_a_folder_in_name_order_and_loops(tmp_path):
    cam = open_camera(f"replay:{frames(tmp_path / 'f')}@0")
    seen = [int(cam.read()[0, 0, 0]) for _ in range(4)]
    assert seen == [40, 80, 120, 40]
    assert cam.read().shape == (48, 64, 3)


def test_replay_without_loop_ends_with_a_clear_error(tmp_path):
    cam = ReplayCamera(frames(tmp_path / "f", 1), fps=0, loop=False)
    cam.read()
    with pytest.raises(CameraError, match="has ended"):
        cam.read()


def test_replay_passes_over_a_file_that_is_not_a_picture_and_goes_on(tmp_path, caplog):
    # A broken copy among the frames used to end the replay there each time round, so the
    # frames after it were never seen.
    folder = frames(tmp_path / "f")
    (folder / "frame_001b.png").write_text("not a picture")
    cam = ReplayCamera(folder, fps=0)
    seen = [int(cam.read()[0, 0, 0]) for _ in range(7)]
    assert seen == [40, 80, 120, 40, 80, 120, 40]
    again = ReplayCamera(folder, fps=0)  # as the supervisor opens it again after a fault
    assert [int(again.read()[0, 0, 0]) for _ in range(3)] == [40, 80, 120]
    said = [r.getMessage() for r in caplog.records if "passing over" in r.getMessage()]
    assert len(said) == 1 and "frame_001b.png: it is not an image OpenCV can read" in said[0]


def test_replay_of_a_folder_with_no_picture_in_it_says_so(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(b"")
    (folder / "b.png").write_text("not a picture")
    with pytest.raises(CameraError) as info:
        ReplayCamera(folder, fps=0).read()
    assert info.value.code == "camera/missing"
    assert info.value.message == (
        f"no frame in {folder} could be read: a.jpg is an empty file (0 bytes): copy the "
        "picture again"
    )


def video(path, fps, shades):
    """A small MJPG video at ``fps``, one flat grey frame of each shade."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    for shade in shades:
        writer.write(np.full((48, 64, 3), shade, np.uint8))
    writer.release()
    return path


def test_replay_of_a_video_file(tmp_path):
    path = video(tmp_path / "roll.avi", 10, [0, 50, 100, 150, 200])
    cam = open_camera(f"replay:{path}@0")
    assert [cam.read().shape for _ in range(7)] == [(48, 64, 3)] * 7  # loops past the end
    cam.close()


def test_a_video_file_stands_in_for_a_camera_at_its_own_frame_rate(tmp_path):
    # serve --camera video:FILE read the file as fast as it decoded, and at its end said the
    # camera was lost for two seconds before playing it again.
    path = video(tmp_path / "game.avi", 20, [0, 60, 120, 180])
    live = camera_opener(f"video:{path}")()  # as serve opens it
    start = time.monotonic()
    shades = [round(live.read()[0, 0, 0] / 60) for _ in range(11)]  # 10 gaps of 1/20 s
    assert time.monotonic() - start >= 0.5
    assert shades == [0, 1, 2, 3] * 2 + [0, 1, 2]  # and on again from its start
    live.close()
    once = camera_opener(f"video:{path}", live=False)()  # as watch reads a recording
    assert len([once.read() for _ in range(4)]) == 4
    with pytest.raises(CameraError) as info:
        once.read()
    assert info.value.code == "camera/ended"
    once.close()


@pytest.mark.parametrize(
    "spec, code, text",
    [
        ("replay:/nonexistent/frames", "camera/missing", "no folder or video at"),
        ("replay:/tmp@fast", "camera/spec", "frame rate must be a number"),
        ("replay:/tmp@-5", "camera/spec", "0 (as fast as read) or more, not '-5'"),
        ("replay:/tmp@nan", "camera/spec", "for example replay:/tmp@10"),
        ("usb:x", "camera/spec", "usb:0"),
        ("usb:-1", "camera/spec", "from 0 to 255 like usb:0 (/dev/video0), not 'usb:-1'"),
        ("usb:99999999999999999999", "camera/spec", "usb camera must be a number from 0 to"),
        ("replay:@5", "camera/spec", "'replay:@5' names no folder or video to replay"),
        ("webcam", "camera/spec", "unknown camera 'webcam'"),
        ("/dev/null", "camera/spec", "/dev/null is not a video device: give a webcam's"),
    ],
)
def test_bad_specs_are_named(spec, code, text):
    with pytest.raises(CameraError) as info:
        open_camera(spec)
    assert info.value.code == code and text in info.value.message


def test_a_path_given_as_a_camera_says_how_to_replay_or_play_it(tmp_path):
    (tmp_path / "game.mp4").write_bytes(b"")
    for path, hint in [
        (tmp_path, f"({tmp_path} is a folder: to replay its frames, replay:{tmp_path})"),
        (tmp_path / "game.mp4", f"is a file: to play a video, video:{tmp_path / 'game.mp4'})"),
    ]:
        with pytest.raises(CameraError) as info:
            camera_opener(str(path))
        assert info.value.code == "camera/spec" and hint in info.value.message


def test_a_webcam_link_is_followed_to_the_node_it_names_at_each_open(tmp_path):
    # /dev/v4l/by-id/usb-...-video-index0 is a udev link to ../../videoN; after an unplug the
    # webcam may come back as another N, and the link with it
    (tmp_path / "video2").touch()
    (tmp_path / "video7").touch()
    (tmp_path / "null").touch()
    by_id = tmp_path / "v4l" / "by-id"
    by_id.mkdir(parents=True)
    link = by_id / "usb-Acme_Webcam-video-index0"
    link.symlink_to("../../video7")
    assert device_number(str(link)) == 7
    link.unlink()
    link.symlink_to("../../video2")
    assert device_number(str(link)) == 2
    assert device_number(str(tmp_path / "video2")) == 2
    link.unlink()
    link.symlink_to("../../null")
    assert device_number(str(link)) is None


@pytest.mark.parametrize(
    "path",
    [
        "/dev/v4l/by-id/usb-Acme_Webcam_0001-video-index0",
        # by USB port: a name with colons in it, which no other spec's "kind:" takes
        "/dev/v4l/by-path/platform-xhci-hcd.0-usb-0:1:1.0-video-index0",
    ],
)
def test_a_webcam_path_not_there_is_a_webcam_unplugged_and_tried_again(path):
    assert not os.path.exists(path)
    opener = camera_opener(path)  # not a misspelt spec: the webcam may be plugged in later
    with pytest.raises(CameraError) as info:
        opener()
    assert info.value.code == "camera/missing"
    assert info.value.message.startswith(f"no camera at {path}: is it plugged in?")
    clock = [0.0]
    supervisor = CameraSupervisor(opener, retry_every=2.0, clock=lambda: clock[0])
    assert supervisor.read() is None and supervisor.status == "camera/missing"
    assert path in supervisor.problem


def test_an_empty_folder_is_refused(tmp_path):
    with pytest.raises(CameraError, match="holds no images"):
        ReplayCamera(tmp_path)


def test_a_missing_usb_camera_says_so():
    with pytest.raises(CameraError, match="is it plugged in") as info:
        CaptureCamera("/dev/video-that-does-not-exist")
    assert info.value.code == "camera/missing"


def test_a_video_that_cannot_be_opened_is_named_for_what_it_is(tmp_path):
    # video:FILE is a file or a stream: a missing file is not a camera to plug in
    said = {}
    (tmp_path / "notes.mp4").write_text("not a video")
    sources = ["/nope/game.mp4", str(tmp_path / "notes.mp4"), "http://127.0.0.1:1/table.mjpg"]
    sources.append(str(tmp_path))
    for source in sources:
        with pytest.raises(CameraError) as info:
            CaptureCamera(source)
        assert info.value.code == "camera/missing"
        said[source] = info.value.message
    assert said["/nope/game.mp4"].startswith("no video file at /nope/game.mp4: check the path")
    assert "notes.mp4: OpenCV cannot play this file" in said[sources[1]]
    assert said[sources[2]].startswith("cannot open the stream http://127.0.0.1:1/table.mjpg")
    assert said[str(tmp_path)] == (
        f"{tmp_path} is a folder, not a video: to replay its frames use replay:{tmp_path}"
    )


def test_a_missing_usb_camera_prints_only_our_message():
    """OpenCV's own "can't open camera by index" warnings would repeat at every retry."""
    code = (
        "from companion.vision.camera import CameraError, CaptureCamera\n"
        "for _ in range(2):\n"
        "    try:\n"
        "        CaptureCamera(99)\n"
        "    except CameraError as e:\n"
        "        print(e)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert run.stdout.count("no camera at usb:99 (/dev/video99): is it plugged in") == 2, run.stdout
    assert "WARN" not in run.stderr, run.stderr


def test_the_pi_camera_without_picamera2_names_the_package():
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera()


def test_a_picamera2_that_fails_on_import_is_a_camera_error_saying_what_to_do(
    monkeypatch, tmp_path
):
    """picamera2 over a numpy it was not built for fails on import, and not with an
    ImportError (simplejpeg's check, as picamera2 issue 1088 reports it)."""
    (tmp_path / "picamera2").mkdir()
    (tmp_path / "picamera2" / "__init__.py").write_text(
        "raise ValueError('numpy.dtype size changed, may indicate binary incompatibility. "
        "Expected 96 from C header, got 88 from PyObject')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    with pytest.raises(CameraError, match=r"cannot be imported \(ValueError: numpy.dtype") as err:
        PiCamera()
    assert err.value.code == "camera/broken" and "keeps the system's numpy" in err.value.message
    from companion.cli import doctor_camera

    check = doctor_camera.check_camera("pi")
    assert check.level == "FAIL" and "numpy.dtype size changed" in check.detail
    assert "deploy/install.sh" in check.fix


class FakePicamera2:
    """Stands in for picamera2's Picamera2 (this machine has no Pi camera)."""

    def __init__(self, controls):
        self.camera_controls = controls
        self.set = []

    def create_video_configuration(self, **streams):
        return streams

    def configure(self, config):
        self.config = config

    def start(self):
        pass

    def set_controls(self, controls):
        self.set.append(controls)

    frame = None  # what the lores stream gives: an I420 array, or None for no frame at all
    main = None  # what the main stream gives (I420); None: the lores frame's size doubled, black

    def capture_arrays(self, names, wait=None):
        """As picamera2's: with wait=False, a Job whose result is the named streams' arrays
        of the next frame, and its metadata."""
        assert names == ["lores", "main"] and wait is False
        done = Future()
        if self.frame is not None:
            main = self.main
            if main is None:
                main = np.zeros((2 * self.frame.shape[0], 2 * self.frame.shape[1]), np.uint8)
            done.set_result(([self.frame, main], {"SensorTimestamp": 0}))
        return types.SimpleNamespace(get_result=lambda timeout=None: done.result(timeout))

    def stop(self):
        pass

    def close(self):
        pass


def fake_pi(monkeypatch, controls=None) -> list[FakePicamera2]:
    """picamera2 and libcamera as this machine has neither: each Picamera2() made is a new
    FakePicamera2 with ``controls``, added to the list returned."""
    made = []

    def new():
        made.append(FakePicamera2(controls or {}))
        return made[-1]

    libcamera = types.SimpleNamespace(
        controls=types.SimpleNamespace(AfModeEnum=types.SimpleNamespace(Continuous=2)),
        ColorSpace=types.SimpleNamespace(Smpte170m=lambda: "SMPTE 170M"),
    )
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=new))
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    return made


@pytest.mark.parametrize("can_focus", [True, False])
def test_the_pi_camera_focuses_when_its_module_can(monkeypatch, can_focus):
    controls = {"AfMode": (0, 2, 0)} if can_focus else {"ExposureTime": (0, 1, 0)}
    made = fake_pi(monkeypatch, controls)
    PiCamera()
    # the main stream has the analysis frame's shape, so the frame is not stretched; and
    # the colours are encoded as OpenCV's I420 conversion decodes them
    assert made[0].config == {
        "main": {"size": (1280, 960), "format": "YUV420"},
        "lores": {"size": (640, 480), "format": "YUV420"},
        "colour_space": "SMPTE 170M",
    }
    assert made[0].set == ([{"AfMode": 2}] if can_focus else [])


@pytest.mark.parametrize("stride", [640, 768])
def test_the_pi_camera_reads_its_analysis_stream_as_a_bgr_frame(monkeypatch, stride):
    """The lores stream comes as planar I420 rows of the stream's stride, which the ISP may
    round up past the width (704 to 768 on a Pi 5: picamera2 issue 1182): the frame is the
    picture's own width, its padding cut off, in the colours the camera saw."""
    rng = np.random.default_rng(4)
    seen = rng.integers(0, 256, (480, 640, 3), np.uint8)
    padded = np.zeros((480, stride, 3), np.uint8)
    padded[:, :640] = seen
    padded[:, 640:] = (0, 0, 255)  # the padding: whatever the buffer held
    made = fake_pi(monkeypatch)
    camera = PiCamera()
    made[0].frame = cv2.cvtColor(padded, cv2.COLOR_BGR2YUV_I420)
    frame = camera.read()
    # what I420 keeps of the picture alone (it halves the colour's resolution)
    kept = cv2.cvtColor(cv2.cvtColor(seen, cv2.COLOR_BGR2YUV_I420), cv2.COLOR_YUV2BGR_I420)
    assert frame.shape == (480, 640, 3) and np.array_equal(frame, kept)


def test_the_pi_camera_gives_the_main_stream_of_the_frame_read_as_its_detail(monkeypatch):
    """Each frame is captured from both streams at once; ``detail()`` is the main stream of
    the frame last read (twice the analysis frame's size), in BGR, converted once however
    often it is asked for; before a frame, and from a supervisor whose camera is lost, none."""
    rng = np.random.default_rng(5)
    made = fake_pi(monkeypatch)
    assert PiCamera().detail() is None  # no frame read yet
    supervisor = CameraSupervisor(PiCamera)
    assert supervisor.detail() is None  # no camera opened yet
    lores = cv2.cvtColor(rng.integers(0, 256, (480, 640, 3), np.uint8), cv2.COLOR_BGR2YUV_I420)
    monkeypatch.setattr(FakePicamera2, "frame", lores)
    for stride in (1280, 1408):  # the second with its rows padded, as the ISP may write them
        main = rng.integers(0, 256, (960, stride, 3), np.uint8)
        made_main = cv2.cvtColor(main, cv2.COLOR_BGR2YUV_I420)
        monkeypatch.setattr(FakePicamera2, "main", made_main)
        assert supervisor.read().shape == (480, 640, 3)
        detail = supervisor.detail()
        seen = cv2.cvtColor(made_main, cv2.COLOR_YUV2BGR_I420)[:, :1280]
        assert detail.shape == (960, 1280, 3) and np.array_equal(detail, seen)
        assert supervisor.detail() is detail
    assert len(made) == 2


def test_a_pi_camera_that_stops_giving_frames_is_lost_and_tried_again(monkeypatch):
    """picamera2 waits for a frame for ever; a camera whose frames stop (a loose ribbon) is
    given up after its frame timeout, said on the pages, and opened again."""
    made = fake_pi(monkeypatch)
    monkeypatch.setattr(PiCamera, "frame_timeout", 0.05)
    monkeypatch.setattr(FakePicamera2, "frame", np.zeros((720, 640), np.uint8))  # all give frames
    now = [0.0]
    supervisor = CameraSupervisor(PiCamera, retry_every=2.0, clock=lambda: now[0])
    assert supervisor.read() is not None and supervisor.status == "ok"
    made[0].frame = None  # the frames stop
    assert supervisor.read() is None
    assert supervisor.status == "camera/stalled" and "ribbon cable" in supervisor.problem
    now[0] = 3.0  # the cable pushed back in: the next read opens the camera again
    assert supervisor.read() is not None and supervisor.status == "ok" and len(made) == 2


@pytest.mark.parametrize(
    "message, code",
    [
        ("Failed to acquire camera: Device or resource busy", "camera/busy"),
        ("Pipeline handler in use by another process", "camera/busy"),
        ("list index out of range", "camera/missing"),
    ],
)
def test_libcamera_failures_are_explained(message, code):
    err = explain(RuntimeError(message), "the Pi camera")
    assert err.code == code
    assert message in err.message


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_supervisor_survives_an_unplugged_camera_and_picks_it_up_again(tmp_path):
    folder = frames(tmp_path / "f")
    clock = Clock()
    sup = CameraSupervisor(lambda: ReplayCamera(folder, fps=0), retry_every=2, clock=clock)
    assert sup.read() is not None and sup.status == "ok"
    moved = tmp_path / "away"
    folder.rename(moved)  # unplugged mid-stream
    assert sup.read() is None
    assert sup.status == "camera/missing" and "could not be read" in sup.problem
    clock.now += 1
    assert sup.read() is None  # too soon to retry
    clock.now += 2
    assert sup.read() is None and "no folder or video" in sup.problem  # still gone
    moved.rename(folder)  # plugged back in
    clock.now += 2
    assert sup.read() is not None and (sup.status, sup.problem) == ("ok", "")
    sup.close()


def test_the_supervisor_starts_without_a_camera(tmp_path):
    clock = Clock()
    sup = CameraSupervisor(lambda: open_camera(f"replay:{tmp_path / 'none'}"), clock=clock)
    assert sup.read() is None and sup.status == "camera/missing"


class RecordingCapture:
    """Stands in for a webcam's VideoCapture (there is none here): opens, gives a frame,
    and records what the camera asked of it."""

    def __init__(self, source):
        self.source, self.asked = source, {}

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.asked[prop] = value
        return True

    def get(self, prop):
        return 30.0

    def read(self):
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self):
        pass


def test_a_webcam_is_asked_for_one_frame_buffer_so_each_read_is_its_latest(monkeypatch, tmp_path):
    # V4L2's four buffers stay full while the reader is slower than the webcam, and each
    # read took the oldest: a frame four reads behind the table
    monkeypatch.setattr(cv2, "VideoCapture", RecordingCapture)
    webcam = CaptureCamera(0)
    assert webcam._cap.asked == {cv2.CAP_PROP_BUFFERSIZE: 1}
    video = tmp_path / "game.mp4"
    video.write_bytes(b"")  # a file plays every frame in turn: nothing to ask of it
    assert CaptureCamera(str(video))._cap.asked == {}
