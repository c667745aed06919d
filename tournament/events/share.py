"""What an event's link shows when it is shared (WeChat groups, messengers): title, description and image.

The description names the dates, the venue and the organising body; the image is a 1200 × 630 PNG
drawn with Pillow from the event's name, dates and venue in the site's CJK font (the printouts' font),
kept in the cache under a key made of what it shows, so an edited event gets a new image and an
unchanged one is drawn once.
"""
import hashlib
import io

from django.core.cache import cache
from PIL import Image, ImageDraw, ImageFont

from tournament.printouts.fonts import font_path

SIZE = (1200, 630)
RED = (179, 38, 30)
WHITE = (255, 255, 255)
INK = (33, 33, 33)
GREY = (90, 90, 90)
CACHE_SECONDS = 7 * 24 * 3600
IMAGE_VERSION = "1"  # bump when the drawing changes


def event_dates(event) -> str:
    """"2026-12-05", or "2026-12-05 – 2026-12-06" for an event of several days."""
    if event.end_date and event.end_date != event.start_date:
        return f"{event.start_date.isoformat()} – {event.end_date.isoformat()}"
    return event.start_date.isoformat()


def share_description(event) -> str:
    """The dates, the venue and the organising body, those that are set, separated by " · "."""
    return " · ".join(part for part in (event_dates(event), event.venue, event.organising_body) if part)


def image_key(event) -> str:
    """A cache key that changes whenever what the image shows changes."""
    shown = "\n".join((IMAGE_VERSION, event.name, event_dates(event), event.venue, event.organising_body))
    return f"share-png:{event.pk}:{hashlib.sha256(shown.encode('utf-8')).hexdigest()[:20]}"


def share_image(event) -> tuple[bytes, str]:
    """The event's share image as PNG bytes and its key (an ETag): from the cache, drawn on a miss."""
    key = image_key(event)
    png = cache.get(key)
    if png is None:
        png = draw_share_image(event)
        cache.set(key, png, CACHE_SECONDS)
    return png, key


def _font(size):
    return ImageFont.truetype(str(font_path()), size=size, index=0)


NO_LINE_START = set("）)」』】》，。、：；！？,.:;!?")  # closing marks stay with the character before them


def _wrap(draw, value, font, width):
    """Lines no wider than ``width`` (character by character: Chinese has no spaces); a closing mark never
    begins a line (it takes the character before it along)."""
    lines, line = [], ""
    for char in value:
        if line and draw.textlength(line + char, font=font) > width:
            if char in NO_LINE_START and len(line) > 1:
                lines.append(line[:-1])
                line = line[-1] + char
            else:
                lines.append(line)
                line = char
        else:
            line += char
    return [*lines, line] if line else lines


def draw_share_image(event) -> bytes:
    """A white card with a red band: the event's name (up to three lines, smaller when long), then the dates
    and the venue."""
    image = Image.new("RGB", SIZE, WHITE)
    draw = ImageDraw.Draw(image)
    width, height = SIZE
    draw.rectangle((0, 0, width, 28), fill=RED)
    draw.rectangle((0, height - 120, width, height), fill=RED)
    margin = 70
    for size in (84, 72, 60, 50, 42):
        font = _font(size)
        lines = _wrap(draw, event.name, font, width - 2 * margin)
        if len(lines) <= 3:
            break
    lines = lines[:3]
    top = 60 + (360 - len(lines) * (size + 18)) // 2
    for i, line in enumerate(lines):
        draw.text((width / 2, top + i * (size + 18)), line, font=font, fill=INK, anchor="ma")
    detail = _font(36)
    dates = event_dates(event)
    draw.text((width / 2, height - 200), dates, font=detail, fill=GREY, anchor="ma")
    footer = " · ".join(part for part in (event.venue, event.organising_body) if part)
    if footer:
        small = _font(34)
        while draw.textlength(footer, font=small) > width - 2 * margin and len(footer) > 1:
            footer = footer[:-2] + "…"
        draw.text((width / 2, height - 60), footer, font=small, fill=WHITE, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
