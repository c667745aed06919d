"""``{% share_meta event %}``: the Open Graph tags of an event's pages (title, description with the dates,
venue and organising body, the image drawn from the event's name, the page's address)."""
from django import template
from django.urls import reverse
from django.utils.html import format_html

from tournament.events.share import SIZE, share_description

register = template.Library()


@register.simple_tag(takes_context=True)
def share_meta(context, event):
    """The share tags for ``event``; addresses are absolute, at the host the request came in by."""
    request = context.get("request")
    description = share_description(event)
    image = reverse("event_share_image", args=[event.slug])
    url = event.get_absolute_url()
    if request is not None:
        image, url = request.build_absolute_uri(image), request.build_absolute_uri(request.path)
    return format_html(
        '<meta property="og:type" content="website">\n'
        '  <meta property="og:title" content="{title}">\n'
        '  <meta property="og:description" content="{description}">\n'
        '  <meta property="og:url" content="{url}">\n'
        '  <meta property="og:image" content="{image}">\n'
        '  <meta property="og:image:type" content="image/png">\n'
        '  <meta property="og:image:width" content="{width}">\n'
        '  <meta property="og:image:height" content="{height}">\n'
        '  <meta property="og:image:alt" content="{title}">\n'
        '  <meta name="twitter:card" content="summary_large_image">\n'
        '  <meta name="description" content="{description}">',
        title=event.name, description=description, url=url, image=image, width=SIZE[0], height=SIZE[1])
