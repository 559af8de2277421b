"""The rulebook's scoring example ("Scoring Example", The Score) as a test.

tests/data/first_island/rulebook_example.json is a board on the default island
built to match every count the example states; the engine must score it 81 with
the same breakdown line by line.
"""

import json
from pathlib import Path

from companion.games.first_island.boardfile import parse_board

BOARD = Path(__file__).parent.parent / "data" / "first_island" / "rulebook_example.json"


def test_scoring_example_totals_81_line_by_line():
    b = parse_board(json.loads(BOARD.read_text())).score()
    t = b["tribes"]
    # "I have 10 scorable Scavenger (yellow) placements"
    assert (t["scavengers"]["placements"], t["scavengers"]["scorable"]) == (10, 10)
    # "I have 7 scorable Builder (red) placements"
    assert (t["builders"]["placements"], t["builders"]["scorable"]) == (7, 7)
    # "I have 11 Scholar placements, but only 8 are scorable ... I score 5 Scholar points"
    assert (t["scholars"]["placements"], t["scholars"]["scorable"], t["scholars"]["base"]) == (
        11,
        8,
        5,
    )
    # "I have 6 Matriarchy placements, but only 4 are scorable. I score 2"
    assert (
        t["matriarchy"]["placements"],
        t["matriarchy"]["scorable"],
        t["matriarchy"]["base"],
    ) == (6, 4, 2)
    # "I have 7 scorable Healer (green) placements"
    assert (t["healers"]["placements"], t["healers"]["scorable"]) == (7, 7)
    # "I have 9 Scientist placements, but only 8 are scorable. I score 7 Scientist points"
    assert (
        t["scientists"]["placements"],
        t["scientists"]["scorable"],
        t["scientists"]["base"],
    ) == (9, 8, 7)
    # "4 Scavenger placements on the outside of the island ... 4 Scavenger bonus points"
    assert t["scavengers"]["detail"]["on_coast"] == 4 and t["scavengers"]["request"] == 4
    # "2 hexes which contain only a Builder placement, giving me 6 Builder bonus points"
    assert t["builders"]["detail"]["large_hexes"] == 2 and t["builders"]["request"] == 6
    # "3 Scholar placements adjacent to Scavenger placements ... 3 Scholar bonus points";
    # "3 Scholar placements along the edge of the board, giving me 6 Scholar penalty points"
    assert t["scholars"]["detail"] == {"next_to_scavengers": 3, "on_coast": 3}
    assert t["scholars"]["request"] == 3 - 6
    # "all in a single camp, so my largest camp is 4, giving me 4 Matriarchy bonus points"
    assert t["matriarchy"]["detail"]["largest_camp"] == 4 and t["matriarchy"]["request"] == 4
    # "Healers share a hex with Matriarchy, Scientists, Builders and Scavengers ... 8"
    assert t["healers"]["detail"]["share_hex_with"] == [
        "builders",
        "matriarchy",
        "scavengers",
        "scientists",
    ]
    assert t["healers"]["request"] == 8
    # "Scientists are split into 2 camps, giving me 4 Scientist bonus points"
    assert t["scientists"]["detail"]["camps"] == 2 and t["scientists"]["request"] == 4
    # "I used 2 tribe overrides, giving me -2 points"
    assert b["overrides"] == -2
    # "I completed an 8-point, 10-point and 4-point grid ... 22 camp card points"
    assert b["camp_cards"] == 22
    # "My total score is: 81 points"
    assert b["total"] == 81
