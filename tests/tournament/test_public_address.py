"""The public address (issue 11): a score sheet printed from the web carries a QR code that decodes to the
address the request reached the site by; the command line takes ``--site-url`` (else ``SITE_URL``)."""
import shutil
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from django.core.management import call_command
from PIL import Image

from tests.tournament.test_draws_support import make_event
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.models import EventRole, Match


def decode_qr_codes(pdf: bytes, tmp_path: Path) -> list[str]:
    """Every QR code's text on the PDF's first page (rendered by poppler's pdftoppm, read by zxing-cpp)."""
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-png", str(source), str(tmp_path / "page")],
                   check=True)
    page = next(tmp_path.glob("page*.png"))
    return [r.text for r in zxingcpp.read_barcodes(Image.open(page))]


@pytest.fixture
def drawn(db, make_user):
    event = make_event(8, 4, published=True, slug="qr-event")
    stage = create_stages_from_format(event)[0]
    draws.draw_groups(stage, seed="qr")
    organiser = make_user()
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    match = Match.objects.filter(round__stage=stage, ns__isnull=False).order_by("round__number", "table").first()
    return event, match, organiser


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) not installed")
def test_score_sheet_qr_decodes_to_the_host_and_port_of_the_request(client, drawn, settings, tmp_path):
    event, match, organiser = drawn
    settings.ALLOWED_HOSTS = ["192.168.7.20"]
    settings.SITE_URL = "http://127.0.0.1:8000"
    client.force_login(organiser)
    response = client.get(f"/manage/{event.slug}/printouts/scoresheets.pdf?match={match.pk}",
                          HTTP_HOST="192.168.7.20:8123")
    assert response.status_code == 200, response.content[:300]
    assert decode_qr_codes(response.content, tmp_path) == [f"http://192.168.7.20:8123/tables/{match.pk}/"]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) not installed")
def test_command_line_takes_site_url(drawn, settings, tmp_path):
    event, match, _organiser = drawn
    settings.SITE_URL = "http://10.0.0.5:8000"
    out = tmp_path / "a.pdf"
    call_command("printout", "scoresheets", "--event", event.slug, "--match", str(match.pk), "--output", str(out))
    assert decode_qr_codes(out.read_bytes(), tmp_path) == [f"http://10.0.0.5:8000/tables/{match.pk}/"]
    for png in tmp_path.glob("page*.png"):
        png.unlink()
    call_command("printout", "scoresheets", "--event", event.slug, "--match", str(match.pk), "--output", str(out),
                 "--site-url", "http://192.168.1.20:8000/")
    assert decode_qr_codes(out.read_bytes(), tmp_path) == [f"http://192.168.1.20:8000/tables/{match.pk}/"]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) not installed")
def test_staff_card_qr_opens_the_login_page_at_the_request_address(client, drawn, settings, tmp_path):
    event, _match, organiser = drawn
    settings.ALLOWED_HOSTS = ["192.168.7.20"]
    client.force_login(organiser)
    made = client.post(f"/events/{event.slug}/staff/", {"role": "table_referee", "display_name": "王裁判"},
                       HTTP_HOST="192.168.7.20:8123")
    password = made.context["created"]["password"]
    user_id = made.context["created"]["row"].user_id
    card = client.post(f"/events/{event.slug}/staff/card/", {"user_id": user_id, "password": password},
                       HTTP_HOST="192.168.7.20:8123")
    assert card.status_code == 200 and card["Content-Type"] == "application/pdf"
    assert decode_qr_codes(card.content, tmp_path) == ["http://192.168.7.20:8123/accounts/login/"]
    assert b"FontFile2" in card.content  # the CJK TrueType font is embedded
