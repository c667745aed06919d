"""What a sanction's explanation says, as translatable messages (pure: no Django).

The sanction engine (:mod:`rulings.engine`) writes each sanction's explanation in Chinese, and that text is
the record (kept with the ruling, quoted as an award's reason). A page in another language reads it back
through :func:`english`, as :mod:`scoring.explain` does for a hand's lines: the explanation is
"<title>：<phrase>，<phrase>…", the title the offence's name (with who, which time, how long or how many cards,
which option) and each phrase one of the kinds the engine writes, listed here once as its Chinese form
(``{name}`` for a value) and an English msgid (``%(name)s``). The profile's own words (a note, an option's
label) read in their English twin when the profile gives one, else as written.
"""
from __future__ import annotations

import re
from functools import cache

from common.errors import gettext_noop

_PHRASES = (
    ("警告", gettext_noop("warning")),
    ("记违例一次", gettext_noop("one violation recorded")),
    ("每张罚{per}分", gettext_noop("%(per)s points per card")),
    ("首局共罚{points}分", gettext_noop("%(points)s points in all, in the first hand")),
    ("共罚{points}分", gettext_noop("%(points)s points in all")),
    ("首局扣{points}分", gettext_noop("%(points)s points off in the first hand")),
    ("罚{points}分", gettext_noop("%(points)s points penalty")),
    ("首局自动放弃", gettext_noop("the first hand is given up")),
    ("本副牌判负", gettext_noop("this hand is lost")),
    ("得分无效", gettext_noop("the points do not count")),
    ("下台", gettext_noop("the declarers step down")),
    ("对方升{levels}级", gettext_noop("the other side goes up %(levels)s")),
    ("对方仍升{levels}级", gettext_noop("the other side still goes up %(levels)s")),
    ("对方不升级", gettext_noop("the other side does not go up")),
    ("打{high}降至{low}", gettext_noop("on %(high)s they drop to %(low)s")),
    ("对方按得分每满{per}分升1级", gettext_noop("the other side goes up 1 level per full %(per)s points")),
    ("对方按得分{above}分以上每满{per}分升1级",
     gettext_noop("the other side goes up 1 level per full %(per)s points above %(above)s")),
    ("最多{most}级", gettext_noop("at most %(most)s levels")),
    ("重新洗牌抓牌", gettext_noop("the cards are shuffled and dealt again")),
    ("由下家坐庄", gettext_noop("the next seat declares")),
    ("由原庄家继续坐庄", gettext_noop("the same declarer goes on")),
    ("判负（自动生效）", gettext_noop("match lost (applies at once)")),
    ("判负", gettext_noop("match lost")),
    ("取消比赛资格", gettext_noop("disqualified")),
    ("同轮第{n}次警告", gettext_noop("warning %(n)s in the round")),
    ("同轮第{n}次违例", gettext_noop("violation %(n)s in the round")),
    ("未达处罚标准", gettext_noop("below the penalty's threshold")),
    ("不处罚", gettext_noop("no penalty")),
    ("非错误方同意不予处罚", gettext_noop("waived by the non-offending side: no penalty")),
)
#: What a match loss or a disqualification says about the chief referee's approval (engine.AWAITING, ...).
_APPROVAL = (("（待裁判长核准）", gettext_noop("(awaiting the chief referee's approval)")),
             ("（已核准）", gettext_noop("(approved)")), ("（未核准）", gettext_noop("(not approved)")))
_ROLES = {"庄家方": gettext_noop("Declarers: %(what)s"), "防守方": gettext_noop("Defenders: %(what)s")}
_NTH = gettext_noop("%(what)s, time %(n)s")
_MINUTES = gettext_noop("%(what)s, %(minutes)s min")
_SECONDS = gettext_noop("%(what)s, %(minutes)s min %(seconds)s s")
_CARDS = gettext_noop("%(what)s, %(cards)s cards")
_CHOOSES = gettext_noop("the other side chooses: %(options)s")
_FIELD = re.compile(r"\{(\w+)\}")


@cache
def _patterns():
    out = []
    for chinese, message in _PHRASES:
        pattern, at = [], 0
        for found in _FIELD.finditer(chinese):
            pattern += [re.escape(chinese[at:found.start()]), f"(?P<{found.group(1)}>[^，：（）、\\s]+?)"]
            at = found.end()
        out.append((re.compile("".join(pattern) + re.escape(chinese[at:])), message))
    return tuple(out)


def _split(text, mark="，"):
    """``text`` split at ``mark`` outside brackets."""
    parts, depth, at = [], 0, 0
    for index, char in enumerate(text):
        depth += char == "（"
        depth -= char == "）"
        if char == mark and depth == 0:
            parts.append(text[at:index])
            at = index + 1
    return [*parts, text[at:]]


def _phrase(text, translate):
    """One phrase in English, or None when it is no kind listed here."""
    tail = ""
    for chinese, message in _APPROVAL:
        if text.endswith(chinese) and text != chinese:
            text, tail = text[:-len(chinese)], " " + translate(message)
            break
    if text.startswith("（") and text.endswith("）"):   # the drops: "（打J降至2、打A降至2，对方不升级）"
        inner = [_phrase(part, translate) for part in re.split("[，、]", text[1:-1])]
        return None if None in inner else f"({', '.join(inner)}){tail}"
    for pattern, message in _patterns():
        found = pattern.fullmatch(text)
        if found:
            return translate(message) % found.groupdict() + tail
    return None


def _title(title, names, translate, words):
    """The title in English: the offence's Chinese name (a key of ``names``) replaced by its English one."""
    for chinese in sorted(names, key=len, reverse=True):
        at = title.find(chinese)
        if at < 0:
            continue
        head, what, rest = title[:at], names[chinese], title[at + len(chinese):]
        label = re.search(r"（.*）$", rest)
        if label:
            rest = rest[:label.start()]
        if found := re.fullmatch(r"(\d+)分钟(?:(\d+)秒)?", rest):
            what = translate(_SECONDS if found.group(2) else _MINUTES) % {
                "what": what, "minutes": found.group(1), "seconds": found.group(2)}
        elif found := re.fullmatch(r"(\d+|None)张", rest):
            what = translate(_CARDS) % {"what": what, "cards": found.group(1)}
        elif rest:
            return None
        role = next((r for r in _ROLES if head.startswith(r)), "")
        head = head[len(role):]
        if found := re.fullmatch(r"第(\d+)次", head):
            what = translate(_NTH) % {"what": what, "n": found.group(1)}
        elif head:
            return None
        if role:
            what = translate(_ROLES[role]) % {"what": what}
        return what + (f" ({_word(label.group(0)[1:-1], words)})" if label else "")
    return None


def _word(text, words):
    """A profile's word (an option's label) in English when ``words`` has it, else as written."""
    return words.get(text, text)


_HOLDER = re.compile("\x00(\\d+)\x00")


def english(text, names, translate, notes=None, labels=None):
    """A sanction's explanation ``text`` in English: ``names`` maps the offences' Chinese names to their English
    ones, ``notes`` and ``labels`` the profile's notes and option labels to theirs, ``translate`` translates a
    msgid. Parts of no listed kind stay as written; ``text`` as written when its title names no offence in
    ``names``."""
    notes, words = notes or {}, labels or {}
    parts = _split(str(text), "：")   # the title's option label may hold "：" (罚出局：本场判负（直接生效）)
    title, colon, rest = parts[0], len(parts) > 1, "：".join(parts[1:])
    shown = _title(title, names, translate, words) if colon else None
    if shown is None:
        return str(text)
    if rest.startswith("由非违规方选择："):
        options = " / ".join(_word(o, words) for o in rest[len("由非违规方选择："):].split(" / "))
        return f"{shown}: {translate(_CHOOSES) % {'options': options}}"
    held = []   # the notes found, each a whole part or more (a note may hold "，"): read as one part
    for chinese in sorted(notes, key=len, reverse=True):
        found = re.compile(f"(?:^|(?<=，)){re.escape(chinese)}(?=，|$)") if chinese else None
        if found and found.search(rest):
            rest = found.sub(f"\x00{len(held)}\x00", rest)
            held.append(notes[chinese])
    out = ""
    for part in _split(rest):
        phrase = _phrase(part, translate) if not _HOLDER.search(part) else _HOLDER.sub(
            lambda found: held[int(found.group(1))], part)
        if out:
            out += "，" if phrase is None and not out[-1].isascii() else ", "
        out += part if phrase is None else phrase
    return f"{shown}: {out}"
