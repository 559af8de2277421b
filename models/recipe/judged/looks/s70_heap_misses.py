"""Session 70's look after C53 (decides nothing): sessions 67's and 68's looks run again,
unchanged, on fresh design heaps, with the reader as it now ships: where a dense heap's
missed dice are lost (``s67_heap_misses.where_lost``), and for those whose tile peaks were
left unread beside another box, what kept them out (``s68_heap_blockers``). Rendered heaps
as session 65's look makes them, at design seeds 120320 to 120327 (judging nothing). Run
from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s70_heap_misses.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s67_heap_misses
import s68_heap_blockers

SEEDS = range(120320, 120328)

if __name__ == "__main__":
    s67_heap_misses.SEEDS = s68_heap_blockers.SEEDS = SEEDS
    s67_heap_misses.main()
    s68_heap_blockers.main()
