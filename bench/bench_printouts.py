"""Printout figures: 256 score sheets in one PDF (target < 5 s, < 300 MB) and a 128-entry bracket (< 1 s).

Renders from plain data (the same dataclasses the builders collect), so the figures are the PDF
drawing itself. Prints the figures only. Run: ``.venv/bin/python bench/bench_printouts.py``.
"""
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from tests.tournament.test_printouts_data import synthetic_bracket, synthetic_scoresheets  # noqa: E402
from tournament.printouts import bracket, scoresheets  # noqa: E402
from tournament.printouts.fonts import register_font  # noqa: E402


def peak_rss_mb():
    """This process's peak resident memory so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(label, build):
    """Time one build (no tracing: tracemalloc would slow it several times), then its peak allocation."""
    started = time.perf_counter()
    pdf = build()
    seconds = time.perf_counter() - started
    tracemalloc.start()
    build()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{label}: {seconds:.2f} s, peak allocation {peak / 2**20:.1f} MB (tracemalloc), "
          f"process peak RSS {peak_rss_mb():.0f} MB, PDF {len(pdf) / 2**10:.0f} KB")


def main():
    register_font()  # loading the font file once is start-up, not part of a build
    with translation.override("zh-hans"):
        sheets = synthetic_scoresheets(256)
        measure("256 score sheets", lambda: scoresheets.render(sheets))
        data = synthetic_bracket(128)
        measure("128-entry bracket", lambda: bracket.render(data))


if __name__ == "__main__":
    main()
