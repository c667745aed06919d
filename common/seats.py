"""Seats and sides at a Tractor table: the one home of these tables (engines, services and pages use them).

Play goes counter-clockwise: N → W → S → E. North–South (NS) and East–West (EW) are the two sides.
"""
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
