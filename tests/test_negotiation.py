"""config.parsers.RememberedNegotiation answers as DRF's own negotiation, remembered per Accept header."""
import pytest
from django.http import Http404
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from config.parsers import RememberedNegotiation

ACCEPTS = [None, "", "*/*", "application/json", "text/html", "text/html,application/xhtml+xml,*/*;q=0.8",
           "application/json; indent=4", "application/*", "image/png, */*;q=0.1"]


def request(accept, query=""):
    headers = {"HTTP_ACCEPT": accept} if accept is not None else {}
    return Request(APIRequestFactory().get(f"/api/x/{query}", **headers))


@pytest.mark.parametrize("renderers", [(JSONRenderer, BrowsableAPIRenderer), (BrowsableAPIRenderer, JSONRenderer),
                                       (JSONRenderer,)])
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api"])
def test_the_same_answer_as_drf_asked_twice(renderers, query):
    remembered = RememberedNegotiation()
    remembered._known = {}
    for accept in ACCEPTS * 2:   # the second time from memory
        made = [cls() for cls in renderers]
        try:
            expected = DefaultContentNegotiation().select_renderer(request(accept, query), made)
        except (exceptions.NotAcceptable, Http404) as refused:
            with pytest.raises(type(refused)):
                remembered.select_renderer(request(accept, query), made)
            continue
        renderer, media_type = remembered.select_renderer(request(accept, query), made)
        assert (renderer, media_type) == expected


def test_refusals_are_not_remembered_and_memory_is_bounded(monkeypatch):
    remembered = RememberedNegotiation()
    monkeypatch.setattr(remembered, "_known", {})
    with pytest.raises(exceptions.NotAcceptable):
        remembered.select_renderer(request("image/png"), [JSONRenderer()])
    assert remembered._known == {}
    monkeypatch.setattr(remembered, "KEPT", 3)
    for n in range(10):
        remembered.select_renderer(request(f"application/json; v={n}"), [JSONRenderer()])
    assert len(remembered._known) == 3
