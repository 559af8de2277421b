"""Session 59, a look after C44 shipped (deciding nothing): `bench settle`'s live rests of the
dev photos (epanemu and matteop65, 20 still frames each, as the benchmark makes them from the
held-out photos), read by the reader before C44 (reader.py at C44's rule's commit, loaded
from git) and by the reader with C44, each feeding a settler that expects the labelled dice.
Held-out, one rest went from a roll to confirm to no event after C44; this asks whether C44
makes a rest's frames disagree (a second box kept in one frame and not the next) on photos
that are not reported. Prints each photo whose outcome differs, and the tallies. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s59_settle_dev.py ../shared/data/dice
"""

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge

from companion.bench_settle import _shipped, rests
from companion.vision.reader import DiceReader

c44 = earlier_judge("c44")


def main(data: Path) -> None:
    readers = {
        "before C44": c44.c39.c37.c35.shipped_reader(c44.RULE_COMMIT),
        "C44": DiceReader(threads=1),
    }
    outcomes = {name: {} for name in readers}
    for name, reader in readers.items():
        for _, fn, rest in rests(reader, data, "dev", 20, 0, {"shipped": _shipped}):
            outcomes[name][fn] = rest["shipped"].outcome
    for fn in outcomes["C44"]:
        if outcomes["C44"][fn] != outcomes["before C44"][fn]:
            print(f"{fn[:40]}: {outcomes['before C44'][fn]} -> {outcomes['C44'][fn]}")
    for name, got in outcomes.items():
        print(name, dict(sorted(Counter(got.values()).items())))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
