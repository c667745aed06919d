"""Seats and sides at a Tractor table: the one home of these tables (engines, services and pages use them).

Play goes counter-clockwise: N → W → S → E. North–South (NS) and East–West (EW) are the two sides.
"""
import re

SEATS = ("N", "W", "S", "E")                         # counter-clockwise playing order
SIDES = ("NS", "EW")
SEAT_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
SIDE_SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}
NEXT_SEAT = {"N": "W", "W": "S", "S": "E", "E": "N"}  # 下家
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
OTHER_SIDE = {"NS": "EW", "EW": "NS"}


def side_of(seat: str | None) -> str | None:
    """The side a seat belongs to (None for no seat)."""
    return SEAT_SIDE.get(seat or "")


# Chinese names of the seats and sides, for Chinese text (the codes above stay the data and the API's values)
SEAT_ZH = {"N": "北", "E": "东", "S": "南", "W": "西"}
SIDE_ZH = {"NS": "南北", "EW": "东西"}
_CODE_IN_TEXT = re.compile(r"(?<![A-Za-z])(NS|EW|N|E|S|W)(?![A-Za-z])")


def zh_seats(text: str) -> str:
    """Chinese text with its seat and side codes named in Chinese: "下一副由W坐庄（N的下家）" →
    "下一副由西坐庄（北的下家）", "NS升2级" → "南北升2级". Only standalone codes change (not letters of a word)."""
    return _CODE_IN_TEXT.sub(lambda m: SIDE_ZH.get(m.group(1)) or SEAT_ZH[m.group(1)], str(text))
