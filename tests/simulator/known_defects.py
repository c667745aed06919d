"""Defects the simulator finds that other branches are fixing: the checks consult this set so this branch
stays green. Empty it (or drop an entry) when the fix is merged: the regression cases in test_simulator.py
then fail until the fix is there.

Each key is a check's defect key (tests/simulator/checks.py); the seed that reproduces it is in the comment.
"""

KNOWN_DEFECTS = {
    # seed 6 (knockout with byes): tournament/clocks/display.py build_display_data sorts rows by
    # (table, match_id) and a bye has no table: the desk, its state poll, /api/rounds/<id>/clock/ and the
    # hall display answer 500 once a hand is recorded in a round with a bye
    "server_error_bye_round": "a round with a bye: desk, desk state, round clock API and hall display answer 500",
}
