"""What every printout needs from the database: options, headings, entry and round labels.

The builders in this package collect plain, frozen values first (so a build can be fingerprinted
and rendered without the database), then draw them.
"""
import dataclasses
import json
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from common import punctuation
from common.errors import UserError, gettext_noop
from common.names import display_name
from common.numbers import whole
from tournament.competition import rounds as closing
from tournament.competition.stages import describe_key, describe_source
from tournament.models import Match, Round
from tournament.printouts.layout import Heading

LANGUAGES = ("zh-hans", "en")
LANGUAGE_ALIASES = {"zh": "zh-hans", "zh-hans": "zh-hans", "zh_hans": "zh-hans", "zh-cn": "zh-hans", "en": "en"}


@dataclass(frozen=True)
class PrintOptions:
    """What a printout was asked for: a round or a match (ids) where they apply, the language, and the
    site's public address for QR codes and printed links (from the request on the web, ``--site-url`` or
    the ``SITE_URL`` setting on the command line; empty: the setting)."""

    round: int | None = None
    match: int | None = None
    lang: str = "zh-hans"
    site_url: str = ""

    def __post_init__(self):
        lang = LANGUAGE_ALIASES.get(str(self.lang).lower())
        if lang is None:
            raise UserError(gettext_noop("Unknown language %(lang)r: the language can only be %(valid)s."),
                            field="lang", lang=self.lang, valid=", ".join(LANGUAGES))
        object.__setattr__(self, "lang", lang)
        for name in ("round", "match"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or whole(value) is None):
                raise UserError(gettext_noop("This must be an id (a whole number), not %(value)r."), field=name,
                                value=value)
            if value is not None:
                object.__setattr__(self, name, int(value))
        object.__setattr__(self, "site_url", public_address(self.site_url))

    def as_params(self):
        """The options as a JSON-ready dict (stored on a print job)."""
        return dataclasses.asdict(self)


def public_address(site_url="") -> str:
    """The site's public address without the trailing slash: the given one, else ``settings.SITE_URL``."""
    value = (site_url or settings.SITE_URL or "").strip().rstrip("/")
    if value and "://" not in value:
        value = f"http://{value}"
    return value


def canonical_json(data):
    """A stable JSON text of collected data (dataclasses, tuples, dates): the base of a fingerprint."""
    def default(value):
        if dataclasses.is_dataclass(value):
            return dataclasses.asdict(value)
        return str(value)

    plain = dataclasses.asdict(data) if dataclasses.is_dataclass(data) else data
    return json.dumps(plain, default=default, sort_keys=True, ensure_ascii=False)


def event_dates(event):
    """The event's date, or its first and last day."""
    if event.end_date and event.end_date != event.start_date:
        return f"{event.start_date.isoformat()} – {event.end_date.isoformat()}"
    return event.start_date.isoformat()


def local_time(value, fmt="%Y-%m-%d %H:%M"):
    """A datetime in the event's time zone as text ("" for none)."""
    return timezone.localtime(value).strftime(fmt) if value else ""


def round_label(rnd):
    """A round's name (:attr:`Round.label`)."""
    return rnd.label


def heading_for(event, stage=None, rnd=None):
    """The page header: event, stage, round, the round's day (else the event's dates), and "成绩已公布
    <time>" once the round's results (or, for a stage without a round, all its rounds') are published."""
    date = local_time(rnd.scheduled_start, "%Y-%m-%d") if rnd is not None and rnd.scheduled_start else ""
    return Heading(
        event=event.name,
        stage=stage.label if stage is not None else "",
        round=round_label(rnd) if rnd is not None else "",
        date=date or event_dates(event),
        organiser=getattr(event, "organising_body", "") or "",
        published=published_label(stage, rnd),
    )


def published_label(stage=None, rnd=None):
    """"成绩已公布 2026-12-05 11:32" for a closed round (or a stage whose rounds are all closed), else ""."""
    if rnd is not None:
        at = rnd.results_published_at
    else:
        at = closing.stage_published_at(stage) if stage is not None else None
    return _("Results published %(at)s") % {"at": local_time(at)} if at else ""


def entry_label(pair):
    """An entry's name with its seed, e.g. "[1] 莲花社区1队"."""
    if pair is None:
        return ""
    return f"[{pair.seed}] {pair.name}" if pair.seed else pair.name


def in_brackets(text):
    """" (text)" after a name: full-width brackets on a Chinese printout, "（南山社区）"."""
    return _(" (%(text)s)") % {"text": text}


def listed(names):
    """Names listed in the printout's language: "王伟、王芳"; "Wang Wei, Wang Fang"."""
    return _(", ").join(names)


def players_label(pair):
    """The two partners, e.g. "王伟、王芳"."""
    return listed(p.name for p in (pair.player1, pair.player2)) if pair is not None else ""


def source_label(source):
    """Where a waiting side comes from, in the active language ("R1-M3 胜者", "A组第1名", "轮空")."""

    return describe_source(source or "")


def players_unless_named(pair):
    """The two partners, or "" when the entry's name already says them (a pair entered without a name is named
    "王伟/王芳"): a printout names each pair once."""
    if pair is None:
        return ""
    players = (pair.player1.name, pair.player2.name)
    if all(name and name in pair.name for name in players):
        return ""
    return players_label(pair)


def referee_names(match_ids) -> dict:
    """``{match id: its referees' display names listed}`` (the referee grid's, ``Match.referees``), one query."""
    through = Match.referees.through
    found = {}
    for link in through.objects.filter(match_id__in=list(match_ids)).select_related("user").order_by("pk"):
        found.setdefault(link.match_id, []).append(display_name(link.user))
    return {match_id: listed(names) for match_id, names in found.items()}


def side_label(pair, source):
    """The entry on one side, or where it will come from while unknown."""
    return entry_label(pair) if pair is not None else source_label(source)


def pick_round(event, round_id):
    """The event's round with this id (UserError listing the valid ids otherwise)."""
    rounds = Round.objects.filter(stage__event=event).select_related("stage").order_by("stage__order", "number")
    found = next((r for r in rounds if r.pk == round_id), None)
    if found is None:
        valid = "; ".join(f"{r.pk}={r.stage.label} {round_label(r)}" for r in rounds) or _("none")
        raise UserError(gettext_noop("There is no round %(id)s in this event (valid: %(valid)s)."), field="round",
                        id=round_id, valid=valid)
    return found


def pick_match(event, match_id):
    """The event's match with this id (UserError naming the field otherwise)."""
    found = matches_of(event).filter(pk=match_id).first()
    if found is None:
        raise UserError(gettext_noop("There is no match %(id)s in this event."), field="match", id=match_id)
    return found


def matches_of(event):
    """The event's matches with everything a printout shows, in stage, round and table order."""
    return (
        Match.objects.filter(round__stage__event=event)
        .select_related("round__stage", "group", "ns__player1", "ns__player2", "ns__unit",
                        "ew__player1", "ew__player2", "ew__unit", "winner")
        .order_by("round__stage__order", "round__number", "table", "id")
    )


def colon() -> str:
    """The colon after a label in the printout's language ("桌号：", "Table: ")."""
    return punctuation.colon(get_language())


def position(match) -> str:
    """Where a match sits: its group's name, else its knock-out position in words (never the bracket code)."""
    return match.group.name if match.group_id else describe_key(match.bracket_key)


def at_tables(matches) -> list:
    """The matches played at a table: a bye (no opponent, no table number) has no score sheet, table card or
    seat card."""
    return [m for m in matches if m.status != Match.Status.BYE and m.table is not None]


def require_round_or_match(options):
    """Score sheets and result sheets need --round or --match."""
    if options.round is None and options.match is None:
        raise UserError(gettext_noop("Choose a round or a match to print."), field="round")


def selected_matches(event, options):
    """The matches a round- or match-level printout covers (the match wins when both are given)."""
    require_round_or_match(options)
    if options.match is not None:
        return [pick_match(event, options.match)]
    rnd = pick_round(event, options.round)
    return list(matches_of(event).filter(round=rnd))


@dataclass(frozen=True)
class Printout:
    """One kind of printout: how to collect its data, how to draw it, and which options apply.

    ``collect(event, options)`` reads the database and returns frozen plain data;
    ``render(data, progress=None)`` returns the PDF bytes (``progress(done, total)`` is called as
    pages are drawn). ``uses`` names the options that apply ("round", "match"); ``needs_round`` marks the
    printouts that refuse to build without a round (the page's round list is then required);
    ``background`` marks the printouts the organiser page builds with a Celery task (a whole round's
    sheets, certificates). ``stage_kind``: the kind of stage it prints (a bracket, Swiss rounds, groups'
    crosstables); the page offers it only to an event that has such a stage.
    """

    kind: str
    title: object
    collect: object
    render: object
    uses: tuple = ()
    background: bool = False
    needs_round: bool = False
    stage_kind: str = ""
