"""Issue 29 "Done when" (part): a typed client generated from the live schema by openapi-python-client
(offline, from the installed package) passes mypy. The integrator's flow with it is still to be written."""
import json
import subprocess
import sys
from pathlib import Path

from django.test import Client

BIN = Path(sys.executable).parent


def test_a_client_generated_from_the_live_schema_passes_mypy(db, tmp_path):
    schema = tmp_path / "schema.json"
    schema.write_bytes(Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    assert json.loads(schema.read_text())["paths"]
    (tmp_path / "cfg.yaml").write_text("post_hooks: []\npackage_name_override: tractor_client\n")
    package = tmp_path / "tractor_client"
    subprocess.run([BIN / "openapi-python-client", "generate", "--path", schema, "--output-path", package,
                    "--meta", "none", "--config", tmp_path / "cfg.yaml"], check=True, timeout=120, capture_output=True)
    assert (package / "api" / "events" / "events_rounds_list.py").exists()
    typed = subprocess.run([BIN / "mypy", "--no-incremental", "--ignore-missing-imports", package],
                           timeout=300, capture_output=True, text=True)
    assert typed.returncode == 0, typed.stdout
