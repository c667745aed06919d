"""The one font every printout uses: WenQuanYi Micro Hei, embedded as TrueType.

The font comes from the PyPI package ``paperang-p2-fonts-cjk`` (a requirement, pinned by hash in the
locks), so a printout renders on a machine with no Chinese fonts installed; Debian's ``fonts-wqy-microhei``
(and any path in the ``CJK_FONT_PATHS`` setting) is the fallback. The package is a small vendor's: it is
never imported (importing runs its code). Its font file is found through the installed distribution's
file list (RECORD) and used only when its sha256 is WenQuanYi Micro Hei's (``FONT_SHA256``, the same file
as Debian's). Never the built-in STSong-Light (not embedded), and never Noto CJK (CFF outlines, which
reportlab cannot load).
"""
import hashlib
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from django.conf import settings
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from common.errors import UserError, gettext_noop

FONT_NAME = "WenQuanYiMicroHei"
DISTRIBUTION = "paperang-p2-fonts-cjk"
PACKAGE_FILE = "paperang_p2_fonts_cjk/fonts/wqy-microhei.ttc"
# wqy-microhei.ttc 0.2.0-beta (Debian's fonts-wqy-microhei, and the package's copy of it).
FONT_SHA256 = "2420e8078af796b19a3f6ef13de527a1a91c1e7171eea115926c614ced1009b3"
DEBIAN_PATH = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def candidate_paths():
    """Where the font file may be, best first: the PyPI package, the setting, Debian's package."""
    found = []
    packaged = packaged_font()
    if packaged is not None:
        found.append(packaged)
    try:

        found.extend(Path(p) for p in getattr(settings, "CJK_FONT_PATHS", []))
    except ImportError:
        pass
    found.append(Path(DEBIAN_PATH))
    return found


def packaged_font():
    """The package's font file, found without importing the package; None unless its hash is the font's."""
    try:
        files = metadata.distribution(DISTRIBUTION).files or []
    except metadata.PackageNotFoundError:
        return None
    for entry in files:
        if entry.as_posix() == PACKAGE_FILE:
            path = Path(entry.locate())
            return path if is_the_font(path) else None
    return None


def is_the_font(path):
    """Whether the file at ``path`` is WenQuanYi Micro Hei, byte for byte (by its sha256)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return False
    return digest.hexdigest() == FONT_SHA256


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
