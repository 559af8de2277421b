"""The dice commands of ``companion``: ``read`` (still pictures), ``watch`` (roll events
from a camera) and ``teach`` (a die of symbols). ``companion.cli.main`` builds their options."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.errors import CompanionError, StorageError
from companion.vision import CAMERA_SPECS


def custom_die(args: argparse.Namespace):
    """The taught die named by --die (or the config), or None for standard dice."""
    name = args.die if args.die is not None else args.cfg.vision.die
    if not name:
        return None
    from companion.vision.teach import load_die

    return load_die(Path(args.cfg.storage.data_dir).expanduser(), name)


def _reader(args: argparse.Namespace, view: str):
    from companion.vision.reader import DiceReader

    conf = args.cfg.vision.min_confidence or None
    return DiceReader(custom=custom_die(args), min_confidence=conf, view=view)


def cmd_read(args: argparse.Namespace) -> int:

    from companion.errors import VisionError
    from companion.vision.files import cut_short, read_picture, unreadable
    from companion.vision.watch import draw, shown

    reader = _reader(args, args.view)
    folder = _annotate_folder(args.annotate) if args.annotate else None
    names = _pictures(args.images)
    taken = {Path(name).resolve() for name in names}  # never drawn over
    status = 0
    for name in names:
        path = Path(name)
        try:
            img = read_picture(path) if path.is_file() else None
        except VisionError as exc:
            print(f"companion: {exc}", file=sys.stderr)
            status = 2
            continue
        if img is None:
            if not path.exists():
                why = "no such file (give JPEG or PNG files)"
            elif path.is_dir():
                why = (
                    "a folder with no pictures in it, or one this user may not read (give "
                    "JPEG or PNG files, or a folder of them)"
                )
            else:
                why = unreadable(path)
            print(f"companion: {name}: {why}", file=sys.stderr)
            status = 2
            continue
        if cut_short(path):
            print(
                f"companion: {name}: the JPEG ends early (cut short while it was copied or "
                "saved?): read as far as it goes, the rest of the picture left grey, and a "
                "die cut by the grey may be misread; copy the photo again for a full reading",
                file=sys.stderr,
            )
        dice = reader.read(img)
        if args.json:
            print(json.dumps({"image": name, "dice": [d.to_json() for d in dice]}), flush=True)
        else:
            values = " ".join(shown(d) for d in dice)
            count = "1 die" if len(dice) == 1 else f"{len(dice)} dice"
            print(f"{name}: {count}: {values}" if dice else f"{name}: no dice found", flush=True)
        if folder is not None:
            _write_drawn(_drawn_path(folder, path, taken), draw(img, dice))
    return status


def _pictures(names: list[str]) -> list[str]:
    """``names`` with each folder among them replaced by the pictures in it, by name (not
    its subfolders, nor other files such as notes). A folder with none stays, to be named
    as such."""
    from companion.vision.files import PICTURES

    out = []
    for name in names:
        path = Path(name)
        try:
            inside = (
                sorted(p for p in path.iterdir() if p.suffix.lower() in PICTURES and p.is_file())
                if path.is_dir()
                else []
            )
        except OSError:  # a folder this user may not list: named as one with no pictures
            inside = []
        out.extend([str(p) for p in inside] or [name])
    return out


def _annotate_folder(name: str) -> Path:
    """The --annotate folder, made if need be, or a clear error before any image is read."""
    folder = Path(name)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CompanionError(
            f"--annotate {name}: that is a file, not a folder; name a folder to draw the "
            "images into",
            code="read/annotate",
        ) from None
    except OSError as exc:
        raise CompanionError(
            f"--annotate {name}: cannot make that folder ({exc.strerror}); name a folder "
            "you can write to",
            code="read/annotate",
        ) from None
    return folder


def _drawn_path(folder: Path, image: Path, taken: set[Path]) -> Path:
    """Where the drawn copy of ``image`` goes: ``STEM.png``, or ``STEM-2.png`` and on when
    that name is ``taken`` (resolved paths): drawn already this run (photos from two folders
    both called IMG_0001) or one of the images read (--annotate naming the photos' own
    folder), so no picture is drawn over."""
    n = 1
    while True:
        path = folder / (f"{image.stem}.png" if n == 1 else f"{image.stem}-{n}.png")
        if path.resolve() not in taken:
            taken.add(path.resolve())
            return path
        n += 1


def _write_drawn(path: Path, drawn) -> None:
    import cv2

    png = cv2.imencode(".png", drawn)[1]
    try:
        path.write_bytes(png.tobytes())
    except OSError as exc:
        path.unlink(missing_ok=True)  # no half-written picture left behind
        raise StorageError(
            f"could not write the drawn image {path} ({exc.strerror}); free some space or "
            "give --annotate another folder",
            code="read/annotate",
        ) from None


def _camera_spec(args: argparse.Namespace) -> str:
    """The camera --camera names, else the config's; "none" is a clear error."""
    spec = args.camera or args.cfg.camera.source
    if spec == "none":
        raise CompanionError(
            f"no camera: pass --camera ({CAMERA_SPECS}) or set [camera] source in the config",
            code="camera/none",
        )
    return spec


def cmd_watch(args: argparse.Namespace) -> int:
    from companion.vision.camera import camera_opener
    from companion.vision.settle import Settler
    from companion.vision.supervisor import CameraSupervisor
    from companion.vision.watch import RollWatcher

    spec = _camera_spec(args)
    watcher = RollWatcher(
        # watch says the camera's problems itself, once each, on stderr
        CameraSupervisor(camera_opener(spec, live=False), log_problems=False),
        _reader(args, args.view or args.cfg.camera.view),
        Settler(expected=args.dice),
    )
    import time

    frames, told = 0, ""
    while args.frames is None or frames < args.frames:
        frames += 1
        event = watcher.step()
        if watcher.status == "camera lost":
            if watcher.camera.problem != told:
                told = watcher.camera.problem
                print(f"companion: {told}", file=sys.stderr, flush=True)
            if watcher.camera.status == "camera/ended":  # a video or a replay read to its end
                break
            time.sleep(0.2)
            continue
        told = ""
        if event is not None:
            out = {
                "kind": event.kind,
                "values": list(event.values),
                "confidence": round(event.confidence, 3),
                "boxes": [list(b) for b in event.boxes],
            }
            if event.message:
                out["message"] = event.message
            if event.revises:  # the roll to confirm just before, read whole on a second look
                out["revises"] = True
            print(json.dumps(out), flush=True)
    return 0


def cmd_teach(args: argparse.Namespace) -> int:
    from companion.vision import teach
    from companion.vision.reader import DiceReader
    from companion.vision.taught import FACES

    path = teach.die_path(Path(args.cfg.storage.data_dir).expanduser(), args.name)
    # A set's dice are taught as they will be read: their crops turned as the view turns them.
    view = args.view or ("slanted" if args.shows else args.cfg.camera.view)
    reader = DiceReader(min_confidence=args.cfg.vision.min_confidence or None, view=view)
    if args.standard:
        if args.faces:
            raise CompanionError(
                "--standard teaches the faces 1 to 6: leave out --faces",
                code="vision/bad-faces",
            )

        def embed(img):  # every die of each show, all with the show's face up
            return teach.show_dice(reader, img)

        shows = _shows(args, list(FACES), embed, "the set's dice, all")
        return _taught_set(teach.learn_standard(reader, args.name, shows), path)

    def embed_one(img):  # each show once, as it comes: one with no die is named at once
        return teach.embed_show(reader, img)

    if not args.shows and not args.faces:
        raise CompanionError(
            "name the faces to show with --faces (e.g. --faces "
            "wood,stone,fish) or pass --shows DIR; for the table's own pip dice, --standard",
            code="vision/no-faces",
        )
    faces = None if args.shows else teach.face_names(args.faces)  # a typo costs no shows
    shows = _shows(args, faces, embed_one, "the die")
    die = teach.learn_embedded(reader, args.name, shows)
    die.save(path)
    print(f"taught die {args.name!r} with faces {', '.join(die.faces)}; saved to {path}")
    _read_with(args.name)
    return 0


def _shows(args: argparse.Namespace, faces: list[str] | None, embed, what: str) -> dict:
    """Each face's shows, embedded by ``embed``: from --shows DIR, or from the camera, which
    asks for ``what`` with each of ``faces`` up in turn."""
    from companion.vision import teach
    from companion.vision.camera import CameraError, open_camera

    if args.shows:
        return teach.shows_from_folder(Path(args.shows), embed=embed)
    try:
        camera = open_camera(_camera_spec(args))
    except CameraError as exc:
        if exc.code != "camera/busy":
            raise
        raise CameraError(  # on the device, the service holds the camera
            f"{exc.message} If it is the companion service: sudo systemctl stop companion, "
            "teach, then sudo systemctl start companion.",
            code=exc.code,
        ) from None
    try:
        return teach.shows_from_camera(camera.read, faces, _press_enter, embed=embed, what=what)
    finally:
        camera.close()


def _taught_set(taught, path: Path) -> int:
    """Saves the taught set and says how it read the shows it was not fitted on."""
    taught.save(path)
    first = next(iter(taught.figures["classifiers"].values()))  # the face classifier's
    before, after = first["untaught"], first["taught"]
    print(
        f"taught the set {taught.name!r} from {taught.figures['dice_shown']} dice; saved to "
        f"{path}. Its first reading of shown dice it was not taught from: {after['right']:.0%} "
        f"right and {after['wrong']:.1%} wrong while sure (untaught: {before['right']:.0%} "
        f"and {before['wrong']:.1%})"
    )
    _read_with(taught.name)
    return 0


def _read_with(name: str) -> None:
    print(
        f"read with it: companion read --die {name} IMAGE, or set [vision] die = "
        f'"{name}" in the config'
    )


def _press_enter(prompt: str) -> str:
    """``input``, where no keyboard (stdin closed: a service, a pipe) is a clear error."""
    try:
        return input(prompt)
    except EOFError:
        print(flush=True)  # end the prompt's line
        raise CompanionError(
            "teaching from the camera waits for Enter after each show, and no keyboard is "
            "there (stdin is closed): run it in a terminal, or teach from pictures with "
            "--shows DIR; nothing was saved",
            code="vision/no-keyboard",
        ) from None
