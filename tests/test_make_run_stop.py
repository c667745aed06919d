"""``make run``'s stop: Ctrl-C (or a TERM) ends the server and the worker once. Its trap used to call ``kill 0``
with the trap still set, so the shell signalled itself again and again (thousands of "Warm shutdown" lines, the
shell crashing, a Celery worker left running). The recipe is run here with ``sleep`` for the two programs, and
once as it is: gunicorn and the Celery worker."""
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import REPO, subprocess_env, wait_for


def recipe_line() -> str:
    """The shell line of the Makefile's ``run`` target that starts the worker and the server."""
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", text, re.M).group(1)
    line = next(part for part in recipe.replace("\\\n\t", " ").splitlines() if "trap" in part).strip().lstrip("@")
    line = line.replace("$(SERVE_ENV) ", "")   # a real event's settings (DEMO=0): not the stop's concern
    return line.replace("$$", "$")


def run_recipe() -> str:
    """The run line, the worker and the server replaced by ``sleep 60``."""
    line = re.sub(r"\$\(BIN\)/celery [^&;]*", "sleep 60 ", recipe_line())
    return re.sub(r"\$\(BIN\)/gunicorn [^&;]*", "sleep 60 ", line)


def left_in(group: int, seconds: float = 5) -> list:
    """The processes still in the process group, waited for a few seconds (a dying one may take a moment)."""
    left = wait_for(lambda: not members(group), timeout=seconds, interval=0.1)
    return [] if left else members(group)


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.worker
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_ctrl_c_or_a_term_stops_the_real_server_and_worker(transactional_db, stop):
    """The run line as it is (gunicorn and its workers, the Celery worker with beat) against the test database:
    Ctrl-C (an INT to the terminal's whole process group) or a TERM to the group leaves no process of the run
    behind. Each process gets the group's signal and then the recipe's own TERM: a prefork worker given a second
    signal during its warm shutdown hung for good (a new organiser stopping make run with a TERM), a threads
    pool's does not."""
    port = free_port()
    line = (recipe_line().replace("$(BIN)", str(Path(sys.executable).parent))
            .replace("$(HOST)", "127.0.0.1").replace("$(PORT)", str(port)))
    env = {**subprocess_env(), "GUNICORN_WORKERS": "2"}
    shell = subprocess.Popen(["sh", "-c", line], cwd=REPO, env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def answers():
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2).status == 200
            except OSError:
                return False
        assert wait_for(answers, timeout=60), "the server never answered"
        # the whole run up: sh, gunicorn and its 2 workers, Celery (its pool is threads) and its beat (a beat
        # started after the signal misses it and runs on: Celery's race, not the recipe's)
        assert wait_for(lambda: len(members(shell.pid)) >= 6, timeout=30), described(members(shell.pid))
        os.killpg(shell.pid, stop)
        shell.wait(timeout=30)
        left = left_in(shell.pid, seconds=45)   # the worker's warm shutdown (beat, unacknowledged tasks) on a busy machine
        what = described(left)
    finally:
        if members(shell.pid):
            os.killpg(shell.pid, signal.SIGKILL)
    assert left == [], what


def described(pids: list) -> str:
    """What the processes left are (their command lines and states), for a failure to say."""
    if not pids:
        return ""
    return subprocess.run(["ps", "-ww", "-o", "pid,ppid,stat,etime,args", "-p", ",".join(pids)], capture_output=True,
                          text=True).stdout


def members(group: int) -> list:
    return subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True).stdout.split()
