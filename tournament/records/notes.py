"""A match's result note: the Chinese the result service stores (the record), and the note in a page's
language. The notes are the match's record (a walkover, a bye, a void): the competition writes them, pages
of every app read them, so they live below both."""
from django.utils.translation import gettext, gettext_noop

from scoring.legacy_explanations import in_force_text

BYE_NOTE = "轮空，直接晋级"
VOID_NOTE = "双方均缺席"
WALKOVER_NOTE = "对手退赛，不战而胜"
SWISS_BYE_NOTE = "轮空，按胜一场计"
# The notes above are stored in Chinese (the record); a page shows them in its language.
NOTE_WORDS = {BYE_NOTE: gettext_noop("Bye: goes through"), VOID_NOTE: gettext_noop("Both sides absent"),
              WALKOVER_NOTE: gettext_noop("Opponent withdrew: a walkover"),
              SWISS_BYE_NOTE: gettext_noop("Bye: counts as a win"), "轮空": gettext_noop("Bye")}


def note_words(note: str) -> str:
    """A match's stored result note in the active language (a note written by a person stays as written)."""
    return gettext(NOTE_WORDS[note]) if note in NOTE_WORDS else in_force_text(note or "")
