"""Session 66's look (decides nothing it reports on): a clump of small dice in a big picture,
boxed as one die by the whole-picture pass. What do the tile pass's peaks inside such a box
look like, and what would a design that lets the box give way to them do? Rendered at design
seeds only, which judge nothing: dense heaps as session 65's look renders them (seeds
120006 to 120011) and phone-size shots as C36's judge renders them (seeds 120012 to 120031).
Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s66_clumps.py
"""

import sys
import time
from pathlib import Path

import numpy as np

from companion.vision.boxes import box_side, centre_inside, same_die
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
from judging import earlier_judge
from s65_dense_heaps import heap

SIDE_MAX = 0.75  # a tile die's side against the clump's box, at most
COVER = 0.4  # the share of the clump's box the tile dice read in it cover, at least


def area(b) -> float:
    return max(0, b[2] - b[0]) * max(0, b[3] - b[1])


def inside(peaks, box, others):
    """The tile peaks (box, heat) whose centres lie in ``box``, at most ``SIDE_MAX`` of its
    side, hottest first, each apart from the ones taken before it and from the dice in
    ``others``."""
    side = box_side(box)
    taken: list = []
    for b, _heat in sorted(peaks, key=lambda p: -p[1]):
        if not centre_inside(b, box) or box_side(b) / side > SIDE_MAX:
            continue
        if any(centre_inside(b, t) or centre_inside(t, b) or same_die(b, t) for t in taken):
            continue
        if any(centre_inside(b, o) or same_die(b, o) for o in others):
            continue
        taken.append(b)
    return taken


class ClumpsGiveWay(DiceReader):
    """The shipped reader, then a whole-picture die under SMALL of a big picture gives way to
    the tile dice inside it when two or more are read with a face and found again and cover
    ``COVER`` of it."""

    def _tile_peaks(self, look):
        if self.peaks is None:
            self.peaks = super()._tile_peaks(look)
        return self.peaks

    def _worth_reading(self, boxes, box) -> bool:
        """Whether the peaks ``boxes`` inside the die at ``box`` are read (a later look's
        hook; here, always)."""
        return True

    def _small_dice(self, img, look, dice):
        self.peaks = None
        out = super()._small_dice(img, look, dice)
        if max(look.shape[:2]) <= 1024:
            return out
        peaks = [(b, h) for b, h, small in self._tile_peaks(look) if small]
        result = list(out)
        for die, heat in out:
            others = [d.box for d, _ in result if d is not die]
            boxes = inside(peaks, die.box, others)
            if len(boxes) < 2 or not self._worth_reading(boxes, die.box):
                continue
            read = self._read_each(img, boxes)
            good = [
                d
                for d in read
                if d is not None and d.value is not None and self._found_again(look, d.box)
            ]
            cover = sum(area(d.box) for d in good) / area(die.box)
            if len(good) >= 2:
                self.seen.append((die, good, cover))
            if len(good) >= 2 and cover >= COVER:
                self.gave_way.append((die, good))
                result = [(d, h) for d, h in result if d is not die] + [(d, heat) for d in good]
        return result


def tally(found, truth):
    pairs = match(found, truth)
    right = sum(found[i].face == truth[j][0] for i, j in pairs)
    sure_wrong = sum(found[i].face != truth[j][0] and found[i].value is not None for i, j in pairs)
    return right, sure_wrong, len(found) - len(pairs), len(truth) - len(pairs)


def main() -> None:
    shots = earlier_judge("c36").shots
    sets = {
        "heaps": [heap(s) for s in range(120006, 120012)],
        "shots": list(
            shots(range(120012, 120032), 3000, 4000, (3, 13), (40, 125), lambda s: 6 * (s % 2))
        ),
        "big dice": list(shots(range(120032, 120052), 3000, 4000, (2, 7), (160, 320), lambda s: 8)),
    }
    shipped, cand = DiceReader(), ClumpsGiveWay()
    for name, pictures in sets.items():
        totals = {"shipped": np.zeros(5), "candidate": np.zeros(5)}
        for k, (img, truth) in enumerate(pictures):
            cand.gave_way, cand.seen = [], []
            for who, reader in (("shipped", shipped), ("candidate", cand)):
                t = time.perf_counter()
                found = reader.read(img)
                took = time.perf_counter() - t
                totals[who] += (*tally(found, truth), took)
            for die, good, cover in cand.seen:
                truths = [(lab, b) for lab, b in truth if centre_inside(b, die.box)]
                print(
                    f"  {name} {k}: box side {box_side(die.box)} read {die.face} "
                    f"({die.confidence:.2f}) over {len(truths)} labelled dice "
                    f"{sorted(lab for lab, _ in truths)}; {len(good)} tile dice read in it, "
                    f"covering {cover:.2f}: {sorted(d.face for d in good)}"
                    f"{'; gave way' if cover >= COVER else ''}"
                )
        for who, t in totals.items():
            print(
                f"{name} {who}: right {t[0]:.0f}, confident misreads {t[1]:.0f}, "
                f"boxes on no die {t[2]:.0f}, missed {t[3]:.0f}; {t[4]:.1f} s in all"
            )


if __name__ == "__main__":
    main()
