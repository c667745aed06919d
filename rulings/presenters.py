"""Plain dicts for the API and the pages: a ruling with its derived state, a match's and an event's log.

The one place that decides what a viewer may read (:func:`sees_private`): the referees' own words (a ruling's
note, the void's and the approval's notes, an appeal's grounds) are for the event's staff; everybody else
gets the same keys with empty strings. The API, the log pages and penalties.xlsx all read these dicts.
"""
from django.core.paginator import Paginator
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from common.names import display_name
from infra.profile_words import english_page, in_language, known_words
from rulings import appeal_route
from rulings.appeal_route import OUTCOME_LABELS
from rulings.appeals import appeal_deadline_for, deadline_after
from rulings.models import Appeal, Ruling
from scoring.explanations import approval_of, ruling_explanation
from scoring.profile_store import shared_profile
from tournament import access
from tournament.models import Match
from tournament.records.adjustments import table_state
from tournament.records.closing import ends_of_play
from tournament.records.ledger import STATE_LABELS, ledger_for, match_entries, related_row, sanction_dict


def offence_name(node) -> str:
    """An offence's name (a sanction table's node) in the active language: its ``name_en`` on an English page
    (``infra.profile_words.in_language``), else its Chinese ``name``."""
    return in_language(node, "name")


def ruling_text(ruling, sanction=None):
    """A ruling's sanction explanation in the active language, as decided: ``sanction`` the one in force now
    (the engine's, from the replay), else what the ruling stored; its approval from the Approval on record
    (``scoring.explanations``)."""
    shown = sanction if sanction is not None else ruling.sanction
    return ruling_explanation(shown, ruling.profile, approval_of(related_row(ruling, "approval")))


def clause_text(clause, profile):
    """A ruling's stored clause (the profile's Chinese, cut to the field's 120 characters) in the active
    language: the profile's ``clause_en`` for it on an English page (or the shipped files'), else as stored."""
    if not clause or not english_page():
        return clause
    words = known_words(ledger_for(profile).table, ("clause",))
    return {chinese[:120]: english for chinese, english in words.items()}.get(clause, clause)


def sees_private(viewer, *, event=None, match=None) -> bool:
    """May ``viewer`` read the referees' own words about ``event`` (or ``match``'s event)? Staff of that
    event (``tournament.access.is_staff``: a role there, or a site-wide role); an API token only in its own
    event. ``None`` is the public (anonymous visitors, printouts)."""
    if viewer is None or not viewer.is_authenticated:
        return False
    token = access.token_event(viewer)
    if token is not None and token != (event.pk if event is not None else match.round.stage.event_id):
        return False
    if access.site_roles(viewer):  # staff everywhere, known without a query (the permission check read them)
        return True
    return access.is_staff(viewer, event) if event is not None else bool(access.roles_of(viewer, match=match))


def _act(by, at, note=""):
    return {"by": display_name(by), "at": at, "note": note or ""}


def _appeal(appeal, deadline, private):
    return {
        "id": appeal.pk, "ruling": appeal.ruling_id, "side": appeal.side,
        "grounds": appeal.grounds if private else "",
        "by": display_name(appeal.filed_by), "at": appeal.filed_at, "deadline": deadline,
        "decisions": [{"id": d.pk, "instance": d.instance, "outcome": d.outcome, "reason": d.reason,
                       "outcome_label": _(OUTCOME_LABELS.get(d.outcome, d.outcome)),
                       "replacement": d.replacement_id, "by": display_name(d.decided_by), "at": d.decided_at}
                      for d in sorted(appeal.decisions.all(), key=lambda d: d.instance)],
    }


def _appeal_deadline(ruling, ends=None):
    """The ruling's appeal deadline, from the round read with it when there is one (the logs, with ``ends``:
    the ends of play of their matches)."""
    if Match.round.is_cached(ruling.match):
        return deadline_after(ruling, ruling.match.round.results_published_at, ends)
    return appeal_deadline_for(ruling)


def entry_data(entry, viewer=None):
    """One ruling (an Entry) as the API and the log pages show it to ``viewer`` (None: the public)."""
    return _entry_data(entry, sees_private(viewer, match=entry.ruling.match))


def entries_data(match, entries, viewer=None):
    """The match's entries (``tournament.records.ledger.match_entries``) as :func:`entry_data` shows them to ``viewer``
    (who may read what is decided once for the match)."""
    private = sees_private(viewer, match=match)
    return [_entry_data(e, private) for e in entries]


def _entry_data(entry, private, ends=None):
    """One ruling; ``private``: with the referees' own words (else empty strings, the same keys); ``ends``:
    the ends of play of the matches a log reads (:func:`tournament.records.closing.ends_of_play`)."""
    ruling, sanction = entry.ruling, entry.sanction
    void = related_row(ruling, "void")
    approval = related_row(ruling, "approval")
    made = related_row(ruling, "choice_made")
    appeals = list(ruling.appeals.all())
    deadline = _appeal_deadline(ruling, ends) if appeals else None
    current = sanction_dict(sanction) if sanction is not None else None
    return {
        "id": ruling.pk, "match": ruling.match_id, "table": ruling.table, "sequence": ruling.sequence,
        "hand_number": ruling.hand_number, "code": ruling.code, "side": ruling.side, "role": ruling.role,
        "offender_role": ruling.offender_role, "minutes": ruling.minutes, "seconds": ruling.seconds,
        "cards": ruling.cards,
        "choice": ruling.choice, "clause": clause_text(ruling.clause, ruling.profile), "profile": ruling.profile.slug,
        "profile_version": ruling.profile_version, "note": ruling.note if private else "",
        "amends": ruling.amends_id,
        "recorded_by": display_name(ruling.recorded_by), "recorded_at": ruling.recorded_at,
        "state": entry.state, "state_label": gettext(STATE_LABELS[entry.state]),
        "explanation": ruling_explanation(sanction if sanction is not None else ruling.sanction, ruling.profile,
                                          approval_of(approval)),
        "proposer": display_name(ruling.recorded_by),
        "sanction": current, "sanction_as_shown": ruling.sanction,
        "option_labels": option_labels(ruling.profile, ruling.code, (current or ruling.sanction).get("options")),
        "void": _act(void.voided_by, void.voided_at, void.reason if private else "") if void else None,
        "approval": ({**_act(approval.decided_by, approval.decided_at, approval.note if private else ""),
                      "approved": approval.approved} if approval else None),
        "choice_made": ({"side": made.side, "option": made.option, "by": display_name(made.recorded_by),
                         "at": made.recorded_at} if made else None),
        "appeals": [_appeal(appeal, deadline, private) for appeal in appeals],
    }


def match_info(match, state=None):
    state = state or table_state(match)
    return {
        "id": match.pk, "table": match.table, "round": str(match.round), "ns": match.side_words("ns"),
        "ew": match.side_words("ew"), "status": match.status,
        "winner": match.winner_side, "winner_name": str(match.winner) if match.winner_id else None,
        "levels": state.levels,
        "declarer": state.declarer, "hand_number": state.hand_number,
    }


def match_log(match, viewer=None):
    """The match's penalty log as ``viewer`` may read it: the table and every ruling in order, with its
    state (one replay)."""
    entries = match_entries(match)
    return {"match": match_info(match, table_state(match, entries)), "rulings": entries_data(match, entries, viewer)}


LOG_ORDER = ("match__round__stage__order", "match__round__number", "match__table", "match_id", "sequence")
LOG_PAGE_SIZE = 100  # rulings per page of the public penalty log


def _logged(rulings, private=False):
    """The rulings' entries, table by table: each match's rulings replayed once, in one set of queries;
    ``private``: with the referees' own words (the caller asked :func:`sees_private` for the event)."""
    query = (rulings.select_related("void", "approval", "choice_made", "recorded_by", "profile", "match__profile",
                                    "match__round")
             .defer("profile__data", "match__profile__data")
             .prefetch_related("appeals__decisions", "appeals__filed_by").order_by(*LOG_ORDER))
    by_match = {}
    for ruling in query:
        # the profile versions' JSON is decoded once per process (shared_profile), not twice per ruling
        ruling.profile, ruling.match.profile = shared_profile(ruling.profile), shared_profile(ruling.match.profile)
        by_match.setdefault(ruling.match_id, []).append(ruling)
    appealed = [group[0].match for group in by_match.values() if any(r.appeals.all() for r in group)]
    ends = ends_of_play(appealed, {m.round_id: m.round.results_published_at for m in appealed}) if appealed else {}
    out = []
    for group in by_match.values():
        out.extend(_entry_data(e, private, ends) for e in match_entries(group[0].match, group))
    return out


def event_log(event, viewer=None):
    """Every ruling of the event as ``viewer`` may read it, table by table (one replay per match)."""
    return {"event": event.slug, "rulings": _logged(Ruling.objects.filter(match__round__stage__event=event),
                                                    sees_private(viewer, event=event))}


# An appeal's status (``event_appeals``): no decision yet; decided at the first instance with a second one
# open under the profile's route; decided at the last instance.
APPEAL_PENDING, APPEAL_DECIDED, APPEAL_FINAL = "pending", "decided", "final"
APPEAL_STATUSES = (APPEAL_PENDING, APPEAL_DECIDED, APPEAL_FINAL)
APPEAL_ORDER = ("ruling__match__round__stage__order", "ruling__match__round__number", "ruling__match__table",
                "ruling__match_id", "ruling__sequence", "filed_at", "pk")


def _appeal_status(appeal, profile):
    decided = {d.instance for d in appeal.decisions.all()}
    if not decided:
        return APPEAL_PENDING, 1
    waiting = appeal_route.waiting_instance(appeal, profile)
    return (APPEAL_FINAL, None) if waiting is None else (APPEAL_DECIDED, waiting)


def event_appeals(event, viewer=None):
    """Every appeal of the event as ``viewer`` may read it (the grounds for its staff only, as in the logs),
    table by table: its ruling, match, round, who filed it and when, its decisions, its status and the
    appeal window (the ruling's deadline, the route's instances). A fixed number of queries, whatever the
    number of appeals."""
    private = sees_private(viewer, event=event)
    appeals = list(Appeal.objects.filter(ruling__match__round__stage__event=event)
                   .select_related("filed_by", "ruling__profile", "ruling__match__round__stage")
                   .defer("ruling__profile__data", "ruling__sanction", "ruling__context")
                   .prefetch_related("decisions__decided_by").order_by(*APPEAL_ORDER))
    matches = {a.ruling.match_id: a.ruling.match for a in appeals}
    ends = ends_of_play(list(matches.values()), {m.round_id: m.round.results_published_at
                                                 for m in matches.values()}) if matches else {}
    out = []
    for appeal in appeals:
        ruling = appeal.ruling
        ruling.profile = shared_profile(ruling.profile)  # its JSON decoded once per process
        match, rnd = ruling.match, ruling.match.round
        status, waiting = _appeal_status(appeal, ruling.profile)
        row = _appeal(appeal, deadline_after(ruling, rnd.results_published_at, ends), private)
        kept = {d.pk: d.result_stands for d in appeal.decisions.all()}
        for decision in row["decisions"]:
            decision["result_stands"] = kept[decision["id"]]
        last = row["decisions"][-1] if row["decisions"] else None
        out.append({
            **row, "match": match.pk, "table": ruling.table if ruling.table is not None else match.table,
            "round": rnd.pk, "round_number": rnd.number, "stage": rnd.stage_id, "stage_name": rnd.stage.name,
            "code": ruling.code, "ruling_side": ruling.side,
            "status": status, "waiting_instance": waiting, "instances": appeal_route.instances(ruling.profile),
            "outcome": last["outcome"] if last else None,
            "results_published_at": rnd.results_published_at,
        })
    return {"event": event.slug, "appeals": out}


def matches_log(match_ids):
    """The rulings of these matches (ids) as the public reads them (the printouts), table by table: only
    their own rulings are read and replayed (a ruling's state depends on its match's earlier rulings alone),
    whatever the rest of the event holds."""
    return _logged(Ruling.objects.filter(match_id__in=match_ids)) if match_ids else []


def event_log_page(event, page_number, per_page=None, viewer=None):
    """One page of the event's log as ``viewer`` may read it: ``(page, rulings on it)``, in a fixed number
    of queries whatever the event's size. The matches on the page are replayed whole (a ruling's state depends on the earlier ones)."""
    ids = (Ruling.objects.filter(match__round__stage__event=event).order_by(*LOG_ORDER)
           .values_list("pk", "match_id"))
    per_page = per_page or LOG_PAGE_SIZE
    page = Paginator(ids, per_page).get_page(page_number)
    shown = {pk for pk, _match in page.object_list}
    rows = _logged(Ruling.objects.filter(match_id__in={match for _pk, match in page.object_list}),
                   sees_private(viewer, event=event))
    return page, [row for row in rows if row["id"] in shown]


# --- the console's offence buttons ---------------------------------------------------------------

COMMON_FIRST = ("late", "delay", "out_of_turn", "exposed_card", "failed_throw", "wrong_follow", "hidden_card",
                "card_count", "wrong_bury", "signal")


def _scan(node, option, found):
    """Collect, per referee option (None = whatever the option), what the node asks for."""
    flags = found.setdefault(option, set())
    if "bands" in node:
        flags.add("minutes")
    if "per_card" in node:
        flags.add("cards")
    if len(node.get("by_role", {})) > 1:
        flags.add("role")
    if "options" in node:
        for key, sub in node["options"].items():
            target = option if node.get("chooser") == "other_side" else str(key)
            _scan(sub, target, found)
    for key in ("steps", "bands"):
        for sub in node.get(key, ()):
            _scan(sub, option, found)
    for sub in node.get("by_role", {}).values():
        _scan(sub, option, found)


def _options(node):
    """(referee options as [{id, label}], default) of the first referee-chosen options node."""
    if "options" in node and node.get("chooser", "referee") == "referee":
        return ([{"id": str(k), "label": in_language(v, "label")} for k, v in node["options"].items()],
                str(node.get("default")))
    for key in ("steps", "bands"):
        for sub in node.get(key, ()):
            found = _options(sub)
            if found[0]:
                return found
    for sub in node.get("by_role", {}).values():
        found = _options(sub)
        if found[0]:
            return found
    return [], None


def _referee_labels(node, found, chooser="referee"):
    """Every option of the node ``chooser`` chooses (None: anybody), wherever it sits (steps, bands, roles):
    {id: label}."""
    if "options" in node:
        for key, sub in node["options"].items():
            if chooser is None or node.get("chooser", "referee") == chooser:
                found.setdefault(str(key), in_language(sub, "label"))
            _referee_labels(sub, found, chooser)
    for key in ("steps", "bands"):
        for sub in node.get(key, ()):
            _referee_labels(sub, found, chooser)
    for sub in node.get("by_role", {}).values():
        _referee_labels(sub, found, chooser)
    return found


def option_labels(profile, code, options) -> dict:
    """{option id: its label in the active language} for a ruling's ``options`` (the other side's choice): the
    console's buttons name the options as the rules do, never by their ids."""
    if not options:
        return {}
    labels = _referee_labels(ledger_for(profile).table["offences"].get(code, {}), {}, None)
    return {str(key): labels.get(str(key), str(key)) for key in options}


def referee_choices(profile, sanction) -> list[dict]:
    """The options the referee may choose for this offence now (``sanction``: the engine's answer without a
    choice, or with one), as [{id, label}] in the active language: empty when the sanction offers none (the
    union's 传递违规信息 offers its two at the third time only, 003 二.13)."""
    if not sanction.referee_options:
        return []
    labels = _referee_labels(ledger_for(profile).table["offences"][sanction.code], {})
    return [{"id": key, "label": labels.get(key, key)} for key in sanction.referee_options]


def offence_order(offences) -> list[str]:
    """The codes of a sanction table's offences in the console's order: the common ones first, then the
    table's own by code (the same on every database: PostgreSQL's JSON keeps no key order)."""
    return [c for c in COMMON_FIRST if c in offences] + sorted(c for c in offences if c not in COMMON_FIRST)


def offence_menu(profile):
    """The profile's offences for the console: name, and what each asks for (minutes, cards, role);
    ``cards_label`` says which cards to count when the profile says it (003's failed throw), else "".

    ``waivable``: the non-offending side may waive the sanction (``PenaltyLedger.may_waive``).
    ``needs`` maps a referee option id (or "" for any) to the inputs it needs, so the console asks
    for minutes, cards and the role only when the outcome depends on them. ``always``: the referee's
    ``options`` apply to every such offence (a choice at the top of its table); else they apply only in some
    cases (a repeat, a band, a role) and the console offers them when the preview names them
    (:func:`referee_choices`).
    """
    ledger = ledger_for(profile)
    offences = ledger.table["offences"]
    menu = []
    for code in offence_order(offences):
        node = offences[code]
        found = {}
        _scan(node, None, found)
        common = found.pop(None, set())
        options, default = _options(node)
        needs = {"": sorted(common)}
        needs.update({key: sorted(common | flags) for key, flags in found.items()})
        always = bool(options) and "options" in node and node.get("chooser", "referee") == "referee"
        menu.append({"code": code, "name": offence_name(node), "options": options, "default": default,
                     "always": always, "needs": needs, "common": code in COMMON_FIRST,
                     "cards_label": in_language(node.get("cards") or {}, "label"),
                     "waivable": ledger.may_waive(code)})
    return menu
