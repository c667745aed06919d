"""Defects the simulator finds that other branches are fixing: the checks consult this set so this branch
stays green. Drop an entry when its fix is merged (the lead empties the set): a seed that still shows the
defect then fails, and the regression cases of test_simulator.py fail while the fix is missing.

Each key is a check's defect key (tests/simulator/checks.py and the observer in test_simulator.py), with a
one-line description; the seeds that show it are in the comment above it.
"""

KNOWN_DEFECTS: dict[str, str] = {}
