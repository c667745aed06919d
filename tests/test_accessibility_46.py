"""#46 item 11, accessibility: the chief's desk's per-table links (记分页, 裁判台) were 44 × 17 px, now at least
24 × 24 (WCAG 2.2 2.5.8 target size); the bracket's rounds are no ``<section role="listitem">`` (a section may
not take that role); Chinese names in the text of English pages carry ``lang="zh-Hans"`` (WCAG 3.1.2)."""
import pathlib
import re

import pytest
from django.conf import settings as django_settings
from django.test import Client

from infra.langmark import mark_chinese
from tests.conftest import login
from tests.tournament.test_clock_fixtures import make_round
from tournament.models import Match

SHOTS = "/tmp/h7-shots"
HAN = re.compile(r"[\u4e00-\u9fff]")


def test_chinese_runs_are_marked_where_an_element_can_hold_them():
    html = ('<html lang="en"><head><title>计时测试1</title></head><body><h1>计时测试1</h1>'
            '<p title="王明">Table 1: 1桌甲队 vs 2桌乙队 (王 明)</p><select><option>一队</option></select>'
            '<script type="application/json">{"a": "中文"}</script><textarea>备注</textarea>'
            '<svg><text>甲</text></svg><span lang="zh-Hans">已标</span></body></html>')
    marked = mark_chinese(html)
    assert '<title>计时测试1</title>' in marked and '<option>一队</option>' in marked
    assert '{"a": "中文"}' in marked and '<textarea>备注</textarea>' in marked and '<text>甲</text>' in marked
    assert '<h1><span lang="zh-Hans">计时测试1</span></h1>' in marked
    assert ('Table 1: <span lang="zh-Hans">1桌甲队</span> vs <span lang="zh-Hans">2桌乙队</span> '
            '(<span lang="zh-Hans">王 明</span>)') in marked
    assert 'title="王明"' in marked and '<span lang="zh-Hans">已标</span>' in marked   # not marked twice
    assert mark_chinese(marked) == marked


def _unmarked_chinese(html):
    """Chinese text of the page's body outside a lang="zh-Hans" span and outside raw-text elements."""
    body = html.split("<body", 1)[1]
    body = re.sub(r"<(script|style|option|textarea|title|svg)\b.*?</\1>", "", body, flags=re.S)
    body = re.sub(r'<span lang="zh-Hans">[^<]*</span>', "", body)
    body = re.sub(r"<[^>]*>", "", body)
    return HAN.findall(body)


def test_an_english_event_page_marks_its_chinese_names_and_a_chinese_one_is_left_alone(db):
    rnd = make_round(tables=2)
    client = Client()
    chinese = client.get(f"/events/{rnd.stage.event.slug}/").content.decode()
    assert 'lang="zh-Hans">' not in chinese.split("<body", 1)[1]
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    answer = client.get(f"/events/{rnd.stage.event.slug}/")
    english = answer.content.decode()
    assert answer["Content-Language"] == "en" and int(answer["Content-Length"]) == len(answer.content)
    assert f'<span lang="zh-Hans">{rnd.stage.event.name}</span>' in english
    assert _unmarked_chinese(english) == []


def test_the_bracket_rounds_are_list_items_of_a_list_not_sections():
    template = pathlib.Path("templates/tournament/competition/_bracket.html").read_text()
    assert 'role="listitem"' in template and not re.search(r'<section[^>]*role="listitem"', template)


@pytest.mark.browser
def test_the_desk_table_links_are_at_least_24_px_square(transactional_db, live_server, page, make_user):
    pathlib.Path(SHOTS).mkdir(exist_ok=True)
    rnd = make_round(tables=2)
    chief = make_user("chief_referee", first_name="芳", last_name="李")
    assert Match.objects.filter(round=rnd).count() == 2
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    page.wait_for_selector("#desk-tables tbody tr td.t-links a")
    boxes = page.eval_on_selector_all("#desk-tables td.t-links a",
                                      "links => links.map(a => [a.textContent, a.getBoundingClientRect().width,"
                                      " a.getBoundingClientRect().height])")
    assert {text for text, _w, _h in boxes} == {"记分页", "裁判台"} and len(boxes) == 4
    assert all(width >= 24 and height >= 24 for _t, width, height in boxes), boxes
    page.locator("#desk-tables td.t-links").first.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/desk-links-390.png")


@pytest.mark.browser
def test_names_a_script_adds_to_an_english_page_are_marked_too(transactional_db, live_server, page, make_user):
    """#46 item 11: the desk's rows are built by desk.js after the page loads; on an English page the Chinese
    pair names in them carry lang="zh-Hans" (static/js/site.js marks what a script adds)."""
    rnd = make_round(tables=2)
    chief = make_user("chief_referee")
    login(page, live_server, chief)
    page.context.add_cookies([{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    page.wait_for_selector("#desk-tables tbody tr")
    assert page.evaluate("document.documentElement.lang") == "en"
    unmarked = page.evaluate("""() => {
        const walker = document.createTreeWalker(document.querySelector('#desk-tables tbody'), NodeFilter.SHOW_TEXT);
        const out = [];
        while (walker.nextNode()) {
            const t = walker.currentNode;
            if (/[\\u4e00-\\u9fff]/.test(t.nodeValue) && !t.parentElement.closest('[lang=zh-Hans]')) out.push(t.nodeValue);
        }
        return out;
    }""")
    names = page.eval_on_selector_all("#desk-tables tbody [lang=zh-Hans]", "spans => spans.map(s => s.textContent)")
    assert unmarked == [] and any("桌甲队" in name for name in names), (unmarked, names)
