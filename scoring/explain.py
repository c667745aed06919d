"""What a hand's explanation lines say, as translatable messages (pure: no Django).

The level engine (:mod:`scoring.engine`) writes each hand's explanation in Chinese, and those lines are the
record: kept with the hand, in the kept match state and in the API's answers. A page in another language reads
them back through :func:`message_of`: each kind of line the engine writes is listed here once, as its Chinese
form (``{name}`` for a value) and an English msgid (``%(name)s``), so a line gives back its msgid and values,
which the page translates (``scoring.presenters.hand_lines``). A line that is no kind listed here (a
sanction's words quoted as an award's reason) reads as written.

A value that is itself a word (who gives levels back, the seat that declares next) is listed with its
msgid, and translated with the line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from common.errors import gettext_noop

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
    ("至抓牌结束没有牌手亮主：庄家下台，重洗重抓",
     gettext_noop("No one declared trump by the end of the deal: the declarers lose the deal; the cards are "
                  "dealt again")),
))

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(chinese: str) -> re.Pattern:
    """The Chinese form as a pattern: each value one run without the lines' punctuation; a value named twice
    must repeat."""
    out, seen, at = [], set(), 0
    for found in _FIELD.finditer(chinese):
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
def _patterns() -> tuple[tuple[re.Pattern, LineKind], ...]:
    return tuple((_pattern(kind.chinese), kind) for kind in _KINDS)


def message_of(line: str) -> tuple[str, dict] | None:
    """(English msgid, values) of an explanation line the engine wrote; None for any other text. A value that
    is a word (:data:`WORDS`) is given as its msgid, for the caller to translate."""
    for pattern, kind in _patterns():
        found = pattern.fullmatch(str(line))
        if found:
            return kind.message, found.groupdict()
    return None


def words_of(params: dict) -> dict[str, str]:
    """The values of :func:`message_of` that are words, by name, with their msgids."""
    return {name: WORDS[value] for name, value in params.items() if value in WORDS}
