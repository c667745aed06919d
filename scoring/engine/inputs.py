"""The level engine's inputs: the last trick, and the checks every entry point makes (pure: no Django).

Refused input raises :class:`common.errors.UserError` naming the field.
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from common.errors import UserError, gettext_noop
from common.seats import NEXT_SEAT, PARTNER, SEAT_SIDE, SIDES

from ..profiles import POINTS_MAX, Profile

SIDE_INDEX = {side: i for i, side in enumerate(SIDES)}
SIDE_OF = {seat: SIDE_INDEX[side] for seat, side in SEAT_SIDE.items()}
BY = ("defenders", "declarers")
ROTATIONS = ("partner", "next", "same")
_SHAPES = ("single", "pair", "tractor", "throw")
_RANKS = frozenset(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER"))

#: The most pairs one play can hold (four decks dealt to four players: 54 cards, 27 pairs each).
MAX_TRICK_PAIRS = 27


@dataclass(frozen=True, slots=True)
class LastTrick:
    """The winning play of the last trick (for 抠底 and the J/A bottom-capture rules)."""
    by: str
    shape: str
    pairs: int = 1
    trump: bool = True
    rank: str | None = None
    _: KW_ONLY
    main_rank: bool | None = None
    no_trump: bool = False
    buried_by: str = "declarers"
    #: a throw (甩牌, shape "throw") only: how many cards it holds. Its ``pairs`` are then the pairs of its
    #: largest combination (0: a single) where the profile counts the largest combination (``bottom.throw``
    #: null), or every pair in it where the profile counts all its cards.
    cards: int | None = None

    def __post_init__(self):
        if self.by not in BY:
            raise UserError(gettext_noop("Enter defenders or declarers, not %(value)r."),
                            field="last_trick.by", value=self.by)
        check_shape(self.shape, self.pairs, "last_trick", self.cards)
        if self.rank is not None and self.rank not in _RANKS:
            raise UserError(gettext_noop("Unknown rank %(value)r."), field="last_trick.rank", value=self.rank)
        if self.buried_by not in BY:
            raise UserError(gettext_noop("Enter defenders or declarers, not %(value)r."),
                            field="last_trick.buried_by", value=self.buried_by)

    @property
    def is_main_rank(self) -> bool:
        """True when the capturing level card is the trump suit's one (主J/主A)."""
        if self.no_trump:
            return True
        return self.trump if self.main_rank is None else self.main_rank


def check_shape(shape, pairs, prefix, cards=None):
    if shape not in _SHAPES:
        raise UserError(gettext_noop("Unknown shape %(value)r: enter single, pair, tractor or throw."),
                        field=f"{prefix}.shape", value=shape)
    if shape == "throw":
        _check_throw(pairs, prefix, cards)
        return
    if cards is not None:
        raise UserError(gettext_noop("The number of cards is entered for a throw only."),
                        field=f"{prefix}.cards", value=cards)
    if not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 1:
        raise UserError(gettext_noop("The number of pairs must be a positive whole number, not %(value)r."),
                        field=f"{prefix}.pairs", value=pairs)
    if pairs > MAX_TRICK_PAIRS:
        raise UserError(gettext_noop("A trick holds at most %(most)s pairs, not %(value)s."),
                        field=f"{prefix}.pairs", most=MAX_TRICK_PAIRS, value=pairs)
    if shape == "tractor" and pairs < 2:
        raise UserError(gettext_noop("A tractor has at least 2 pairs, not %(value)s."),
                        field=f"{prefix}.pairs", value=pairs)


def _check_throw(pairs, prefix, cards):
    """A throw (甩牌): 2 cards or more in one play, its pairs (0 or more) within them."""
    if not isinstance(cards, int) or isinstance(cards, bool) or not 2 <= cards <= 2 * MAX_TRICK_PAIRS:
        raise UserError(gettext_noop("A throw holds 2 to %(most)s cards, not %(value)r."),
                        field=f"{prefix}.cards", most=2 * MAX_TRICK_PAIRS, value=cards)
    if not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 0 or 2 * pairs > cards:
        raise UserError(gettext_noop("A throw of %(cards)s cards holds 0 to %(most)s pairs, not %(value)r."),
                        field=f"{prefix}.pairs", cards=cards, most=cards // 2, value=pairs)


def _check_points(value, name, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool):
        raise UserError(gettext_noop("Points must be a whole number, not %(value)r."), field=name, value=value)
    if not lo <= value <= hi:   # the range first: 999 is out of range, whatever its last digit
        raise UserError(gettext_noop("Points %(value)s are out of the range %(lo)s..%(hi)s."), field=name,
                        error_code="points_out_of_range", value=value, lo=lo, hi=hi)
    if value % 5:
        raise UserError(gettext_noop("Points %(value)s are not a multiple of 5."), field=name, value=value)


def check_seat(seat, name):
    if seat not in SIDE_OF:
        raise UserError(gettext_noop("Unknown seat %(value)r: enter N, E, S or W."), field=name, value=seat)


def check_hand_inputs(p: Profile, points, bottom_points, last_trick, penalty):
    """Trick points 0..the decks' points; the bottom 0..what its cards can hold; penalties any size."""
    _check_points(points, "defender_points", 0, p.points_total)
    _check_points(bottom_points, "bottom_points", 0, p.bottom_max)
    _check_points(penalty, "penalty_points", -2 * POINTS_MAX, 2 * POINTS_MAX)
    if last_trick is not None and not isinstance(last_trick, LastTrick):
        raise UserError(gettext_noop("The last trick must be a LastTrick, not %(value)s."), field="last_trick",
                        value=type(last_trick).__name__)


def next_seat(seat, how):
    """The seat ``how`` ("partner", "next": the 下家, "same") names from ``seat``."""
    if how == "partner":
        return PARTNER[seat]
    if how == "next":
        return NEXT_SEAT[seat]
    return seat
