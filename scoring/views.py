"""Pages of the scoring app: the table page a referee keeps open on a phone."""
import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render

from scoring.table_page import table_context, table_match


def table(request, match_id):
    """The table page: both sides' levels, who declares, the form for the next hand, the hand history.

    Anyone who may see the event may read it; the form appears for the referees allowed to record.
    """
    match = table_match(request.user, match_id)
    return render(request, "scoring/table.html", table_context(request, match))


#: The service worker's source (static/js/sw.js); its version is filled in when served.
SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


@cache
def build_version() -> str:
    """A digest of this build's static files and templates: a deploy that changes any of them gives the
    service worker a new cache (the old one is deleted), so an old cached page is never served after it."""
    digest = hashlib.sha256()
    for folder in ("static", "templates"):
        for path in sorted((Path(settings.BASE_DIR) / folder).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(settings.BASE_DIR)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def service_worker(request):
    """The table page's and the console's service worker, served under /tables/ so its scope covers both."""
    source = SERVICE_WORKER.read_text(encoding="utf-8").replace("__VERSION__", build_version())
    response = HttpResponse(source, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
