"""Issue 27 item 13: a page switched to English does not mix languages in one sentence. A generated round name
("第1轮") and the stored result notes (bye, walkover, both absent) read in the page's language; a name a person
typed stays as typed. The Chinese cases need the catalogue compiled (`make messages`)."""
import html as html_text
import re

import pytest
from django.db import models
from django.urls import reverse
from django.utils import translation

from tests.conftest import fresh_demo
from tests.tournament.test_draws_support import make_event
from tournament.competition import draws, knockout, stages
from tournament.models import Match, Round, Stage
from tournament.records import notes

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@pytest.mark.django_db
def test_a_generated_round_name_follows_the_language_and_a_typed_one_stays():
    event = make_event(4, 2)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="en")
    first = stage.rounds.get(number=1)
    assert first.name == "第1轮"                       # stored as generated
    with translation.override("en"):
        assert first.label == str(first) == "Round 1"
    with translation.override("zh-hans"):
        assert first.label == "第1轮"
    typed = Round(stage=stage, number=9, name="决胜轮")
    with translation.override("en"):
        assert typed.label == "决胜轮"


def test_stored_notes_read_in_the_page_language():
    with translation.override("en"):
        assert notes.note_words(notes.WALKOVER_NOTE) == "Opponent withdrew: a walkover"
        assert notes.note_words(notes.BYE_NOTE) == "Bye: goes through"
        assert notes.note_words("裁判长判定") == "裁判长判定"   # a person's words stay as written
    with translation.override("zh-hans"):   # needs `make messages`
        assert notes.note_words(notes.WALKOVER_NOTE) == notes.WALKOVER_NOTE


@pytest.mark.django_db
def test_the_english_schedule_names_rounds_and_walkovers_in_english(client):
    event = make_event(4, 2)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="en")
    match = Match.objects.filter(round__stage=stage, round__number=1).first()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.WALKOVER, winner=match.ns,
                                             result_note=notes.WALKOVER_NOTE)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("competition_schedule", args=[event.slug])).content.decode()
    assert "Round 1" in html and "第1轮" not in html
    assert "Opponent withdrew: a walkover" in html and notes.WALKOVER_NOTE not in html
    state = re.search(r'<span class="state">(.*?)<span class="hands-note"', html, re.S)
    assert state and not CJK.search(state.group(1)), state


@pytest.mark.django_db
@pytest.mark.parametrize("groups, label", [(1, "循环赛"), (2, "A组")])
def test_a_match_card_heads_a_lone_group_by_its_stage(client, groups, label):
    """Issue 27 item 15: a single round robin's match cards say its stage, not "A小组" (as its standings)."""
    event = make_event(8, 2)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, name="循环赛", settings={"n_groups": groups})
    draws.draw_groups(stage, seed="lone")
    html = client.get(reverse("competition_schedule", args=[event.slug])).content.decode()
    cards = re.findall(r'<span class="table-no">(.*?)</span>', html)
    assert cards and any(c.endswith(f" · {label}") for c in cards), cards[:3]
    assert all(c.endswith(" · 循环赛") for c in cards) == (groups == 1), cards[:3]
    assert "A小组" not in html


# --------------------------------------------------------------------------- the demo event walked in English
def _typed_names():
    """What people typed (events, venues, organisers, units, teams, pairs, players, accounts) and the draw
    seeds (values to type in again to check a draw): they stay as written in any language."""
    from django.contrib.auth import get_user_model

    from common.names import display_name
    from tournament.models import Draw, Event, Pair, Player, Team, Unit

    names = set()
    for event in Event.objects.all():
        names |= {event.name, event.venue, event.organising_body, f"{event.slug}:团体"}
    for model in (Unit, Team, Pair, Player):
        names |= set(model.objects.values_list("name", flat=True))
    names |= {display_name(user) for user in get_user_model().objects.all()}
    names |= {seed for seed in Draw.objects.values_list("seed", flat=True) if seed}
    return sorted((n for n in names if n), key=len, reverse=True)


def _chinese_left(text, names):
    """The Chinese left in ``text`` once the typed names are taken out, each with its surroundings."""
    for name in names:
        text = text.replace(name, " ")
    return [re.sub(r"\s+", " ", text[max(0, m.start() - 40):m.end() + 40]) for m in CJK.finditer(text)]


def _page_text(html):
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    html = re.sub(r'<option value="zh-hans"[^>]*>[^<]*</option>', " ", html)   # the language menu says 简体中文
    return re.sub(r"<[^>]+>", " ", html)


@pytest.fixture
def demo_event(demo_for_module, db):
    return fresh_demo(demo_for_module)


def test_the_demo_event_in_english_has_no_chinese_outside_names(client, demo_event):
    """Issue 27 item 13: the event's main pages in English: no generated round or stage name, tie-break, crosstable
    cell, placing, hand explanation, colon or list comma in Chinese. Rulings quote the rule profile's Chinese
    offence names (the profile's words), so the pages checked are those without them."""
    event, names = demo_event, _typed_names()
    ruled = set(Match.objects.filter(round__stage__event=event, rulings__isnull=False).values_list("pk", flat=True))
    played = (Match.objects.filter(round__stage__event=event, status=Match.Status.FINISHED, hands__isnull=False)
              .exclude(pk__in=ruled).order_by("pk").first())
    quiet = next(p for p in event.pairs.order_by("pk")
                 if not Match.objects.filter(pk__in=ruled).filter(models.Q(ns=p) | models.Q(ew=p)).exists())
    client.cookies["django_language"] = "en"
    pages = ["/", f"/events/{event.slug}/", reverse("competition_schedule", args=[event.slug]),
             f"/events/{event.slug}/groups/", f"/events/{event.slug}/bracket/", f"/events/{event.slug}/standings/",
             f"/events/{event.slug}/entry/{quiet.pk}/", f"/tables/{played.pk}/", f"/events/{event.slug}/find/?q=zs"]
    for path in pages:
        answer = client.get(path, follow=True)
        assert answer.status_code == 200, path
        html = answer.content.decode()
        assert '<html lang="en"' in html, path
        assert not _chinese_left(_page_text(html), names), (path, _chinese_left(_page_text(html), names)[:5])
    table = html_text.unescape(client.get(f"/tables/{played.pk}/").content.decode())
    assert "declares the next hand" in table and "Defenders' points" in table


def _profile_words(profile):
    """The rule profile's own words a ruling quotes as written: its option labels, notes and clauses that have
    no English twin (``label_en``, ``note_en``, ``clause_en``; the shipped profiles give every one)."""
    from tournament.records.ledger import ledger_for

    words, nodes = set(), [ledger_for(profile).table["offences"]]
    while nodes:
        node = nodes.pop()
        if isinstance(node, dict):
            words |= {node[key] for key in ("label", "note", "clause")
                      if isinstance(node.get(key), str) and not node.get(f"{key}_en")}
            nodes.extend(node.values())
        elif isinstance(node, list):
            nodes.extend(node)
    return words


def test_the_demo_rulings_in_english_name_offences_and_sanctions_in_english(client, demo_event):
    """Issue 27 item 13: the penalty log, an entry's page, a ruled table and its console in English: the
    offences' names (the profile's name_en), the engine's sanction words and the profile's option labels, notes
    and clauses (their English twins) in English; only what people typed (a referee's note) stays as written."""
    from django.contrib.auth import get_user_model

    from rulings.models import Appeal, AppealDecision, Approval, Ruling, RulingVoid

    event = demo_event
    typed = {text for model, key in ((Ruling, "note"), (RulingVoid, "reason"), (Approval, "note"),
                                     (Appeal, "grounds"), (AppealDecision, "reason"))
             for text in model.objects.values_list(key, flat=True) if text}   # the referees' own words
    names = sorted(set(_typed_names()) | _profile_words(event.profile) | typed, key=len, reverse=True)
    ruled = Match.objects.filter(round__stage__event=event, rulings__isnull=False).order_by("pk").first()
    client.force_login(get_user_model().objects.get(username="chief"))
    client.cookies["django_language"] = "en"
    for path in (f"/events/{event.slug}/penalties/", f"/events/{event.slug}/entry/{ruled.ns_id}/",
                 f"/tables/{ruled.pk}/", f"/tables/{ruled.pk}/console/"):
        html = client.get(path, follow=True).content.decode()
        assert '<html lang="en"' in html, path
        assert not _chinese_left(_page_text(html), names), (path, _chinese_left(_page_text(html), names)[:5])
    log = html_text.unescape(client.get(f"/events/{event.slug}/penalties/").content.decode())
    assert "Delaying the game" in log and ": warning" in log
    client.cookies["django_language"] = "zh-hans"
    log = client.get(f"/events/{event.slug}/penalties/").content.decode()
    assert "拖延比赛时间" in log and "Delaying the game" not in log


def test_the_demo_result_sheets_and_standings_print_in_english(demo_event, tmp_path):
    """Issue 27 items 13 and 15: English printouts (read back with pdftotext) show no Chinese outside names (the
    penalties' offences, sanctions and clauses in English too), and no heading breaks inside a word
    ("Declare/r", "Botto/m")."""
    import subprocess

    from tournament.printouts.common import PrintOptions
    from tournament.printouts.services import build_printout

    event, names = demo_event, _typed_names()
    first = Round.objects.get(stage__event=event, stage__order=min(event.stages.values_list("order", flat=True)),
                              number=1)
    for kind, options in (("results", PrintOptions(round=first.pk, lang="en")), ("standings", PrintOptions(lang="en")),
                          ("crosstable", PrintOptions(lang="en")), ("schedule", PrintOptions(lang="en")),
                          ("penalties", PrintOptions(lang="en"))):
        pdf = tmp_path / f"{kind}.pdf"
        pdf.write_bytes(build_printout(kind, event, options))
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert not _chinese_left(text, names), (kind, _chinese_left(text, names)[:5])
        if kind == "results":
            assert "Declarer" in text and "Bottom" in text and "Explanation" in text
            assert "Declare\n" not in text and "Botto\n" not in text
            assert "declares the next hand" in text


def test_hand_explanations_still_read_in_chinese_on_a_chinese_page(client, demo_event):
    """The same table page in Chinese: the engine's lines as written, seats in Chinese (item 14)."""
    played = (Match.objects.filter(round__stage__event=demo_event, status=Match.Status.FINISHED,
                                   hands__isnull=False).order_by("pk").first())
    html = client.get(f"/tables/{played.pk}/").content.decode()
    assert "下一副由" in html and "坐庄" in html and "防家得分" in html
    assert "declares the next hand" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang, heading", [("zh-hans", "净胜级数"), ("en", "Played")])
def test_a_company_league_table_spans_the_page_and_keeps_each_heading_whole(lang, heading, tmp_path):
    """Issue 27 item 15: the company league's standings PDF broke "净胜级数" over two lines. Column widths keep
    the sum the page gives (the table spans the page) and give each heading and each word of a cell its room."""
    import subprocess

    from tests.tournament.test_draws_support import make_event, play_stage
    from tournament.models import Event
    from tournament.printouts.common import PrintOptions
    from tournament.printouts.layout import content_size, fitted_widths
    from tournament.printouts.services import build_printout

    event = make_event(10, 3, profile="company-league", fmt=Event.Format.ROUND_ROBIN, slug=f"league-{lang}")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, name="循环赛")
    draws.draw_groups(stage, seed="7", n_groups=1)
    play_stage(stage)
    pdf = tmp_path / "standings.pdf"
    pdf.write_bytes(build_printout("standings", event, PrintOptions(lang=lang)))
    lines = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    head = next(line for line in lines if line.split()[:1] in (["名次"], ["Place"]))
    assert heading in head, head          # the heading row holds the whole heading, not "净胜级" over "数"
    assert not any("循环赛 · 循环赛" in line for line in lines)      # a lone group is headed by its stage once
    width, _height = content_size()
    widths = fitted_widths([w * width for w in (0.06, 0.17, 0.13, 0.06, 0.06, 0.06, 0.07, 0.06, 0.08, 0.25)],
                           ["Place", "Entry", "Unit", "Played", "Won", "Lost", "Points", "Net levels", "Total levels",
                            "Tie broken by"], [], 8)
    assert sum(widths) == pytest.approx(width)
    assert widths[7] > 0.06 * width      # "levels" needs more than its share: taken from the wide columns


SEAT_CODE = re.compile(r"(?<![A-Za-z0-9_/\-.#])(NS|EW|N|E|S|W)(?![A-Za-z0-9_\-=])")


def test_chinese_pages_name_seats_and_sides_in_chinese(client, demo_event):
    """Issue 27 item 14: Chinese pages say 北/东/南/西 and 南北/东西 (the penalty log's side, an appeal's side,
    the console's declarer), not the codes the API keeps."""
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="chief"))
    playing = Match.objects.filter(round__stage__event=demo_event, status=Match.Status.PLAYING,
                                   hands__isnull=False).order_by("pk").first()
    ruled = Match.objects.filter(round__stage__event=demo_event, rulings__isnull=False).order_by("pk").first()
    for path in (f"/tables/{playing.pk}/console/", f"/tables/{playing.pk}/", f"/events/{demo_event.slug}/penalties/",
                 f"/events/{demo_event.slug}/entry/{ruled.ns_id}/"):
        text = _page_text(client.get(path).content.decode())
        assert not SEAT_CODE.search(text), (path, [text[max(0, m.start() - 20):m.end() + 20]
                                                   for m in SEAT_CODE.finditer(text)][:3])
    console = client.get(f"/tables/{playing.pk}/console/").content.decode()
    assert re.search(r"<b>[北东南西]</b>", console)
