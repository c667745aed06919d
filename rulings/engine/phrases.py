"""A sanction's explanation as data: a title item and phrase items, and the Chinese they read as.

``Sanction.items`` is ``[title, phrase, ...]``, each ``{"code": ..., "values": {...}}``; ``Sanction.explanation``
is :func:`text` of them, "<title>：<phrase>，<phrase>…" as a referee announces it. The title names the offence
(its code and the profile's Chinese name), who (a role), which time, how long or how many cards and which
option; a phrase is one of :data:`PHRASES`, or a ``note`` (the profile's own words) quoted. A page renders the
items in its language from the gettext catalogue (``scoring.explanations``).

A match loss or a disqualification waits for the chief referee's approval: its phrase carries no approval, and
:func:`text` writes it from the approval given (None: waiting, True: approved, False: not approved), so the
words always follow the approval on record, never a replaced string.
"""
from __future__ import annotations

from collections.abc import Mapping

ROLE_ZH = {"declarers": "庄家方", "defenders": "防守方"}
#: What a phrase needing the chief referee's approval adds, by the approval (None: not decided yet).
APPROVAL_ZH = {None: "（待裁判长核准）", True: "（已核准）", False: "（未核准）"}
AWAITING = APPROVAL_ZH[None]
WAIVED = "非错误方同意不予处罚"
#: The codes of the phrases that wait for the chief referee's approval.
NEEDS_APPROVAL = frozenset({"match_forfeit", "disqualification"})

#: Every phrase code with its Chinese form ("{name}" for a value); the title, ``drops``, ``choose`` and
#: ``note`` are written by their own rules (:func:`chinese`).
PHRASES = {
    "warning": "警告",
    "violation": "记违例一次",
    "per_card": "每张罚{per}分",
    "points_total": "共罚{points}分",
    "first_hand_points_total": "首局共罚{points}分",
    "first_hand_points": "首局扣{points}分",
    "points": "罚{points}分",
    "first_hand_forfeit": "首局自动放弃",
    "hand_forfeit": "本副牌判负",
    "points_void": "得分无效",
    "step_down": "下台",
    "other_up": "对方升{levels}级",
    "per_points": "对方按得分每满{per}分升1级",
    "per_points_above": "对方按得分{above}分以上每满{per}分升1级",
    "at_most": "最多{most}级",
    "redeal": "重新洗牌抓牌",
    "next_after": "由下家坐庄",
    "next_same": "由原庄家继续坐庄",
    "match_forfeit_automatic": "判负（自动生效）",
    "match_forfeit": "判负",
    "disqualification": "取消比赛资格",
    "warning_nth": "同轮第{n}次警告",
    "violation_nth": "同轮第{n}次违例",
    "below_threshold": "未达处罚标准，不处罚",
    "no_penalty": "不处罚",
    "waived": WAIVED,
    "drops": "（{drops}，{keeps}）",
    "drop": "打{high}降至{low}",
    "keeps_up": "对方仍升{levels}级",
    "keeps_none": "对方不升级",
    "choose": "由非违规方选择：{options}",
    "note": "{text}",
}
#: The code of the first item, the title.
TITLE = "title"


def item(code: str, **values) -> dict:
    return {"code": code, "values": values}


def title_item(*, offence, name, nth=None, minutes=None, seconds=None, cards=None, per_card=False, role=None,
               option=None, label=None) -> dict:
    """The title: offence ``offence`` (its code) named ``name`` in Chinese; ``nth`` the time (a repeat's step
    decided it), ``minutes``/``seconds`` a lateness (None when it did not decide the sanction), ``cards`` the
    cards counted when ``per_card``, ``role`` the offenders' role when it decided, ``option``/``label`` the
    option applied."""
    return item(TITLE, offence=offence, name=name, nth=nth, minutes=minutes, seconds=seconds, cards=cards,
                per_card=per_card, role=role, option=option, label=label)


def title_chinese(values: Mapping) -> str:
    """'庄家方第2次超时出牌（label）': who, which time, how long or how many cards, which option."""
    title = values["name"]
    if values.get("nth") is not None:
        title = f"第{values['nth']}次{title}"
    if values.get("minutes") is not None:
        title += f"{values['minutes']}分钟"
        if values.get("seconds"):
            title += f"{values['seconds']}秒"
    elif values.get("per_card"):
        title += f"{values['cards']}张"
    if values.get("role"):
        title = f"{ROLE_ZH[values['role']]}{title}"
    if values.get("label") is not None:
        title += f"（{values['label']}）"
    return title


def chinese(phrase: Mapping, approval=None) -> str:
    """One phrase in Chinese; ``approval`` decides the words of one needing the chief referee's approval."""
    code, values = phrase["code"], phrase["values"]
    if code == TITLE:
        return title_chinese(values)
    if code == "drops":
        drops = "、".join(PHRASES["drop"].format(high=high, low=low) for high, low in values["pairs"])
        keeps = (PHRASES["keeps_none"] if values.get("levels") is None
                 else PHRASES["keeps_up"].format(levels=values["levels"]))
        return PHRASES["drops"].format(drops=drops, keeps=keeps)
    if code == "choose":
        return PHRASES["choose"].format(options=" / ".join(values["labels"]))
    shown = PHRASES[code].format(**values)
    return shown + APPROVAL_ZH[approval] if code in NEEDS_APPROVAL else shown


def text(items, approval=None) -> str:
    """The explanation the items read as in Chinese: "<title>：<phrase>，<phrase>…" (``approval``: see
    :func:`chinese`); "" for no items."""
    if not items:
        return ""
    title, *phrases = items
    return f"{chinese(title)}：{'，'.join(chinese(phrase, approval) for phrase in phrases)}"


def quote(sanction, approval=None) -> dict:
    """The sanction as the reason of an award or a forfeit the level engine records (a ``ruling`` item of
    ``scoring.engine.lines``): its items and approval, with the Chinese ``text`` they read as."""
    return {"code": "ruling", "values": {"offence": sanction.code, "items": list(sanction.items),
                                         "approval": approval, "text": text(sanction.items, approval)}}


def describe(kinds, points, outcome, effect) -> list:
    """The phrases of an outcome, in the order a referee announces them."""
    parts = []
    if "warning" in kinds:
        parts.append(item("warning"))
    if "violation" in kinds:
        parts.append(item("violation"))
    if points:
        first = effect.applies_to == "first_hand"
        if "per_card" in outcome:
            parts.append(item("per_card", per=outcome["per_card"]))
            parts.append(item("first_hand_points_total" if first else "points_total", points=points))
        else:
            parts.append(item("first_hand_points" if first else "points", points=points))
    if "hand_forfeit" in kinds:
        parts.append(item("first_hand_forfeit" if effect.applies_to == "first_hand" else "hand_forfeit"))
    if effect.points_void:
        parts.append(item("points_void"))
    if effect.stage:
        parts.append(item("step_down"))
    if effect.levels:
        parts.append(item("other_up", levels=effect.levels))
    if effect.drop_to:
        parts.append(item("drops", pairs=[[high, low] for high, low in effect.drop_to],
                          levels=effect.levels if effect.drop_keeps_levels else None))
    if effect.levels_per_points:
        if effect.levels_from_points:
            parts.append(item("per_points_above", above=effect.levels_from_points, per=effect.levels_per_points))
        else:
            parts.append(item("per_points", per=effect.levels_per_points))
        parts.append(item("at_most", most=effect.max_levels))
    if effect.redeal:
        parts.append(item("redeal"))
    if effect.next_declarer in ("next", "same"):
        parts.append(item(f"next_{'after' if effect.next_declarer == 'next' else 'same'}"))
    if "match_forfeit" in kinds:
        parts.append(item("match_forfeit_automatic" if outcome.get("automatic") else "match_forfeit"))
    if "disqualification" in kinds:
        parts.append(item("disqualification"))
    return parts
