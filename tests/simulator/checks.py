"""What the simulator asserts of every answer, printout and export: each check returns problems as
``(defect key, text)``; the key names the kind of problem, so a known defect (``known_defects.KNOWN_DEFECTS``)
can be told apart from a new one.
"""
from __future__ import annotations

import html
import re

from common.errors import UserError
from scoring.replay_check import check_event as replay_mismatches
from tournament.competition import placings
from tournament.competition.group_standings import check_event as standings_mismatches
from tournament.models import Match, Pair, Round

from . import table_rules

# --- text on a Chinese page ---------------------------------------------------------------------------------

_SCRIPT = re.compile(r"<(script|style|template|svg)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
ALLOWED_WORDS = {
    "English", "PDF", "pdf", "xlsx", "csv", "CSV", "UTF", "GBK", "API", "JSON", "Excel", "Tractor", "QR", "ETag",
    "NS", "EW", "zhangsan", "JOKER", "Joker", "Wi-Fi", "WiFi", "http", "https", "www", "OK", "TV", "LED", "PNG", "URL", "ID",
}
# Allowed spans, blanked before the word checks: addresses, file names, seeds, times and level names.
_ALLOWED_SPANS = [
    re.compile(r"https?://\S+"),
    re.compile(r"/[\w./?=&%-]+"),                         # a path shown as text (the share link)
    re.compile(r"[\w-]+\.(?:txt|pdf|docx?|yaml|xlsx|csv|png|json)\b"),
    re.compile(r"\b(?:sim\d+-[\w-]+|sim-\d+)\b"),        # the simulator's own seeds, slugs and login names
    re.compile(r"\b[0-9a-f]{16}(?::[A-Z])?\b"),          # a draw's random seed
    re.compile(r"[♠♥♦♣]|\b(?:NT|[2-9JQKA]|10)\b"),        # suits and levels
]
# an identifier a person never reads: snake_case keys, Python's own words and messages
_INTERNAL = [
    ("snake_case identifier", re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")),
    ("Python message", re.compile(r"Traceback|object at 0x|\bNone\b|\bTrue\b|\bFalse\b|KeyError|TypeError|"
                                  r"ValueError|AttributeError|Exception|\{\{|\}\}|\{%|%\}|%\(\w+\)s")),
]
_ENGLISH_RUN = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,'-]+[A-Za-z][a-z]+){2,}\b")   # 3 English words in a row
_WORD = re.compile(r"[A-Za-z]{3,}")


def page_text(body: str) -> str:
    """The text a visitor reads on an HTML page (scripts, styles and tags removed, entities read)."""
    text = _SCRIPT.sub(" ", body)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = _TAG.sub(" ", text)
    return html.unescape(text)


def internal_text(text: str, allowed=()) -> list[str]:
    """What on a Chinese page is not Chinese for the reader: a profile key or offence code, a Python message,
    an English sentence (three English words in a row), or any English word outside the allowed ones; each as
    (kind, text)."""
    for value in sorted(allowed, key=len, reverse=True):
        if value:
            text = text.replace(value, " ")
    for span in _ALLOWED_SPANS:
        text = span.sub(" ", text)
    found = []
    for label, pattern in _INTERNAL:
        found += [(label, f"{label}: {m.group(0)!r} in …{_around(text, m)}…") for m in pattern.finditer(text)]
    found += [("English sentence", f"English sentence: {m.group(0)!r}") for m in _ENGLISH_RUN.finditer(text)]
    words = {w for w in _WORD.findall(text)} - ALLOWED_WORDS
    if words and not found:
        found.append(("English words", f"English words: {sorted(words)[:8]}"))
    return found[:5]


def _around(text, match, width=30):
    return " ".join(text[max(0, match.start() - width):match.end() + width].split())


# --- impossible facts ---------------------------------------------------------------------------------------

def byes(event):
    return list(Match.objects.filter(round__stage__event=event, status=Match.Status.BYE).select_related("ns", "ew"))


def disqualified(event):
    return list(Pair.objects.filter(event=event, status=Pair.Status.DISQUALIFIED))


def visible_text(page: str) -> str:
    """What a page says: its text without scripts, templates, styles, tags and their attributes."""
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


def page_facts(event, address, kind, text) -> list[tuple[str, str]]:
    """Impossible facts an answer states: a bye as a table without a number, a closed round in progress."""
    problems = []
    if kind in ("html", "json") and re.search(r"第\s*桌|第None桌", text):
        problems.append(("bye_as_table", f"{address.url}: a table without a number (第桌): a bye shown as a table"))
    if kind == "html" and "round_id" in address.route:
        round_id = int(re.search(r"/rounds/(\d+)/", address.url).group(1))
        rnd = Round.objects.get(pk=round_id)
        if rnd.results_published_at is not None:
            shown = visible_text(text)   # the words a page keeps for its scripts (data-*, JSON) are not said
            for phrase in ("本轮进行中", "进行中", "时间到"):
                # the phrase as a status of its own, not inside a sentence ("（时间到仍未记录任何一副…）")
                if re.search(rf"(?<![\u4e00-\u9fff]){phrase}(?![\u4e00-\u9fff])", shown):
                    problems.append(("closed_round_in_progress",
                                     f"{address.url}: round {rnd.number} is closed but the page says {phrase!r}"))
                    break
    return problems


def ranking_facts(event) -> list[tuple[str, str]]:
    """A disqualified entry has no place, no award and no certificate in the final ranking."""
    problems = []
    gone = {p.pk: p.name for p in disqualified(event)}
    if not gone:
        return problems
    ranking = placings.event_ranking(event)
    for place in ranking.places:
        if place.entry.pair_id in gone:
            problems.append(("disqualified_placed", f"{gone[place.entry.pair_id]} (disqualified) has place "
                                                    f"{place.place} in the final ranking"))
    for award in placings.award_list(event, ranking.pair):
        for place in award.places:
            if place.entry.pair_id in gone:
                problems.append(("disqualified_awarded", f"{gone[place.entry.pair_id]} (disqualified) gets {award.title}"))
    return problems


def printout_facts(event, kind, pages: list[str], round_id=None) -> list[tuple[str, str]]:
    """A score sheet or a table card for a bye; a certificate or a place for a disqualified entry."""
    problems = []
    text = "\n".join(pages)
    if re.search(r"第\s*桌", text):
        problems.append(("bye_as_table", f"printout {kind}: a table without a number (第桌)"))
    if kind in ("scoresheets", "tablecards") and round_id is not None:
        for bye in byes(event):
            if bye.round_id != round_id or bye.ns is None:
                continue
            for number, page in enumerate(pages, start=1):
                if bye.ns.name in page:   # a pair with a bye has no other table in that round
                    problems.append(("bye_printed", f"printout {kind} round {round_id}: page {number} is a sheet for "
                                                    f"the bye of {bye.ns.name}"))
                    break
    gone = disqualified(event)
    if kind == "awards":
        for pair in gone:
            for number, page in enumerate(pages, start=1):
                if pair.name in page and ("证书" in page or "Certificate" in page):
                    problems.append(("disqualified_awarded",
                                     f"printout awards page {number}: a certificate for {pair.name} (disqualified)"))
                    break
    return problems


def export_facts(event, url, text) -> list[tuple[str, str]]:
    """A disqualified entry with a place in the standings workbook's final ranking."""
    problems = []
    if "standings.xlsx" not in url:
        return problems
    final = text.split("## ")[1] if "## " in text else text
    for pair in disqualified(event):
        for line in final.splitlines():
            cells = line.split("\t")
            if pair.name in cells and cells[0].strip().isdigit():
                problems.append(("disqualified_placed", f"{url}: {pair.name} (disqualified) has place {cells[0]}"))
                break
    return problems


def record_facts(event) -> list[tuple[str, str]]:
    """Stored = replayed (``verify_replay``) and kept standings = recomputed (``verify_standings``)."""
    problems = []
    _checked, mismatches = replay_mismatches(event)
    problems += [("replay_mismatch", str(m)) for m in mismatches]
    try:
        problems += [("standings_mismatch", str(m)) for m in standings_mismatches(event)]
    except UserError as error:   # records the ranking cannot read: a finding, the walk goes on
        problems.append(("standings_unreadable", str(error)))
    for bye in byes(event):
        if bye.table is not None or bye.hands.exists():
            problems.append(("bye_played", f"the bye of {bye.ns} has a table or hands"))
    problems += table_rules.numbering_facts(event)
    return problems
