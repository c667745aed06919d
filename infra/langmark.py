"""Chinese names on English pages carry ``lang="zh-Hans"`` (WCAG 3.1.2 language of parts:
a screen reader then reads them as Chinese).

An English page still shows the names it holds as they were entered: pairs, players, units, events,
venues, in Chinese. A screen reader reading them with English rules spells them out or says nothing, so
every run of Chinese text in the page's text goes into ``<span lang="zh-Hans">`` where an element can hold
it: not inside ``title``, ``option``, ``textarea``, ``script`` or ``style`` (their text is not markup), nor in an
attribute, nor in an inline SVG. One pass over the answer of an English page (``Content-Language: en``); a Chinese page is left
as it is. The pages' own scripts add names after loading (the desk's table rows, live updates): those are
theirs to mark.
"""
import re

#: a tag (or comment), or the text between two tags
TOKENS = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
#: a run of Chinese: Han characters and CJK punctuation, with spaces, digits or a middle dot between them
CHINESE = re.compile(r"[0-9]*[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e]"
                     r"(?:[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e\s0-9·]*"
                     r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e])?[0-9]*")
RAW_TEXT = {"title", "option", "optgroup", "textarea", "script", "style", "svg"}   # text holding no HTML span
OPEN = '<span lang="zh-Hans">'
TAG_NAME = re.compile(r"<\s*(/?)\s*([a-zA-Z][a-zA-Z0-9-]*)")


def mark_chinese(html: str) -> str:
    """``html`` with each run of Chinese in its text wrapped in ``<span lang="zh-Hans">``."""
    out = []
    raw = None        # the raw-text element we are in (its text is left alone)
    previous = ""     # the tag just before the text (a span already marking it: left alone)
    for token in TOKENS.split(html):
        if not token:
            continue
        if token.startswith("<"):
            found = TAG_NAME.match(token)
            if found:
                closing, name = found.group(1), found.group(2).lower()
                if raw is None and not closing and name in RAW_TEXT:
                    raw = name
                elif raw == name and closing:
                    raw = None
            out.append(token)
            previous = token
            continue
        if raw is None and previous != OPEN and CHINESE.search(token):
            token = CHINESE.sub(lambda m: f"{OPEN}{m.group(0)}</span>", token)
        out.append(token)
    return "".join(out)


class ChineseNamesMarkedMiddleware:
    """Runs outside Django's LocaleMiddleware (its ``Content-Language`` says the page's language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.get("Content-Language", "").startswith("en") and not response.streaming
                and response.get("Content-Type", "").startswith("text/html")):
            charset = response.charset or "utf-8"
            response.content = mark_chinese(response.content.decode(charset)).encode(charset)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
