"""``make run``'s stop: Ctrl-C (or a TERM) ends the server and the worker once. Its trap used to call ``kill 0``
with the trap still set, so the shell signalled itself again and again (thousands of "Warm shutdown" lines, the
shell crashing, a Celery worker left running). The recipe is run here with ``sleep`` for the two programs."""
import os
import re
import signal
import subprocess
import time

from tests.conftest import REPO


def run_recipe() -> str:
    """The shell line of the Makefile's ``run`` target, the worker and the server replaced by ``sleep 60``."""
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", text, re.M).group(1)
    line = next(part for part in recipe.replace("\\\n\t", " ").splitlines() if "trap" in part).strip().lstrip("@")
    line = line.replace("$(SERVE_ENV) ", "")   # a real event's settings (DEMO=0): not the stop's concern
    line = re.sub(r"\$\(BIN\)/celery [^&;]*", "sleep 60 ", line)
    line = re.sub(r"\$\(BIN\)/python manage.py runserver [^&;]*", "sleep 60 ", line)
    return line.replace("$$", "$")


def left_in(group: int) -> list:
    """The processes still in the process group, waited for a few seconds (a dying one may take a moment)."""
    for _ in range(50):
        left = subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True).stdout.split()
        if not left:
            return []
        time.sleep(0.1)
    return left


def test_a_term_stops_the_run_once():
    shell = subprocess.Popen(["sh", "-c", run_recipe()], start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    os.killpg(shell.pid, signal.SIGTERM)
    try:
        shell.wait(timeout=10)
        left = left_in(shell.pid)
    finally:
        if shell.poll() is None or subprocess.run(["pgrep", "-g", str(shell.pid)], capture_output=True).stdout:
            os.killpg(shell.pid, signal.SIGKILL)
    assert shell.returncode in (-signal.SIGTERM, 128 + signal.SIGTERM), shell.returncode  # not a crash (-11)
    assert left == []
