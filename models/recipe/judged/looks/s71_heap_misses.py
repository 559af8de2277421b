"""Session 71's look after C55 (decides nothing): sessions 67's and 68's looks run again,
unchanged, on fresh design heaps, with the reader as it now ships (C55): where a dense
heap's missed dice are lost (``s67_heap_misses.where_lost``), and for those whose tile
peaks were left unread beside another box, what kept them out (``s68_heap_blockers``), as
session 70's look (``s70_heap_misses.py``) read them after C53. Rendered heaps as session
65's look makes them, at design seeds 120464 to 120471 (judging nothing). Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s71_heap_misses.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s67_heap_misses
import s68_heap_blockers

SEEDS = range(120464, 120472)

if __name__ == "__main__":
    s67_heap_misses.SEEDS = s68_heap_blockers.SEEDS = SEEDS
    s67_heap_misses.main()
    s68_heap_blockers.main()
