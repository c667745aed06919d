"""The one font every printout uses: WenQuanYi Micro Hei, embedded as TrueType.

The font comes from the PyPI package ``paperang-p2-fonts-cjk`` (a requirement), so a printout renders
on a machine with no Chinese fonts installed; Debian's ``fonts-wqy-microhei`` (and any path in the
``CJK_FONT_PATHS`` setting) is the fallback. Never the built-in STSong-Light (not embedded), and never
Noto CJK (CFF outlines, which reportlab cannot load).
"""
from functools import lru_cache
from importlib import resources
from pathlib import Path

from django.conf import settings
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from common.errors import UserError, gettext_noop

FONT_NAME = "WenQuanYiMicroHei"
PACKAGE = "paperang_p2_fonts_cjk"
PACKAGE_FILE = "fonts/wqy-microhei.ttc"
DEBIAN_PATH = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def candidate_paths():
    """Where the font file may be, best first: the PyPI package, the setting, Debian's package."""
    found = []
    try:
        found.append(Path(str(resources.files(PACKAGE).joinpath(PACKAGE_FILE))))
    except ModuleNotFoundError:
        pass
    try:

        found.extend(Path(p) for p in getattr(settings, "CJK_FONT_PATHS", []))
    except ImportError:
        pass
    found.append(Path(DEBIAN_PATH))
    return found


def font_path():
    """The first font file that exists (UserError naming the paths tried when there is none)."""
    paths = candidate_paths()
    for path in paths:
        if path.is_file():
            return path
    tried = ", ".join(str(p) for p in paths)
    raise UserError(gettext_noop("No Chinese font file found (tried: %(paths)s)."), paths=tried)


@lru_cache(maxsize=1)
def register_font():
    """Register the CJK TrueType font with reportlab once; returns its name for ``setFont``."""
    pdfmetrics.registerFont(TTFont(FONT_NAME, str(font_path()), subfontIndex=0))
    return FONT_NAME
