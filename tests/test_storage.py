"""Files every machine shares: infra.storage.DatabaseStorage, and the settings that choose the file store,
the cache and the sessions (issue 15, item 3: app servers and workers keep no state of their own)."""
import json
import os
import subprocess
import sys
import tracemalloc

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from infra.models import StoredFile
from infra.storage import DatabaseStorage
from tests.conftest import REPO
from tests.tournament.test_printouts_data import (  # noqa: F401  (fixtures)
    build_event_content,
    chief,
    event,
    first_round,
    played_match,
)
from tournament import roles
from tournament.models import PrintJob
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import request_job, run_job

DATABASE = {"BACKEND": "infra.storage.DatabaseStorage"}


@pytest.fixture
def database_storage(settings):
    """The default storage switched to the database (as DJANGO_FILE_STORAGE=database does)."""
    settings.STORAGES = {**settings.STORAGES, "default": DATABASE}
    assert isinstance(storages["default"], DatabaseStorage)
    return storages["default"]


@pytest.mark.django_db
def test_save_open_size_list_and_delete(database_storage):
    storage = database_storage
    name = storage.save("printouts/a.pdf", ContentFile(b"%PDF-1.7 first"))
    assert name == "printouts/a.pdf" and storage.exists(name)
    with storage.open(name) as handle:
        assert handle.read() == b"%PDF-1.7 first"
    assert storage.size(name) == len(b"%PDF-1.7 first")
    assert storage.get_modified_time(name) == StoredFile.objects.get(name=name).created_at

    second = storage.save("printouts/a.pdf", ContentFile(b"second"))  # a taken name gets a free one
    assert second != name and second.startswith("printouts/a_") and second.endswith(".pdf")
    assert storage.open(name).read() == b"%PDF-1.7 first" and storage.open(second).read() == b"second"
    storage.save("top.txt", ContentFile(b"x"))
    assert storage.listdir("") == (["printouts"], ["top.txt"])
    assert storage.listdir("printouts") == ([], sorted(["a.pdf", second.split("/")[1]]))

    storage.delete(name)
    assert not storage.exists(name) and storage.exists(second)
    with pytest.raises(FileNotFoundError):
        storage.open(name)
    with pytest.raises(FileNotFoundError):
        storage.size(name)
    with pytest.raises(ValueError):
        storage.open(second, "wb")


@pytest.mark.django_db
def test_a_name_taken_meanwhile_by_another_machine_gets_a_free_one(database_storage, monkeypatch):
    """Two workers saving the same name at once: the unique name refuses the second row, which is stored
    under a new free name instead of failing or overwriting."""
    storage = database_storage
    StoredFile.objects.create(name="printouts/race.pdf", content=b"the other machine's", size=19)
    real_available = DatabaseStorage.get_available_name
    calls = []

    def stale_available(self, name, max_length=None):  # the first look happened before the other's insert
        calls.append(name)
        return name if len(calls) == 1 else real_available(self, name, max_length)

    monkeypatch.setattr(DatabaseStorage, "get_available_name", stale_available)
    name = storage.save("printouts/race.pdf", ContentFile(b"mine"))
    assert name != "printouts/race.pdf" and len(calls) == 2
    assert storage.open("printouts/race.pdf").read() == b"the other machine's"
    assert storage.open(name).read() == b"mine"



@pytest.mark.django_db
def test_a_large_file_is_written_and_read_without_copies_as_text(database_storage):
    """A few MB of PDF go to PostgreSQL and back as binary (the ORM's client-side binding would build the
    bytes as hex text, several copies of the file in this process's memory: 8 MB for 2 MB before)."""
    if connection.vendor != "postgresql":
        pytest.skip("the copies are PostgreSQL's text binding")
    payload = os.urandom(2 * 2**20)  # not compressible, with every byte value
    with CaptureQueriesContext(connection) as queries:
        tracemalloc.start()
        name = database_storage.save("printouts/large.pdf", ContentFile(payload))
        _current, written_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert any("INSERT" in q["sql"] for q in queries)  # seen by Django's query log like any other query
    tracemalloc.start()
    with database_storage.open(name) as handle:
        assert handle.read() == payload
    _current, read_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert database_storage.size(name) == len(payload)
    assert written_peak < 2.5 * len(payload), written_peak  # the joined chunks, and nothing as text
    assert read_peak < 2 * len(payload), read_peak  # the row's bytes, shared by the file and what was read


@pytest.mark.django_db
def test_a_print_job_is_stored_in_the_database_and_downloaded_from_it(
        database_storage, client, event, first_round, make_user, django_capture_on_commit_callbacks, settings):
    """The PDF a worker built is a database row, not a file under this machine's var/ folder."""
    media = settings.MEDIA_ROOT
    before = set(media.rglob("*")) if media.exists() else set()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = request_job("scoresheets", event, PrintOptions(round=first_round.pk))
    job = run_job(job.pk)
    assert job.status == PrintJob.Status.DONE
    row = StoredFile.objects.get(name=job.file.name)
    assert bytes(row.content).startswith(b"%PDF") and row.size == len(bytes(row.content))
    assert (set(media.rglob("*")) if media.exists() else set()) == before

    client.force_login(make_user(roles.ORGANISER))
    response = client.get(reverse("printout_job_file", args=[event.slug, job.pk]))
    body = b"".join(response.streaming_content)
    assert response.status_code == 200 and body == bytes(row.content)
    assert len(PdfReader(job.file.open("rb")).pages) == first_round.matches.count()


def settings_in_a_fresh_process(**env):
    """The storage, cache and session settings as a new process with this environment reads them."""
    code = ("import json, django; from django.conf import settings as s; django.setup(); "
            "print(json.dumps({'storage': s.STORAGES['default'], 'cache': s.CACHES['default']['BACKEND'], "
            "'session': s.SESSION_ENGINE}))")
    base = {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_FILE_STORAGE", "DJANGO_CACHE")}
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                            env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env})
    if result.returncode:
        return result.stderr
    return json.loads(result.stdout)


def test_the_default_stays_on_this_machine_and_the_servers_share_the_rest(tmp_path):
    var = str(tmp_path)
    alone = settings_in_a_fresh_process(DJANGO_VAR_DIR=var)
    assert alone["storage"]["BACKEND"] == "django.core.files.storage.FileSystemStorage"
    assert alone["cache"].endswith("FileBasedCache") and alone["session"].endswith("backends.db")

    postgres = settings_in_a_fresh_process(DJANGO_VAR_DIR=var, DATABASE_URL="postgres://u@127.0.0.1:5432/x",
                                           DJANGO_FILE_STORAGE="database", DJANGO_CACHE="database")
    assert postgres["storage"] == DATABASE
    assert postgres["cache"].endswith("DatabaseCache")  # shared by every machine, not a var/ folder

    redis = settings_in_a_fresh_process(DJANGO_VAR_DIR=var, REDIS_URL="redis://127.0.0.1:6379/0",
                                        DJANGO_FILE_STORAGE="s3", AWS_STORAGE_BUCKET_NAME="prints",
                                        AWS_S3_ENDPOINT_URL="http://127.0.0.1:9000")
    assert redis["cache"].endswith("RedisCache") and redis["session"].endswith("cached_db")
    assert redis["storage"]["BACKEND"] == "storages.backends.s3.S3Storage"
    assert redis["storage"]["OPTIONS"]["bucket_name"] == "prints"
    assert redis["storage"]["OPTIONS"]["endpoint_url"] == "http://127.0.0.1:9000"
    assert redis["storage"]["OPTIONS"]["default_acl"] is None

    assert "DJANGO_FILE_STORAGE must be one of" in settings_in_a_fresh_process(DJANGO_VAR_DIR=var,
                                                                               DJANGO_FILE_STORAGE="nfs")
    assert "DJANGO_CACHE must be one of" in settings_in_a_fresh_process(DJANGO_VAR_DIR=var, DJANGO_CACHE="memory")
