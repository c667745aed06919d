"""The account a confirmed players' hand is recorded under: the players have none, and a Hand names who
recorded it. One site-wide account that can never log in (no usable password, inactive, a login name the
login form cannot type) and holds no role; the instance handed to the hand service carries the one match it
writes for (``access.may`` grants it recording there and nothing else, anywhere else). Who entered and who
confirmed the hand is kept on the entry and its steps (:mod:`tournament.models.selfscore`)."""
from __future__ import annotations

from django.contrib.auth import get_user_model

from common import names

USERNAME = names.PLAYERS_LOGIN
NAME = "选手录入（对方确认）"   # as stored; the pages name the account by its label (``common.names.display_name``)


def account():
    """The players' account (made on first use)."""
    user, created = get_user_model().objects.get_or_create(
        username=USERNAME, defaults={"first_name": NAME, "is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def writing_for(match):
    """The players' account as the writer of ``match``'s confirmed hand (``access.may``: that match only)."""
    user = account()
    user.players_match_id = match.pk
    return user


def is_players(user) -> bool:
    """Is ``user`` the players' account (a hand it recorded was entered and confirmed by the two sides)?"""
    return getattr(user, "username", None) == USERNAME
