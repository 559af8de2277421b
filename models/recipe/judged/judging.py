"""What the judges of candidates share: the dev photos stressed on purpose, one comparison's
figures, and conditions that stop the judge at the first failure. Imported by the scripts
in the candidates' folders (run from the repository's root)."""

import csv
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from companion.bench_vision import compare, compare_streams
from companion.vision.evaluate import despeckle, is_dev

SHIPPED = "C24"  # the models the candidates are judged against
JUDGED = Path(__file__).parent


def reader_at(commit: str, name: str = "reader_c24"):
    """companion/vision/reader.py as it was at ``commit``, as module ``name`` (the models
    are the ones in the repository now)."""
    import subprocess

    source = subprocess.run(
        ["git", "show", f"{commit}:companion/vision/reader.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    exec(compile(source, f"{name}.py", "exec"), module.__dict__)
    return module


def earlier_judge(folder: str):
    """An earlier candidate's judge.py (``judged/<folder>/``), loaded by its path as module
    ``judge_<folder>``, once a process."""
    name = f"judge_{folder}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, JUDGED / folder / "judge.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


# The first two conditions of C32's and C33's rules (each rule writes them out in full):
# the dev photos as they are, then blurred, against the shipped models (``judge``).
AS_THEY_ARE_AND_BLURRED = [
    (
        "a: dev as they are",
        "as they are",
        [
            ("net", ">=", -1),
            ("recall", ">=", -0.3),
            ("precision", ">=", -0.3),
            ("value_accuracy", ">=", -0.3),
            ("wrong_when_sure", "<=", 0.2),
        ],
    ),
    (
        "b: dev blurred",
        "blurred",
        [
            ("recall", ">=", 3.0),
            ("net", ">=", 2),
            ("precision", ">=", -1.0),
            ("wrong_when_sure", "<=", 0.5),
        ],
    ),
]


def stressed(data: Path, out: Path, change, quality: int) -> Path:
    """The dev photos of every set in ``data``, each changed by ``change`` and saved as JPEG."""
    for labels in sorted(data.glob("*/labels.csv")):
        with open(labels) as f:
            rows = [r for r in csv.DictReader(f) if r["split"] == "train" and is_dev(r["filename"])]
        if not rows:
            continue
        folder = out / labels.parent.name
        folder.mkdir(parents=True)
        with open(folder / "labels.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        for name in sorted({r["filename"] for r in rows}):
            img = change(cv2.imread(str(labels.parent / name)))
            # through JPEG at ``quality``, then written under the photo's own name (a PNG
            # set's file stays a PNG, holding the JPEG's pixels)
            jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
            cv2.imwrite(str(folder / name), cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    return out


def blur(img):
    """Out of focus: a Gaussian blur of sigma 2 px (saved at JPEG 95)."""
    return cv2.GaussianBlur(img, (0, 0), 2.0)


noise = np.random.default_rng(0)


def dim(img):
    """A dim room: every value x0.4, with noise of sigma 2 levels (saved at JPEG 85)."""
    dark = img.astype(np.float32) * 0.4 + noise.normal(0, 2.0, img.shape)
    return np.clip(dark + 0.5, 0, 255).astype(np.uint8)


KEYS = ("recall", "precision", "value_accuracy", "unsure", "wrong_when_sure")


def figures(c: dict, name: str) -> dict:
    """The figures of ``bench_vision.compare``'s ``c``: the candidate ``name``'s and the shipped
    models', and the photos one reads entirely right and the other not."""
    mine, theirs, p = c["all"], c["against_all"], c["photos_entirely_right"]
    keys = (*KEYS, "photos_entirely_right")
    return {
        name: {k: mine[k] for k in keys},
        SHIPPED: {k: theirs[k] for k in keys},
        "gained": p["gained"],
        "lost": p["lost"],
        "net": p["net"],
        "gained_photos": p["gained_photos"],
        "lost_photos": p["lost_photos"],
    }


def points(f: dict, key: str) -> float:
    """The candidate's ``key`` less the shipped models', in percentage points."""
    name = next(k for k in f if k != SHIPPED)
    return round(100 * (f[name][key] - f[SHIPPED][key]), 2)


def check(f: dict, key: str, op: str, bound: float) -> tuple[str, bool]:
    """One condition on a comparison's figures ``f``: ``key`` is "net" (photos entirely right
    gained less lost) or a rate, in percentage points against the shipped models; ``op`` is
    ">=" or "<="."""
    got = f["net"] if key == "net" else points(f, key)
    ok = got >= bound if op == ">=" else got <= bound
    return (f"{key} {got} {op} {bound:+}", ok)


def verdict(condition: str, name: str, f: dict, checks: list[tuple[str, bool]]) -> None:
    """Prints the condition's figures and checks; at a failed check, says that the rule stops
    there and ends the judge."""
    print(f"({condition})", json.dumps(f, indent=1), flush=True)
    for text, ok in checks:
        print(f"   {'PASS' if ok else 'FAIL'}: {text}", flush=True)
    if not all(ok for _, ok in checks):
        print(f"({condition}) FAIL: the rule stops here. {name} not shipped.")
        sys.exit(1)


def photos(data: Path, tmp: Path, which: str) -> Path:
    """The dev photos a condition reads: "as they are", "blurred" or "dimmed"."""
    if which == "blurred":
        return stressed(data, tmp / "blur", blur, 95)
    if which == "dimmed":
        return stressed(data, tmp / "dim", dim, 85)
    return data


def judge(data: Path, candidate: Path, shipped: Path, name: str, conditions: list) -> None:
    """Compares ``candidate`` with ``shipped`` on the dev photos, condition by condition, and
    stops at the first that fails. Each condition is (its label, the photos: "as they are",
    "blurred", "dimmed" or "halved" (found at half size, faces read from the halved
    picture), and its checks: (key, op, bound) as ``check`` takes them)."""
    with tempfile.TemporaryDirectory() as tmp:
        for label, which, checks in conditions:
            if which == "halved":
                halved = compare_streams(data, "dev", candidate, shipped)
                c = halved["faces_from_the_analysis_picture"]
            else:
                c = compare(photos(data, Path(tmp), which), "dev", candidate, shipped)
            f = figures(c, name)
            verdict(label, name, f, [check(f, *one) for one in checks])


def look_stressed(data: Path, candidate: Path, shipped: Path, name: str) -> None:
    """A look after a verdict (deciding nothing): the candidate ``name`` and the shipped
    models on the blurred and the dimmed dev photos, each comparison's figures printed."""
    with tempfile.TemporaryDirectory() as tmp:
        for which in ("blurred", "dimmed"):
            f = figures(compare(photos(data, Path(tmp), which), "dev", candidate, shipped), name)
            print(which, json.dumps(f, indent=1), flush=True)


def passes_marked(reader_class=None) -> dict:
    """Marks every die the reader reads from now on with the pass that found it: the
    returned dict maps ``id(die)`` to "whole" (the whole picture, close-ups included) or
    "tile" (``DiceReader._small_dice``, patched here for the process; ``reader_class``, when
    given, is patched instead: a reader loaded from git). Clear it before each read."""
    from companion.vision.reader import DiceReader

    patched = reader_class or DiceReader
    origin: dict = {}
    small_dice = patched._small_dice

    def marked(self, img, look, dice):
        out = small_dice(self, img, look, dice)
        for d, _ in dice:
            origin[id(d)] = "whole"
        for d, _ in out:
            origin.setdefault(id(d), "tile")
        return out

    patched._small_dice = marked
    return origin


def small_whole_dice(reader, origin: dict, img, truth: list):
    """Reads ``img`` with ``reader`` (its dice marked in ``origin`` by ``passes_marked``) and
    gives each die the whole-picture pass found under SMALL of the picture's longer side,
    with whether it is on a labelled die of ``truth`` and whether C39's check
    (``DiceReader._found_again``) finds it again."""
    from companion.vision.boxes import box_side
    from companion.vision.evaluate import match
    from companion.vision.pictures import neutral
    from companion.vision.tiles import SMALL

    origin.clear()
    found = reader.read(img)
    matched = {i for i, _ in match(found, truth)}
    look = neutral(img)
    limit = SMALL * max(img.shape[:2])
    for i, d in enumerate(found):
        if origin.get(id(d)) == "whole" and box_side(d.box) < limit:
            yield d, i in matched, reader._found_again(look, d.box)


def read_right(c: dict, s: dict, fewer: int = 0) -> tuple[str, bool]:
    """A reader rule's check on ``run`` tallies: the candidate's ``c`` reads at least as many
    dice right as the shipped reader's ``s``, less ``fewer``."""
    less = f" - {fewer}" if fewer else ""
    return (f"read right {c['right']} >= {s['right']}{less}", c["right"] >= s["right"] - fewer)


def no_more_on_no_die(c: dict, s: dict) -> tuple[str, bool]:
    """A reader rule's check: the candidate draws no more boxes on no die than the shipped
    reader."""
    return (f"no die {c['no_die']} <= {s['no_die']}", c["no_die"] <= s["no_die"])


def count_photo(t: dict, truth: list, before: tuple[int, int]) -> None:
    """Counts a photo just tallied into ``t`` (``run`` tallies), and whether it was read
    entirely right: each of the dice in ``truth`` read right and no box on no die since
    ``before``, ``t``'s right and no_die before the photo."""
    t["photos"] += 1
    t["photos_right"] += (t["right"] - before[0], t["no_die"] - before[1]) == (len(truth), 0)


def tally_run(readers: dict, pictures, tally) -> dict:
    """Each reader's tallies (``tally(found, truth, t)``, C35's) and photos entirely right,
    and the pictures the first reader (the candidate) reads entirely right and the second
    (the shipped one) not, "gained", or the other way, "lost" (by their place)."""
    keys = ("photos", "photos_right", "dice", "found", "right", "wrong_when_sure", "unsure")
    out = {name: dict.fromkeys((*keys, "no_die"), 0) for name in readers}
    gained, lost = [], []
    for k, (img, truth) in enumerate(pictures):
        right = []
        for name, reader in readers.items():
            t = out[name]
            before, photos = (t["right"], t["no_die"]), t["photos_right"]
            tally(reader.read(img), truth, t)
            count_photo(t, truth, before)
            right.append(t["photos_right"] > photos)
        if right[0] and not right[1]:
            gained.append(k)
        if right[1] and not right[0]:
            lost.append(k)
    out["gained"], out["lost"] = gained, lost
    return out


def enlarged(data: Path, name: str, names, files: dict, clean: bool, times: int = 6):
    """The photos ``names`` of set ``name`` (labels in ``files``), despeckled when ``clean``,
    enlarged ``times`` (INTER_LINEAR), with their labels scaled."""
    for fn in names:
        img = cv2.imread(str(data / name / fn))
        img = despeckle(img) if clean else img
        img = cv2.resize(img, None, fx=times, fy=times, interpolation=cv2.INTER_LINEAR)
        yield img, [(str(v), tuple(times * c for c in box)) for v, box in files[fn]]


def mosaics(data: Path, names: list[str], n: int, name: str = "epanemu"):
    """n x n mosaics of the photos ``names`` of set ``name`` (each 640 px square), in order,
    a mosaic of the next n * n (whole mosaics only), despeckled, with their labels moved."""
    from companion.vision.evaluate import load_split

    files = load_split(data, "train")[name]
    for k in range(0, len(names) - n * n + 1, n * n):
        canvas = np.zeros((640 * n, 640 * n, 3), np.uint8)
        truth = []
        for i, fn in enumerate(names[k : k + n * n]):
            r, c = divmod(i, n)
            canvas[r * 640 : (r + 1) * 640, c * 640 : (c + 1) * 640] = despeckle(
                cv2.imread(str(data / name / fn))
            )
            truth += [
                (str(v), (b[0] + c * 640, b[1] + r * 640, b[2] + c * 640, b[3] + r * 640))
                for v, b in files[fn]
            ]
        yield canvas, truth


def looked_at_640(data: Path) -> list[tuple[str, str, list]]:
    """The epanemu photos sessions 58's and 59's looks read at 640 px: the dev photos, then
    the train photos outside dev at places 0, 2, 4 and 6 modulo 8 (sorted names), each as
    (where: "dev" or "train", file name, labels)."""
    from companion.vision.evaluate import load_split

    dev = load_split(data, "dev")["epanemu"]
    train = load_split(data, "train")["epanemu"]
    names = sorted(train)
    pictures = [("dev", n, dev[n]) for n in sorted(dev)]
    return pictures + [("train", n, train[n]) for k, n in enumerate(names) if k % 2 == 0]


def more(c: dict, s: dict, key: str, by: int) -> tuple[str, bool]:
    """A rule's check on ``tally_run`` tallies: the candidate's ``c[key]`` is at least the
    shipped reader's ``s[key]`` plus ``by``."""
    return (f"{key} {c[key]} >= {s[key]} {by:+}", c[key] >= s[key] + by)


def at_most(c: dict, s: dict, key: str, by: int) -> tuple[str, bool]:
    """A rule's check: the candidate's ``c[key]`` is at most the shipped reader's plus ``by``."""
    return (f"{key} {c[key]} <= {s[key]} {by:+}", c[key] <= s[key] + by)


def bars(right=None, wrong=None, no_die=None, net=None):
    """A rule's bars on one condition (since C61): the candidate's dice read right at least
    the shipped reader's plus ``right``, its wrong when sure and boxes on no die at most the
    shipped reader's plus ``wrong`` and ``no_die``, and its pictures entirely right gained
    less lost at least ``net`` (C44's ``net``); a bar given as None is not set. Returns the
    checks, a function of the candidate's and the shipped reader's tallies and
    ``tally_run``'s whole output, as ``verdict`` takes them."""

    def checks(c: dict, s: dict, o: dict) -> list[tuple[str, bool]]:
        out = []
        if right is not None:
            out.append(more(c, s, "right", right))
        if wrong is not None:
            out.append(at_most(c, s, "wrong_when_sure", wrong))
        if no_die is not None:
            out.append(at_most(c, s, "no_die", no_die))
        if net is not None:
            out.append(earlier_judge("c44").net(o, net))
        return out

    return checks


def epanemu_train(data: Path, names: list[str]):
    """The epanemu train photos ``names``, despeckled, as they are, with their labels."""
    from companion.vision.evaluate import load_split

    files = load_split(data, "train")["epanemu"]
    for name in names:
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        yield img, [(str(v), box) for v, box in files[name]]


def later_judge(name: str, file: str, rule_commit: str, first_seed: int, bar: int):
    """C51's judge (its method, conditions and bars) set for a later candidate ``name``: its
    judge's ``file``, its rule's commit, its places in /tmp, the seeds of conditions (a) to
    (d), 40 each from ``first_seed``, and (a)'s bar of ``bar`` more dice read right."""
    c51 = earlier_judge("c51")
    tag = name.lower()
    c51.NAME, c51.FILE, c51.TMP, c51.RULE_COMMIT = name, file, f"/tmp/{tag}-", rule_commit
    c51.SHIPPED_TREE = Path(f"/tmp/{tag}-shipped")
    c51.CACHE = Path(f"/tmp/{tag}-pictures")
    c51.CHECKS = {
        **c51.CHECKS,
        "a": lambda c, s, o: [
            more(c, s, "right", bar),
            at_most(c, s, "no_die", c51.C48.per_200(c, s)),
            at_most(c, s, "wrong_when_sure", c51.C48.per_200(c, s)),
            at_most(c, s, "unsure", 0),
            c51.C48.net(o, 0),
        ],
    }
    c51.SEEDS = {
        k: range(first_seed + 40 * i, first_seed + 40 * (i + 1)) for i, k in enumerate("abcd")
    }
    return c51


def run_later_judge(c51) -> None:
    """A later judge's command line (``later_judge``): judge, ``--render`` or ``--read``."""
    if len(sys.argv) == 5 and sys.argv[2] == "--read":
        c51.C48.read(sys.argv[3], Path(sys.argv[1]), Path(sys.argv[4]), c51.pictures)
    elif len(sys.argv) == 3 and sys.argv[2] == "--render":
        c51.render()
    else:
        c51.main(Path(sys.argv[1]))


def read_pair(
    name: str, judge: str, condition: str, data: Path, rule_commit: str, shipped: Path
) -> tuple[dict, dict]:
    """One condition of a code-change judge read the way C48's judge began (since C61 shared
    here, where C48's, C49's and C60's judges each had their own loop): the candidate, the
    reader of this tree, and the reader of a git worktree at ``rule_commit`` (made at
    ``shipped`` if it is not there), each in a process of its own running ``judge``'s
    ``--read`` (C48's ``readings``); their readings, replayed picture by picture, tallied as
    C35's ``tally`` and ``tally_run`` do. Returns the tallies (``name`` and "shipped", with
    "gained" and "lost") and both readings."""
    import subprocess

    if not shipped.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(shipped), rule_commit], check=True
        )
    c48 = earlier_judge("c48")
    root = JUDGED.resolve().parents[2]
    got = {
        name: c48.readings(root, condition, data, judge),
        "shipped": c48.readings(shipped, condition, data, judge),
    }
    shots = got[name]["shots"]
    assert [s["truth"] for s in shots] == [s["truth"] for s in got["shipped"]["shots"]]
    readers = {k: c48.Replayed(g["shots"]) for k, g in got.items()}
    truths = [(None, [(v, tuple(b)) for v, b in s["truth"]]) for s in shots]
    return tally_run(readers, truths, earlier_judge("c35").tally), got
