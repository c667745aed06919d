"""A hand's explanation as data: each line an item, a code and its values, and the Chinese it reads as.

The engine explains a hand with items ``{"code": ..., "values": {...}}`` (:func:`item`); ``HandResult.items``
keeps them and ``HandResult.explanation`` holds the Chinese lines :func:`chinese` writes from them (the
contract's record). A page in another language renders the items from the gettext catalogue
(``scoring.explanations``), never by reading the Chinese back.

Values are numbers, level and seat codes (N, NS) or one of a few words given as codes (:data:`WORDS`:
``who`` is "defenders", "declarers" or a side). Two codes quote what the caller gave: ``reason`` (a text,
shown as written) and ``ruling`` (a sanction given as an award's or a forfeit's reason: its own items, its
approval and the Chinese ``text`` the rulings engine wrote for it).
"""
from __future__ import annotations

from collections.abc import Mapping

#: Every code of a line the engine writes, with its Chinese form ("{name}" for a value).
LINES = {
    "penalty": "防家得分{points}，罚分{penalty}，计{total}",
    "clamp": "得分限定在{lo}..{hi}：{value}→{held}",
    "clamp_after_penalties": "罚分后本副得分限定在{lo}..{hi}：{value}→{held}",
    "plain_no_bottom": "副牌不能抠底，底分不计",
    "bottom_defenders": "防家抠底：底分{bottom}×{mult}={gain}，防家得分{before}→{after}",
    "bottom_declarers": "庄家方抠底（底牌由防家扣）：底分{bottom}×{mult}={gain}，防家得分{before}→{after}",
    "capture_needs_points": "降级须捉够{need}分，罚分不计：防家捉得{points}",
    "rank_drop": "庄家打{level}，防家得分{points}并用{which}{rank}抠底：庄家方降到{drop}：{level}→{drop}",
    "policy_applied": "防家得分{points}，不满{under}：落实政策，庄家方重新打{back}：{level}→{back}",
    "policy_not_chosen": "防家得分不满{under}，庄家方可落实政策重新打{back}（未选择）",
    "restart": "庄家打{level}被防家用{rank}抠底：不论得分多少，庄家方从{drop}重新打起：{level}→{drop}",
    "restart_not_must": "此时{level}非必打",
    "policy_offer": "下一副防家得分不满{under}，庄家方可重新打{back}（落实政策）",
    "exact": "防家得分恰为{points}：庄家方守庄，不升级",
    "top_won": "防家得分{points}，庄家方打{level}获胜：打过{level}，赢得比赛",
    "keep_up": "防家得分{points}，庄家方升{levels}级",
    "keep_up_to": "防家得分{points}，庄家方升{levels}级：{before}→{after}",
    "take": "防家得分{points}，上台",
    "take_up": "防家得分{points}，上台并升{levels}级",
    "take_up_to": "防家得分{points}，上台并升{levels}级：{before}→{after}",
    "must_win": "{level}必打，须坐庄打过{level}，停在{level}",
    "must_stop": "{level}必打，停在{level}",
    "top_stop_from": "升到{level}为止：{before}→{level}",
    "top_stop": "升到{level}为止",
    "give_back": "少升{lost}级由{who}退回：{before}→{after}",
    "give_back_floor": "少升{lost}级由{who}退回：{before}→{after}（退至最低级为止）",
    "next_partner": "下一副由{next}坐庄（{seat}的对家）",
    "next_after": "下一副由{next}坐庄（{seat}的下家）",
    "next_same": "下一副由{next}坐庄（{seat}的原庄家）",
    "next": "下一副由{next}坐庄",
    "drop_to": "庄家方降到{level}：{before}→{level}",
    "award_stuck": "{side}升{levels}级：{level}必打，须坐庄打过{level}，停在{level}",
    "award_up": "{side}升{levels}级：{before}→{after}",
    "award_up_free": "{side}升{levels}级：{before}→{after}（处罚升级不受{before}必打限制）",
    "award_no_give_back": "少升的{lost}级不由{side}退回（必打退级只适用于得分）",
    "rebel": "{side}造反：重新起牌，双方抢庄",
    "redeal_keep": "至抓牌结束没有牌手亮主：庄家方继续坐庄，重洗重抓",
    "redeal_lose": "至抓牌结束没有牌手亮主：庄家下台，重洗重抓",
    "forfeit": "判{side}获胜",
    "reason": "{text}",
    "ruling": "{text}",
}
#: The values that are words, given as codes, with their Chinese (a side's code is written as it is).
WORDS = {"who": {"defenders": "防家", "declarers": "庄家方"}, "which": {"trump": "主", "plain": "副"}}
#: The next declarer's line by the rotation that named the seat.
NEXT_BY = {"partner": "next_partner", "next": "next_after", "same": "next_same"}


def item(code: str, **values) -> dict:
    """One line as data (``code`` one of :data:`LINES`)."""
    return {"code": code, "values": values}


def chinese(line: Mapping) -> str:
    """The Chinese an item reads as: its code's form with its values (words in Chinese)."""
    values = {name: WORDS[name].get(value, value) if name in WORDS else value
              for name, value in line["values"].items()}
    return LINES[line["code"]].format(**values)


def chinese_lines(lines) -> list[str]:
    """A stored explanation as Chinese lines: its items written out (a row stored since the engine gave items)
    or its lines as they are (a row stored before, whose Chinese is the record)."""
    return [chinese(line) if isinstance(line, Mapping) else str(line) for line in lines]


def reason_item(reason) -> dict | None:
    """An award's or a forfeit's ``reason`` as an item: a text (a ``reason`` line) or an item given whole (a
    ``ruling``: a sanction quoted with its own items, its ``text`` the Chinese it reads as); None for none."""
    if not reason:
        return None
    if isinstance(reason, Mapping):
        return {"code": reason["code"], "values": dict(reason["values"])}
    return item("reason", text=str(reason))
