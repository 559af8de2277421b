"""Look (decides nothing): each tile-pass die, true or false, re-detected in a window around
it scaled so the die is ~K px at the detector's input. Data: C37 (d)'s photos (place 4,
already judged), rendered one-set shots 93000.. (C37's look), and 3x3 mosaics of place-4
epanemu photos (real small dice in a big picture)."""
import sys, importlib.util, collections
from pathlib import Path
import cv2, numpy as np
sys.path.insert(0, "models/recipe/judged")
from judging import passes_marked
from companion.vision.evaluate import match, load_split, despeckle
from companion.vision.reader import DiceReader, model_dir, box_side, letterbox, decode, DETECT_SIZE
spec = importlib.util.spec_from_file_location("judge_c37", "models/recipe/judged/c37/judge.py")
j = importlib.util.module_from_spec(spec); spec.loader.exec_module(j)
cv2.setNumThreads(1)
R = DiceReader(model_dir(), threads=1)
origin = passes_marked()
K = float(sys.argv[2]) if len(sys.argv) > 2 else 40.0
PAD = sys.argv[3] if len(sys.argv) > 3 else "rep"

def redetect(img, box):
    s = box_side(box); cx, cy = (box[0]+box[2])/2, (box[1]+box[3])/2
    side = int(round(s * DETECT_SIZE / K)); half = side / 2
    h, w = img.shape[:2]
    x0, y0 = int(round(cx-half)), int(round(cy-half))
    l, t = max(0, -x0), max(0, -y0)
    r, b = max(0, x0+side-w), max(0, y0+side-h)
    win = img[max(0,y0):min(h,y0+side), max(0,x0):min(w,x0+side)]
    if PAD == "clip":
        x0, y0 = max(0, x0), max(0, y0)
    else:
        win = cv2.copyMakeBorder(win, t, b, l, r, cv2.BORDER_REPLICATE if PAD == "rep" else cv2.BORDER_CONSTANT)
    found = R.detect(win, 0.05)
    best = 0.0
    for bb, heat in found:
        bb = (bb[0]+x0, bb[1]+y0, bb[2]+x0, bb[3]+y0)
        bc = ((bb[0]+bb[2])/2, (bb[1]+bb[3])/2)
        if np.hypot(bc[0]-cx, bc[1]-cy) < 0.6*s and 0.6 < box_side(bb)/s < 1.6:
            best = max(best, heat)
    return best

def mosaics(data, n=3):
    files = load_split(data, "train")["epanemu"]
    fns = sorted(files)[4::8][:99]
    for k in range(0, len(fns) - n*n + 1, n*n):
        tiles, truth = [], []
        canvas = np.zeros((640*n, 640*n, 3), np.uint8)
        for i, fn in enumerate(fns[k:k+n*n]):
            img = despeckle(cv2.imread(str(data/"epanemu"/fn)))
            r, c = divmod(i, n)
            canvas[r*640:(r+1)*640, c*640:(c+1)*640] = img
            truth += [(str(v), (b[0]+c*640, b[1]+r*640, b[2]+c*640, b[3]+r*640)) for v, b in files[fn]]
        yield canvas, truth

data = Path(sys.argv[1])
sources = {
    "epanemu6x": lambda: j.train_at_6x(data, "epanemu", clean=True),
    "rendered": lambda: j.one_set(range(93000, 93060)),
    "mosaic3": lambda: mosaics(data, 3),
    "mosaic4": lambda: mosaics(data, 4),
}
for name, gen in sources.items():
    rows = []
    for img, truth in gen():
        origin.clear()
        found = R.read(img)
        matched = {i for i, _ in match(found, truth)}
        for i, d in enumerate(found):
            where = origin.get(id(d), "whole")
            if where != "tile" and i in matched:
                continue
            rows.append((where, i in matched, round(redetect(img, d.box), 2), int(box_side(d.box))))
            if where == "tile" and i in matched and rows[-1][2] < 0.2: print("   lost", name, d.box, img.shape[:2], d.face)
    print(name)
    for where in ("tile", "whole"):
        for ok in (True, False):
            hs = sorted(h for w_, m, h, _ in rows if w_ == where and m == ok)
            if hs:
                print(f"  {where} {'true' if ok else 'false'} n={len(hs)} heats={hs}")
    sys.stdout.flush()
