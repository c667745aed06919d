"""The one renderer of the engines' explanations, in the active language, from the gettext catalogue.

Both engines explain with items, a code and its values: a hand's lines (``scoring.engine.lines``, kept in
``HandResult.items`` and in a Hand row's ``explanation``) and a sanction's title and phrases
(``rulings.engine.phrases``, kept in ``Sanction.items`` and a Ruling's ``sanction``). Each code is listed here
once with its English msgid and named values; the catalogue gives the Chinese, which is the engines' own
Chinese (``tests/test_explanation_codes.py`` checks both). A sanction's approval is rendered from the approval
on record, never by replacing words. The profile's own words (an offence's name, an option's label, a note)
read in their English twin on an English page when the profile gives one.

Rows stored before the items (a Hand's Chinese lines, a ruling's Chinese text) are read by the one legacy
reader, :mod:`scoring.legacy_explanations`.
"""
from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from common.errors import gettext_noop
from common.seats import zh_seats
from infra.profile_words import english_page, in_language, known_words
from scoring import legacy_explanations as legacy

#: A hand's line by its code (``scoring.engine.lines.LINES``); ``reason`` and ``ruling`` quote a text or a
#: sanction and have none.
HAND_MESSAGES = {
    "penalty": gettext_noop("Defenders' points %(points)s, penalty %(penalty)s: %(total)s counted"),
    "clamp": gettext_noop("The points held within %(lo)s..%(hi)s: %(value)s→%(held)s"),
    "clamp_after_penalties": gettext_noop("The hand's points after penalties held within %(lo)s..%(hi)s: "
                                          "%(value)s→%(held)s"),
    "plain_no_bottom": gettext_noop("A plain-suit last trick cannot capture the bottom: its points do not count"),
    "bottom_defenders": gettext_noop("The defenders capture the bottom: %(bottom)s×%(mult)s=%(gain)s, defenders' "
                                     "points %(before)s→%(after)s"),
    "bottom_declarers": gettext_noop("The declarers capture the bottom (buried by the defenders): "
                                     "%(bottom)s×%(mult)s=%(gain)s, defenders' points %(before)s→%(after)s"),
    "capture_needs_points": gettext_noop("A drop needs %(need)s points captured, penalties not counted: the "
                                         "defenders captured %(points)s"),
    "rank_drop": gettext_noop("Declarers on %(level)s, the defenders score %(points)s and capture the bottom with "
                              "%(which)s %(rank)s: the declarers drop to %(drop)s: %(level)s→%(drop)s"),
    "policy_applied": gettext_noop("Defenders' points %(points)s, under %(under)s: the declarers return to "
                                   "%(back)s as the rules allow: %(level)s→%(back)s"),
    "policy_not_chosen": gettext_noop("Defenders under %(under)s: the declarers could have returned to %(back)s "
                                      "(not chosen)"),
    "restart": gettext_noop("Declarers on %(level)s, the defenders capture the bottom with %(rank)s: whatever the "
                            "points, the declarers start again from %(drop)s: %(level)s→%(drop)s"),
    "restart_not_must": gettext_noop("%(level)s is not a must-play level this time"),
    "policy_offer": gettext_noop("If the defenders score under %(under)s in the next hand, the declarers may "
                                 "return to %(back)s"),
    "exact": gettext_noop("Defenders' points exactly %(points)s: the declarers keep the deal and do not go up"),
    "top_won": gettext_noop("Defenders' points %(points)s, the declarers win on %(level)s: %(level)s passed, "
                            "match won"),
    "keep_up": gettext_noop("Defenders' points %(points)s: the declarers go up %(levels)s"),
    "keep_up_to": gettext_noop("Defenders' points %(points)s: the declarers go up %(levels)s: "
                               "%(before)s→%(after)s"),
    "take": gettext_noop("Defenders' points %(points)s: they take the deal"),
    "take_up": gettext_noop("Defenders' points %(points)s: they take the deal and go up %(levels)s"),
    "take_up_to": gettext_noop("Defenders' points %(points)s: they take the deal and go up %(levels)s: "
                               "%(before)s→%(after)s"),
    "must_win": gettext_noop("%(level)s must be won as declarers: they stay on %(level)s"),
    "must_stop": gettext_noop("%(level)s must be played: the climb stops on %(level)s"),
    "top_stop_from": gettext_noop("Up to %(level)s at most: %(before)s→%(level)s"),
    "top_stop": gettext_noop("Up to %(level)s at most"),
    "give_back": gettext_noop("The %(lost)s levels not gained come off %(who)s: %(before)s→%(after)s"),
    "give_back_floor": gettext_noop("The %(lost)s levels not gained come off %(who)s: %(before)s→%(after)s (down "
                                    "to the lowest level)"),
    "next_partner": gettext_noop("%(next)s declares the next hand (%(seat)s's partner)"),
    "next_after": gettext_noop("%(next)s declares the next hand (the seat after %(seat)s)"),
    "next_same": gettext_noop("%(next)s declares the next hand (%(seat)s again)"),
    "next": gettext_noop("%(next)s declares the next hand"),
    "drop_to": gettext_noop("The declarers drop to %(level)s: %(before)s→%(level)s"),
    "award_stuck": gettext_noop("%(side)s go up %(levels)s: %(level)s must be won as declarers, they stay on "
                                "%(level)s"),
    "award_up": gettext_noop("%(side)s go up %(levels)s: %(before)s→%(after)s"),
    "award_up_free": gettext_noop("%(side)s go up %(levels)s: %(before)s→%(after)s (levels of a penalty pass the "
                                  "must-play %(before)s)"),
    "award_no_give_back": gettext_noop("The %(lost)s levels not gained do not come off %(side)s (only a score "
                                       "gives levels back)"),
    "rebel": gettext_noop("%(side)s called a rebellion: the cards are dealt again and both sides bid for the "
                          "stage"),
    "redeal_keep": gettext_noop("No one declared trump by the end of the deal: the declarers keep the deal; the "
                                "cards are dealt again"),
    "redeal_lose": gettext_noop("No one declared trump by the end of the deal: the declarers lose the deal; the "
                                "cards are dealt again"),
    "forfeit": gettext_noop("%(side)s wins the match"),
}
#: The values of a hand's line that are words, by name and code.
HAND_WORDS = {"who": {"defenders": gettext_noop("the defenders"), "declarers": gettext_noop("the declarers")},
              "which": {"trump": gettext_noop("a trump"), "plain": gettext_noop("a plain-suit")}}
#: A sanction's phrase by its code (``rulings.engine.phrases.PHRASES``); ``note`` quotes the profile.
SANCTION_MESSAGES = {
    "warning": gettext_noop("warning"),
    "violation": gettext_noop("one violation recorded"),
    "per_card": gettext_noop("%(per)s points per card"),
    "points_total": gettext_noop("%(points)s points in all"),
    "first_hand_points_total": gettext_noop("%(points)s points in all, in the first hand"),
    "first_hand_points": gettext_noop("%(points)s points off in the first hand"),
    "points": gettext_noop("%(points)s points penalty"),
    "first_hand_forfeit": gettext_noop("the first hand is given up"),
    "hand_forfeit": gettext_noop("this hand is lost"),
    "points_void": gettext_noop("the points do not count"),
    "step_down": gettext_noop("the declarers step down"),
    "other_up": gettext_noop("the other side goes up %(levels)s"),
    "per_points": gettext_noop("the other side goes up 1 level per full %(per)s points"),
    "per_points_above": gettext_noop("the other side goes up 1 level per full %(per)s points above %(above)s"),
    "at_most": gettext_noop("at most %(most)s levels"),
    "redeal": gettext_noop("the cards are shuffled and dealt again"),
    "next_after": gettext_noop("the next seat declares"),
    "next_same": gettext_noop("the same declarer goes on"),
    "match_forfeit_automatic": gettext_noop("match lost (applies at once)"),
    "match_forfeit": gettext_noop("match lost"),
    "disqualification": gettext_noop("disqualified"),
    "warning_nth": gettext_noop("warning %(n)s in the round"),
    "violation_nth": gettext_noop("violation %(n)s in the round"),
    "below_threshold": gettext_noop("below the penalty's threshold, no penalty"),
    "no_penalty": gettext_noop("no penalty"),
    "waived": gettext_noop("waived by the non-offending side: no penalty"),
    "drops": gettext_noop("(%(drops)s, %(keeps)s)"),
    "drop": gettext_noop("on %(high)s they drop to %(low)s"),
    "keeps_up": gettext_noop("the other side still goes up %(levels)s"),
    "keeps_none": gettext_noop("the other side does not go up"),
    "choose": gettext_noop("the other side chooses: %(options)s"),
}
#: What a phrase waiting for the chief referee's approval adds, by the approval on record (None: none yet).
APPROVAL = {None: gettext_noop("(awaiting the chief referee's approval)"), True: gettext_noop("(approved)"),
            False: gettext_noop("(not approved)")}
NEEDS_APPROVAL = frozenset({"match_forfeit", "disqualification"})
TITLE_ROLES = {"declarers": gettext_noop("Declarers: %(what)s"), "defenders": gettext_noop("Defenders: %(what)s")}
TITLE_NTH = gettext_noop("%(what)s, time %(n)s")
TITLE_MINUTES = gettext_noop("%(what)s, %(minutes)s min")
TITLE_SECONDS = gettext_noop("%(what)s, %(minutes)s min %(seconds)s s")
TITLE_CARDS = gettext_noop("%(what)s, %(cards)s cards")
TITLE_ONE_CARD = gettext_noop("%(what)s, %(cards)s card")   # English's singular; Chinese says both alike


def _marks():
    """(colon, comma, enumeration comma, space before a bracket) of the active language."""
    return (": ", ", ", ", ", " ") if english_page() else ("：", "，", "、", "")


# --- a hand -------------------------------------------------------------------------------------------

def hand_lines(lines, profile=None) -> list[str]:
    """A hand's explanation as a page in the active language shows it: ``lines`` are items (a row stored
    since the engine gave them, a replay) or Chinese lines (a row stored before); ``profile``: the match's
    rule-profile version, to name a quoted sanction's offence."""
    return [hand_line(line, profile) for line in lines if line]


def hand_line(line, profile=None) -> str:
    """One line of a hand's explanation (an item, or a stored Chinese line) in the active language; seats and
    sides are named in Chinese on a Chinese page (北, 南北), kept as codes on an English one."""
    shown = _hand_item(line, profile) if isinstance(line, Mapping) else _legacy_hand_line(str(line), profile)
    return shown if english_page() else zh_seats(shown)


def _hand_item(line, profile):
    code, values = line["code"], line["values"]
    if code == "ruling":
        return sanction_text(values["items"], profile=profile, approval=values.get("approval"))
    if code == "reason":   # a text a caller gave as the reason: as written (a sanction's text read back)
        return _legacy_hand_line(values["text"], profile)
    words = {name: gettext(HAND_WORDS[name][value]) for name, value in values.items()
             if name in HAND_WORDS and value in HAND_WORDS[name]}
    return gettext(HAND_MESSAGES[code]) % {**values, **words}


def _legacy_hand_line(line, profile):
    line = legacy.in_force_text(line)
    if not english_page():
        return line
    found = legacy.message_of(line)
    if found is None:
        return legacy_sanction(line, profile) if profile is not None else line
    message, params = found
    words = {name: gettext(word) for name, word in legacy.words_of(params).items()}
    return gettext(message) % {**params, **words}


# --- a sanction ---------------------------------------------------------------------------------------

def _table(profile) -> dict:
    data = getattr(profile, "data", None) or {}
    return data.get("sanctions") or {}


def sanction_text(items, *, profile=None, approval=None) -> str:
    """A sanction's explanation from its items in the active language: "<title>: <phrase>, <phrase>…";
    ``approval`` the chief referee's decision on record (None: none, True: approved, False: not approved)."""
    if not items:
        return ""
    table = _table(profile)
    colon, comma, _enum, _gap = _marks()
    title, *phrases = items
    return title_text(title["values"], table) + colon + comma.join(
        phrase_text(phrase, table, approval) for phrase in phrases)


def title_text(values, table) -> str:
    """The title: the offence's name in the active language with who, which time, how long or how many cards,
    and the option applied."""
    node = {**(table.get("offences") or {}).get(values.get("offence"), {}), "name": values["name"]}
    what = in_language(node, "name") or values["name"]
    if values.get("seconds"):
        what = gettext(TITLE_SECONDS) % {"what": what, "minutes": values["minutes"], "seconds": values["seconds"]}
    elif values.get("minutes") is not None:
        what = gettext(TITLE_MINUTES) % {"what": what, "minutes": values["minutes"]}
    elif values.get("per_card"):
        title = TITLE_ONE_CARD if values["cards"] == 1 else TITLE_CARDS
        what = gettext(title) % {"what": what, "cards": values["cards"]}
    if values.get("nth") is not None:
        what = gettext(TITLE_NTH) % {"what": what, "n": values["nth"]}
    if values.get("role"):
        what = gettext(TITLE_ROLES[values["role"]]) % {"what": what}
    if values.get("label") is not None:
        label = _profile_word(values["label"], table, "label")
        what += f" ({label})" if english_page() else f"（{label}）"
    return what


def _profile_word(text, table, key):
    """A profile's own word (an option's label, a note) in the active language: its English twin on an
    English page when the profile (or the shipped files) give one, else as written."""
    return known_words(table, (key,)).get(text, text) if english_page() else text


def phrase_text(phrase, table, approval=None) -> str:
    """One phrase of a sanction in the active language."""
    code, values = phrase["code"], phrase["values"]
    _colon, comma, enum, gap = _marks()
    if code == "note":
        return _profile_word(values["text"], table, "note")
    if code == "drops":
        drops = enum.join(gettext(SANCTION_MESSAGES["drop"]) % {"high": high, "low": low}
                          for high, low in values["pairs"])
        keeps = (gettext(SANCTION_MESSAGES["keeps_none"]) if values.get("levels") is None
                 else gettext(SANCTION_MESSAGES["keeps_up"]) % {"levels": values["levels"]})
        return gettext(SANCTION_MESSAGES["drops"]) % {"drops": drops, "keeps": keeps}
    if code == "choose":
        labels = " / ".join(_profile_word(label, table, "label") for label in values["labels"])
        return gettext(SANCTION_MESSAGES["choose"]) % {"options": labels}
    shown = gettext(SANCTION_MESSAGES[code]) % values
    return shown + gap + gettext(APPROVAL[approval]) if code in NEEDS_APPROVAL else shown


def approval_of(row) -> bool | None:
    """The approval on record as the renderer takes it: None without an Approval row, else its decision."""
    return None if row is None else bool(row.approved)


def ruling_explanation(sanction, profile, approval=None) -> str:
    """A ruling's sanction explanation in the active language: ``sanction`` a Sanction (the engine's, now) or
    the dict a Ruling stored (``sanction_dict``); its items rendered, or its Chinese text read by the legacy
    reader when it was stored before the items. ``approval``: :func:`approval_of` the ruling's Approval."""
    if sanction is None:
        return ""
    stored = isinstance(sanction, Mapping)
    items = sanction.get("items") if stored else sanction.items
    if items:
        return sanction_text(items, profile=profile, approval=approval)
    return legacy_sanction(sanction.get("explanation", "") if stored else sanction.explanation, profile, approval)


def legacy_sanction(text, profile, approval=None) -> str:
    """A sanction's explanation stored as Chinese text (a row written before the items), in the active
    language (:mod:`scoring.legacy_explanations`)."""
    text = legacy.decided_text(str(text or ""), approval)
    if not text or not english_page() or profile is None:
        return text
    table = _table(profile)
    names = {node["name"]: in_language(node, "name") for node in (table.get("offences") or {}).values()}
    return legacy.english(text, names, gettext, known_words(table, ("note",)), known_words(table, ("label",)))
