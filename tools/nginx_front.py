"""``config/nginx.conf`` run on this machine, in front of one app server: for the test that runs it through a real
nginx (tests/multiserver/test_nginx_cache.py) and the hall bench's ``--nginx`` (bench/bench_hall.py).

The file is used as it is but for what a machine without the venue's servers must change, each checked to match
exactly once (the file changed shape otherwise): the upstream servers (one app server here), the listening
address (no TLS), the cache folder, the port-80 redirect server. Plain Python, no Django.
"""
import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def replaced(text, pattern, new):
    out, count = re.subn(pattern, new, text, flags=re.M | re.S)
    if count != 1:
        raise ValueError(f"config/nginx.conf changed shape: {pattern!r} matched {count} times")
    return out


def render(root: Path, app_port: int, port: int, workers: int = 1) -> str:
    """A whole nginx.conf: config/nginx.conf with this machine's server, address and folders in ``root``."""
    text = (REPO / "config" / "nginx.conf").read_text(encoding="utf-8")
    text = replaced(text, r"/var/cache/nginx/tractor", str(root / "cache"))
    text = replaced(text, r"    server 10\.0\.0\.11:8000[^\n]*\n    server 10\.0\.0\.12:8000[^\n]*\n",
                    f"    server 127.0.0.1:{app_port};\n")
    text = replaced(text, r"server \{\n    listen 80;.*?\n\}\n", "")
    text = replaced(text, r"    listen 443 ssl;\n", f"    listen 127.0.0.1:{port} backlog=2048;\n")
    text = replaced(text, r"    ssl_certificate [^\n]*\n    ssl_certificate_key [^\n]*\n", "")
    temp = "\n".join(f"{kind}_temp_path {root / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                      "scgi"))
    user = "user root;" if os.geteuid() == 0 else ""
    return (f"{user}\ndaemon off;\nworker_processes {workers};\npid {root / 'nginx.pid'};\n"
            f"error_log {root / 'error.log'} warn;\nevents {{ worker_connections 4096; }}\n"
            f"http {{\naccess_log off;\n{temp}\n{text}\n}}\n")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(root: Path, app_port: int, workers: int = 1) -> tuple[subprocess.Popen, int]:
    """Start nginx with the rendered file (checked first with ``nginx -t``); the process and its port."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "cache").mkdir(exist_ok=True)
    port = free_port()
    conf = root / "nginx.conf"
    conf.write_text(render(root, app_port, port, workers), encoding="utf-8")
    check = subprocess.run([NGINX, "-t", "-c", str(conf), "-p", str(root)], capture_output=True, text=True)
    if check.returncode != 0:
        raise RuntimeError(check.stderr)
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(root)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError(f"nginx did not start: {(root / 'error.log').read_text(errors='replace')}") from None
            time.sleep(0.1)
