"""Table cards, seat cards and the poster (issue 16): one card per table of a round with the round's entries and
the table's QR code, four seat cards per table, an A4 poster whose QR code opens the event's public page; from
the organiser's printouts page and the command line. Same checks as the other printouts: the Chinese text
extracts, the font is embedded, the QR codes decode (pdftoppm + zxing-cpp) to the right address."""
import io
import shutil
import subprocess

import pytest
import zxingcpp
from django.core.management import CommandError, call_command
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from tests.tournament.test_draws_support import make_event
from tests.tournament.test_printouts import fonts_of, pages_text
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.models import EventRole, Match, PrintJob, Round
from tournament.printouts import services as printout_services
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) not installed")


def qr_codes_by_page(pdf: bytes, tmp_path) -> list[list[str]]:
    """The QR codes' texts on each page (rendered by poppler's pdftoppm, read by zxing-cpp)."""
    source = tmp_path / "cards.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "110", "-png", str(source), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    found = [[r.text for r in zxingcpp.read_barcodes(Image.open(page))] for page in pages]
    for page in pages:
        page.unlink()
    return found


@pytest.fixture
def round_one(db, make_user):
    event = make_event(8, 4, seeds=2, slug="cards")
    event.venue = "莲花山体育馆"
    event.organising_body = "深圳市福田区文体局"
    event.save()
    stage = create_stages_from_format(event)[0]
    draws.draw_groups(stage, seed="cards")
    rnd = Round.objects.get(stage=stage, number=1)
    organiser = make_user()
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    return event, rnd, organiser


def _tables(rnd):
    return list(Match.objects.filter(round=rnd).exclude(table=None)
                .select_related("ns__player1", "ns__player2", "ns__unit", "ew__player1", "ew__player2", "ew__unit")
                .order_by("table"))


@needs_poppler
def test_a_table_card_per_table_with_entries_seats_and_the_tables_qr(round_one, tmp_path):
    event, rnd, _organiser = round_one
    pdf = build_printout("tablecards", event, PrintOptions(round=rnd.pk, site_url="http://192.168.1.20:8000"))
    texts = pages_text(pdf)
    matches = _tables(rnd)
    assert len(texts) == len(matches) == 4
    for page, match in zip(texts, matches):
        lines = page.splitlines()
        assert f"第 {match.table} 桌" in lines
        assert event.name in lines and "小组赛 · 第1轮" in lines and "第 1 页 / 共 4 页" in texts[0]
        flat = page.replace("\n", "")
        for pair, seats in ((match.ns, ("北", "南")), (match.ew, ("东", "西"))):
            assert pair.name in flat and pair.unit.name in flat
            assert f"{seats[0]}：{pair.player1.name}" in flat and f"{seats[1]}：{pair.player2.name}" in flat
        assert f"{match.group.name}组" in flat and "扫码查看本桌级数与每副牌" in flat
    assert qr_codes_by_page(pdf, tmp_path) == [[f"http://192.168.1.20:8000/tables/{m.pk}/"] for m in matches]
    fonts = fonts_of(pdf)
    assert fonts and all(embedded and "WenQuanYiMicroHei" in name for name, embedded in fonts)


def test_seat_cards_north_south_east_west_with_the_players(round_one):
    event, rnd, _organiser = round_one
    pdf = build_printout("seatcards", event, PrintOptions(round=rnd.pk))
    texts = pages_text(pdf)
    matches = _tables(rnd)
    assert len(texts) == len(matches)
    for page, match in zip(texts, matches):
        lines = page.splitlines()
        for seat, player in (("北", match.ns.player1), ("南", match.ns.player2), ("东", match.ew.player1),
                             ("西", match.ew.player2)):
            assert seat in lines and player.name in lines
        assert lines.count(f"第 {match.table} 桌") == 4
        assert any(line.endswith(f"{match.ns.name}（{match.ns.unit.name}）") for line in lines)
    fonts = fonts_of(pdf)
    assert fonts and all(embedded for _name, embedded in fonts)


def test_cards_need_a_round_of_this_event(round_one, tmp_path):
    event, _rnd, _organiser = round_one
    for kind in ("tablecards", "seatcards"):
        with pytest.raises(CommandError, match="--round: 请指定轮次"):
            call_command("printout", kind, "--event", event.slug, "--output", str(tmp_path / "x.pdf"))
        with pytest.raises(CommandError, match="--round: 本赛事没有轮次 999999"):
            call_command("printout", kind, "--event", event.slug, "--round", "999999",
                         "--output", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


@needs_poppler
def test_command_line_prints_table_cards_at_the_site_url(round_one, tmp_path, settings):
    event, rnd, _organiser = round_one
    settings.SITE_URL = "http://10.0.0.5:8000"
    out = tmp_path / "out" / "cards.pdf"
    call_command("printout", "tablecards", "--event", event.slug, "--round", str(rnd.pk), "--output", str(out))
    first = _tables(rnd)[0]
    assert qr_codes_by_page(out.read_bytes(), tmp_path)[0] == [f"http://10.0.0.5:8000/tables/{first.pk}/"]
    call_command("printout", "seatcards", "--event", event.slug, "--round", str(rnd.pk), "--output", str(out))
    assert "北" in PdfReader(str(out)).pages[0].extract_text()


@needs_poppler
def test_poster_has_name_dates_venue_and_the_event_pages_qr(round_one, client, settings, tmp_path):
    event, _rnd, organiser = round_one
    settings.ALLOWED_HOSTS = ["192.168.7.20"]
    client.force_login(organiser)
    response = client.get(reverse("printout_download", args=[event.slug, "poster"]), HTTP_HOST="192.168.7.20:8123")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1 and reader.pages[0].mediabox.height > reader.pages[0].mediabox.width
    text = reader.pages[0].extract_text().replace("\n", "")
    for part in (event.name, "2026-12-05", "莲花山体育馆", "深圳市福田区文体局", "扫码查看赛程、对阵与成绩"):
        assert part in text
    assert "第 1 页" not in text  # a whole page for the wall
    assert qr_codes_by_page(response.content, tmp_path) == [[f"http://192.168.7.20:8123/events/{event.slug}/"]]
    fonts = fonts_of(response.content)
    assert fonts and all(embedded for _name, embedded in fonts)


def test_printouts_page_offers_the_cards_and_the_poster(round_one, client):
    event, rnd, organiser = round_one
    client.force_login(organiser)
    html = client.get(reverse("printouts", args=[event.slug])).content.decode()
    for kind, title in (("tablecards", "桌号牌"), ("seatcards", "座位牌"), ("poster", "赛事海报")):
        assert reverse("printout_download", args=[event.slug, kind]) in html and title in html
    assert html.count('<select name="round" required>') == 2  # the cards cannot be built without a round
    response = client.get(reverse("printout_download", args=[event.slug, "seatcards"]), {"round": rnd.pk})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    refused = client.get(reverse("printout_download", args=[event.slug, "tablecards"]))
    assert refused.status_code == 400 and "请指定轮次" in refused.content.decode()


def test_a_rounds_cards_build_in_the_background_with_progress(round_one, django_capture_on_commit_callbacks,
                                                              monkeypatch):
    event, rnd, _organiser = round_one
    seen = []
    monkeypatch.setattr(printout_services, "PROGRESS_STEP", 1)
    original = printout_services._progress_writer

    def spy(job, now):
        write = original(job, now)

        def report(done, total):
            write(done, total)
            seen.append(PrintJob.objects.get(pk=job.pk).progress)

        return report

    monkeypatch.setattr(printout_services, "_progress_writer", spy)
    for kind in ("tablecards", "seatcards"):
        with django_capture_on_commit_callbacks(execute=False) as sent:
            job, created = printout_services.request_job(kind, event, PrintOptions(round=rnd.pk))
        assert created and len(sent) == 1
        job = printout_services.run_job(job.pk)
        assert job.status == PrintJob.Status.DONE and job.progress == 100
        assert len(PdfReader(job.file.open("rb")).pages) == len(_tables(rnd))
    assert seen[:3] == [25, 50, 75]
