"""LEGACY READER: explanations stored as Chinese text, before the engines gave them as data (pure: no Django).

Hands and rulings recorded before the engines explained themselves with items (``scoring.engine.lines``,
``rulings.engine.phrases``) keep their explanation as the Chinese the engines wrote then, and those rows are
never rewritten (append-only). This module, and only this one, reads such text back: a hand's line gives its
English msgid and values (:func:`message_of`), a sanction's explanation its English (:func:`english`), and
:func:`in_force_text` reads a stored sanction text as in force. Every row written since stores items, which
``scoring.explanations`` renders from the catalogue without reading any Chinese back; nothing new should call
this module but that renderer and the readers of text fields that have no items (a result note).

Each kind of hand line is listed once as its Chinese form (``{name}`` for a value) and an English msgid
(``%(name)s``); a value that is itself a word is given as its msgid, translated with the line. A sanction's
text is "<title>：<phrase>，<phrase>…", the title the offence's name (with who, which time, how long or how
many cards, which option) and each phrase one of the kinds listed; the profile's own words (a note, an
option's label) read in their English twin when the profile gives one, else as written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from common.errors import gettext_noop

#: What a sanction waiting for the chief referee's approval said, and what it says once in force.
AWAITING = "（待裁判长核准）"


def in_force_text(explanation):
    """A sanction's stored explanation once it applies to the hands or the result: it no longer reads as
    waiting for the approval (text stored before approval was rendered from data)."""
    return decided_text(explanation, True)


def undecided_text(explanation):
    """A sanction's text with its approval's words as they read before a decision (to compare a text stored
    as proposed with one written as decided)."""
    text = str(explanation or "")
    for decided in ("（已核准）", "（未核准）"):
        text = text.replace(decided, AWAITING)
    return text


def decided_text(explanation, approval):
    """A sanction's stored explanation as decided: ``approval`` True (approved) or False (not approved)
    replaces the waiting words; None (no decision) leaves them."""
    text = str(explanation or "")
    if approval is None or AWAITING not in text:
        return text
    return text.replace(AWAITING, "（已核准）" if approval else "（未核准）")


# --- a hand's lines -----------------------------------------------------------------------------------

#: The words a line's values may be, with their msgids (seats and sides stay codes: N, NS).
WORDS = {
    "防家": gettext_noop("the defenders"),
    "庄家方": gettext_noop("the declarers"),
    "得分": gettext_noop("The points"),
    "罚分后本副得分": gettext_noop("The hand's points after penalties"),
    "主": gettext_noop("a trump"),
    "副": gettext_noop("a plain-suit"),
}
_WORD_FIELDS = {"who": ("防家", "庄家方", "NS", "EW"), "what": ("罚分后本副得分", "得分"), "which": ("主", "副")}


@dataclass(frozen=True)
class LineKind:
    chinese: str   # as the engine writes it, "{name}" for a value
    message: str   # the English msgid, "%(name)s" for the same values


_KINDS = tuple(LineKind(chinese, message) for chinese, message in (
    ("防家得分{points}，罚分{penalty}，计{total}",
     gettext_noop("Defenders' points %(points)s, penalty %(penalty)s: %(total)s counted")),
    ("{what}限定在{lo}..{hi}：{value}→{held}",
     gettext_noop("%(what)s held within %(lo)s..%(hi)s: %(value)s→%(held)s")),
    ("副牌不能抠底，底分不计",
     gettext_noop("A plain-suit last trick cannot capture the bottom: its points do not count")),
    ("防家抠底：底分{bottom}×{mult}={gain}，防家得分{before}→{after}",
     gettext_noop("The defenders capture the bottom: %(bottom)s×%(mult)s=%(gain)s, defenders' points "
                  "%(before)s→%(after)s")),
    ("庄家方抠底（底牌由防家扣）：底分{bottom}×{mult}={gain}，防家得分{before}→{after}",
     gettext_noop("The declarers capture the bottom (buried by the defenders): %(bottom)s×%(mult)s=%(gain)s, "
                  "defenders' points %(before)s→%(after)s")),
    ("庄家打{level}，防家得分{points}并用{which}{rank}抠底：庄家方降到{drop}：{level}→{drop}",
     gettext_noop("Declarers on %(level)s, the defenders score %(points)s and capture the bottom with %(which)s "
                  "%(rank)s: the declarers drop to %(drop)s: %(level)s→%(drop)s")),
    ("防家得分{points}，不满{under}：落实政策，庄家方重新打{back}：{level}→{back}",
     gettext_noop("Defenders' points %(points)s, under %(under)s: the declarers return to %(back)s as the rules "
                  "allow: %(level)s→%(back)s")),
    ("防家得分不满{under}，庄家方可落实政策重新打{back}（未选择）",
     gettext_noop("Defenders under %(under)s: the declarers could have returned to %(back)s (not chosen)")),
    ("庄家打{level}被防家用{rank}抠底：不论得分多少，庄家方从{drop}重新打起：{level}→{drop}",
     gettext_noop("Declarers on %(level)s, the defenders capture the bottom with %(rank)s: whatever the points, "
                  "the declarers start again from %(drop)s: %(level)s→%(drop)s")),
    ("此时{level}非必打", gettext_noop("%(level)s is not a must-play level this time")),
    ("降级须捉够{need}分，罚分不计：防家捉得{points}",
     gettext_noop("A drop needs %(need)s points captured, penalties not counted: the defenders captured "
                  "%(points)s")),
    ("下一副防家得分不满{under}，庄家方可重新打{back}（落实政策）",
     gettext_noop("If the defenders score under %(under)s in the next hand, the declarers may return to "
                  "%(back)s")),
    ("防家得分恰为{points}：庄家方守庄，不升级",
     gettext_noop("Defenders' points exactly %(points)s: the declarers keep the deal and do not go up")),
    ("防家得分{points}，庄家方打{level}获胜：打过{level}，赢得比赛",
     gettext_noop("Defenders' points %(points)s, the declarers win on %(level)s: %(level)s passed, match won")),
    ("防家得分{points}，庄家方升{levels}级",
     gettext_noop("Defenders' points %(points)s: the declarers go up %(levels)s")),
    ("防家得分{points}，庄家方升{levels}级：{before}→{after}",
     gettext_noop("Defenders' points %(points)s: the declarers go up %(levels)s: %(before)s→%(after)s")),
    ("防家得分{points}，上台", gettext_noop("Defenders' points %(points)s: they take the deal")),
    ("防家得分{points}，上台并升{levels}级",
     gettext_noop("Defenders' points %(points)s: they take the deal and go up %(levels)s")),
    ("防家得分{points}，上台并升{levels}级：{before}→{after}",
     gettext_noop("Defenders' points %(points)s: they take the deal and go up %(levels)s: "
                  "%(before)s→%(after)s")),
    ("{level}必打，须坐庄打过{level}，停在{level}",
     gettext_noop("%(level)s must be won as declarers: they stay on %(level)s")),
    ("{level}必打，停在{level}", gettext_noop("%(level)s must be played: the climb stops on %(level)s")),
    ("升到{level}为止：{before}→{level}", gettext_noop("Up to %(level)s at most: %(before)s→%(level)s")),
    ("升到{level}为止", gettext_noop("Up to %(level)s at most")),
    ("少升{lost}级由{who}退回：{before}→{after}",
     gettext_noop("The %(lost)s levels not gained come off %(who)s: %(before)s→%(after)s")),
    ("少升{lost}级由{who}退回：{before}→{after}（退至最低级为止）",
     gettext_noop("The %(lost)s levels not gained come off %(who)s: %(before)s→%(after)s (down to the lowest "
                  "level)")),
    ("下一副由{next}坐庄（{seat}的对家）", gettext_noop("%(next)s declares the next hand (%(seat)s's partner)")),
    ("下一副由{next}坐庄（{seat}的下家）", gettext_noop("%(next)s declares the next hand (the seat after %(seat)s)")),
    ("下一副由{next}坐庄（{seat}的原庄家）", gettext_noop("%(next)s declares the next hand (%(seat)s again)")),
    ("下一副由{next}坐庄", gettext_noop("%(next)s declares the next hand")),
    ("庄家方降到{level}：{before}→{level}", gettext_noop("The declarers drop to %(level)s: %(before)s→%(level)s")),
    ("{side}升{levels}级：{level}必打，须坐庄打过{level}，停在{level}",
     gettext_noop("%(side)s go up %(levels)s: %(level)s must be won as declarers, they stay on %(level)s")),
    ("{side}升{levels}级：{before}→{after}", gettext_noop("%(side)s go up %(levels)s: %(before)s→%(after)s")),
    ("{side}升{levels}级：{before}→{after}（处罚升级不受{before}必打限制）",
     gettext_noop("%(side)s go up %(levels)s: %(before)s→%(after)s (levels of a penalty pass the must-play "
                  "%(before)s)")),
    ("少升的{lost}级不由{side}退回（必打退级只适用于得分）",
     gettext_noop("The %(lost)s levels not gained do not come off %(side)s (only a score gives levels back)")),
    ("{side}造反：重新起牌，双方抢庄",
     gettext_noop("%(side)s called a rebellion: the cards are dealt again and both sides bid for the stage")),
    ("至抓牌结束没有牌手亮主：庄家方继续坐庄，重洗重抓",
     gettext_noop("No one declared trump by the end of the deal: the declarers keep the deal; the cards are "
                  "dealt again")),
    ("判{side}获胜", gettext_noop("%(side)s wins the match")),
    ("至抓牌结束没有牌手亮主：庄家下台，重洗重抓",
     gettext_noop("No one declared trump by the end of the deal: the declarers lose the deal; the cards are "
                  "dealt again")),
))

_LINE_FIELD = re.compile(r"\{(\w+)\}")


def _line_pattern(chinese: str) -> re.Pattern:
    """The Chinese form as a pattern: each value one run without the lines' punctuation; a value named twice
    must repeat."""
    out, seen, at = [], set(), 0
    for found in _LINE_FIELD.finditer(chinese):
        out.append(re.escape(chinese[at:found.start()]))
        name = found.group(1)
        if name in seen:
            out.append(f"(?P={name})")
        elif name in _WORD_FIELDS:
            out.append(f"(?P<{name}>{'|'.join(map(re.escape, _WORD_FIELDS[name]))})")
        else:
            out.append(f"(?P<{name}>[^，：（）→…\\s]+?)")
        seen.add(name)
        at = found.end()
    out.append(re.escape(chinese[at:]))
    return re.compile("".join(out))


@cache
def _line_patterns() -> tuple[tuple[re.Pattern, LineKind], ...]:
    return tuple((_line_pattern(kind.chinese), kind) for kind in _KINDS)


def message_of(line: str) -> tuple[str, dict] | None:
    """(English msgid, values) of an explanation line the engine wrote; None for any other text. A value that
    is a word (:data:`WORDS`) is given as its msgid, for the caller to translate."""
    for pattern, kind in _line_patterns():
        found = pattern.fullmatch(str(line))
        if found:
            return kind.message, found.groupdict()
    return None


def words_of(params: dict) -> dict[str, str]:
    """The values of :func:`message_of` that are words, by name, with their msgids."""
    return {name: WORDS[value] for name, value in params.items() if value in WORDS}


# --- a sanction's explanation ---------------------------------------------------------------------------

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
_PHRASE_FIELD = re.compile(r"\{(\w+)\}")


@cache
def _phrase_patterns():
    out = []
    for chinese, message in _PHRASES:
        pattern, at = [], 0
        for found in _PHRASE_FIELD.finditer(chinese):
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
    for pattern, message in _phrase_patterns():
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
