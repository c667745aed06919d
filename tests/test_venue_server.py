"""The venue's server (issue 44 item 2): no connection can freeze it. ``make run`` and the README's deployment
serve with the same gunicorn settings (``config/gunicorn.py``); a request refused before its body is read leaves
no bytes on its kept-alive connection (``infra.middleware.BodyDrainedMiddleware``), so idle phones after refused
POSTs hold no worker, and a body longer than the app reads ends its connection."""
import re
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.conftest import REPO, subprocess_env, wait_for
from tests.test_make_run_stop import free_port, recipe_line

SERVE = "gunicorn config.wsgi -c config/gunicorn.py"


def test_make_run_and_the_readme_serve_with_the_same_gunicorn_settings():
    assert f"$(BIN)/{SERVE} --bind $(HOST):$(PORT)" in recipe_line()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^\.venv/bin/gunicorn .*$", readme, re.M)
    assert commands and all(command.startswith(f".venv/bin/{SERVE} ") for command in commands), commands


@pytest.fixture
def server(transactional_db):
    """gunicorn as make run starts it (config/gunicorn.py), two single-thread workers, on the test database."""
    port = free_port()
    env = {**subprocess_env(), "GUNICORN_WORKERS": "2", "GUNICORN_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.py",
                             "--bind", f"127.0.0.1:{port}"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: status(port, "/accounts/login/") == 200, timeout=60), "gunicorn never answered"
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def status(port, path, timeout=2.0):
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout).status
    except OSError:
        return None


def refused_post(port, path, body: bytes, declared: int | None = None) -> tuple[socket.socket, bytes]:
    """A kept-alive connection that sent one POST the server refuses without reading its body; left open. The
    body follows the head a moment later, as a phone's does over Wi-Fi (sent with it, the server's first read
    would take it whole into its buffer)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=5)
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n"
            f"Content-Type: application/json\r\nContent-Length: {declared or len(body)}\r\n\r\n")
    conn.sendall(head.encode())
    time.sleep(0.2)
    conn.sendall(body)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = conn.recv(65536)
        if not chunk:
            break
        answer += chunk
    return conn, answer


@pytest.mark.worker
def test_idle_connections_after_refused_posts_freeze_nothing(server):
    body = b'{"name": "' + b"x" * 40_000 + b'"}'
    idle = [refused_post(server, path, body) for path in ("/api/events/", "/api/events/", "/api/schema/", "/accounts/login/")]
    try:
        assert [answer.split(b" ")[1] for _, answer in idle] == [b"401", b"401", b"405", b"403"], idle
        time.sleep(0.5)   # the workers' pollers have seen whatever was left on the idle connections
        started = time.monotonic()
        assert [status(server, "/accounts/login/", timeout=5) for _ in range(6)] == [200] * 6
        assert time.monotonic() - started < 15
    finally:
        for conn, _ in idle:
            conn.close()


@pytest.mark.worker
def test_a_body_longer_than_the_app_reads_ends_its_connection(server, settings):
    conn, answer = refused_post(server, "/api/events/", b"{}", declared=settings.MAX_REQUEST_BYTES + 1)
    try:
        assert answer.split(b" ")[1] == b"413" and b"connection: close" in answer.lower()
    finally:
        conn.close()
    assert status(server, "/accounts/login/", timeout=5) == 200
