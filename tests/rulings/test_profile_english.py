"""Issue 27 item 13 (last part): English pages show a rule profile's own texts (the organiser choices' clauses
and reading labels, the sanction table's clauses, option labels and notes, the source's part) in English: each
has an English twin in the file (``clause_en``, ``label_en``, ``note_en``, ``part_en``), which
``infra.profile_words.in_language`` picks on an English page. Chinese pages and the records are unchanged."""
import copy
import re
from html import escape, unescape

import pytest
import yaml
from django.utils import translation

from common.errors import UserError
from infra.profile_words import PROFILE_DIR, TWINNED, english_words, in_language
from rulings import services as rulings
from rulings.presenters import clause_text, offence_menu
from scoring import services as scoring
from scoring.explanations import ruling_explanation
from scoring.legacy_explanations import english
from scoring.models import RuleProfile
from scoring.profile_choices import choice_specs, patch, validate_profile_dict
from scoring.profile_store import latest_profile
from tournament.events import rule_choices
from tournament.printouts.results import _hands
from tournament.records.ledger import ledger_for

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
SLUGS = sorted(path.stem for path in PROFILE_DIR.glob("*.yaml"))


def _texts(node, pairs):
    """Every twinned text of ``node`` as (key, Chinese, English or None)."""
    if isinstance(node, dict):
        pairs += [(key, node[key], node.get(f"{key}_en")) for key in TWINNED if isinstance(node.get(key), str)]
        for value in node.values():
            _texts(value, pairs)
    elif isinstance(node, list):
        for value in node:
            _texts(value, pairs)
    return pairs


def _without_english(node):
    """``node`` without the English twins of its clauses, labels, notes and part (a profile as it was before
    they were written; the names' twins came first)."""
    if isinstance(node, dict):
        return {key: _without_english(value) for key, value in node.items()
                if key not in ("clause_en", "label_en", "note_en", "part_en")}
    if isinstance(node, list):
        return [_without_english(value) for value in node]
    return node


@pytest.mark.parametrize("slug", SLUGS)
def test_every_text_of_every_reading_has_its_english_twin(slug):
    """Every name, clause, label, note and part (the readings' own values too) has an English twin without Han
    characters, and a reading that sets a text sets its twin with it (a patched profile pairs no Chinese
    text with another text's English)."""
    path = PROFILE_DIR / f"{slug}.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    data = validate_profile_dict(raw, path.name)
    pairs = set(_texts(raw, []))
    assert pairs and not [p for p in pairs if p[2] is None or CJK.search(p[2])], \
        [p for p in pairs if p[2] is None or CJK.search(p[2])]
    specs = choice_specs(data)
    for name, spec in specs.items():
        for reading in spec["readings"]:
            patched = patch(data, {name: reading}, specs, f"{path.name} ({name}={reading})")
            assert set(_texts(patched, [])) <= pairs, (name, reading, set(_texts(patched, [])) - pairs)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_the_rule_choices_page_in_english_shows_no_chinese_and_the_chinese_page_is_unchanged(slug, make_match,
                                                                                              make_user, client):
    match = make_match(slug)
    event = match.round.stage.event
    client.force_login(make_user("organiser"))
    url = f"/manage/{event.slug}/rule-choices/"

    def page(language):
        client.cookies["django_language"] = language
        html = client.get(url).content.decode()
        assert f'<html lang="{language}"' in html
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)

    english = page("en")
    legends = re.findall(r"<legend><strong>(.*?)</strong></legend>", english, re.S)
    labels = [re.sub(r"<[^>]+>", " ", text) for text in
              re.findall(r'<label class="reading[^"]*">(.*?)</label>', english, re.S)]
    rows = rule_choices.choice_rows(event)
    assert len(legends) == len(rows) and len(labels) == sum(len(row.readings) for row in rows)
    assert not [text for text in legends + labels if CJK.search(text)], legends + labels

    chinese = page("zh-hans")
    with translation.override("zh-hans"):
        assert [row.clause for row in rule_choices.choice_rows(event)] == [
            spec["clause"] for spec in choice_specs(event.profile.data).values()]
    # the same page from the profile without its English twins (a version stored before them): in Chinese byte
    # for byte the same
    bare = RuleProfile.add_version(event.profile.slug, name=event.profile.name,
                                   data=_without_english(copy.deepcopy(event.profile.data)),
                                   source=event.profile.source)
    type(event).objects.filter(pk=event.pk).update(profile=bare)
    event.refresh_from_db()
    assert page("zh-hans") == chinese
    assert page("en") == english   # a version stored before the twins reads the shipped files' English
    with translation.override("zh-hans"):
        assert all(escape(row.clause) in chinese for row in rule_choices.choice_rows(event))


@pytest.mark.django_db
def test_the_event_form_shows_the_choices_and_the_source_in_english(make_user, client):
    """The new-event page lists every profile (its name_en), its source's part and its organiser choices."""
    client.force_login(make_user("organiser"))
    client.cookies["django_language"] = "en"
    html = client.get("/events/new/").content.decode()
    choices = re.findall(r'<details class="card choices".*?</details>', html, re.S)
    assert len(choices) == len(SLUGS)
    for block in choices:
        text = re.sub(r"<[^>]+>", " ", block)
        assert not CJK.search(text), (CJK.findall(text)[:5], text[:300])
    names = unescape(re.findall(r"<select name=\"profile\".*?</select>", html, re.S)[0])
    assert all(latest_profile(slug).data["name_en"] in names for slug in SLUGS) and not CJK.search(names)


@pytest.mark.django_db
def test_a_ruling_reads_its_clause_labels_and_notes_in_english_and_is_stored_in_chinese():
    """shenzhen-community 第十七条（五）: a major exposed card with a warning lies face up (the option's note)."""
    profile = latest_profile("shenzhen-community")
    sanction = ledger_for(profile).record("exposed_card", "NS", choice="major_warning")
    assert sanction.clause == "第十七条（五）" and "牌面向上置于桌面" in sanction.explanation   # the record
    with translation.override("zh-hans"):
        assert ruling_explanation(sanction, profile) == sanction.explanation
        assert clause_text(sanction.clause, profile) == sanction.clause
        menu = next(o for o in offence_menu(profile) if o["code"] == "exposed_card")
        # as a set: PostgreSQL's jsonb keeps the options' keys in its own order
        assert {"轻罚张", "重罚张"} <= {o["label"] for o in menu["options"]}
    with translation.override("en"):
        text = ruling_explanation(sanction, profile)
        assert not CJK.search(text), text
        assert "(Major penalty card and a warning)" in text
        assert "the card lies face up on the table and must be played at the first legal chance" in text
        assert clause_text(sanction.clause, profile) == "Article 17 (5)"
        menu = next(o for o in offence_menu(profile) if o["code"] == "exposed_card")
        assert {"Minor penalty card", "Major penalty card"} <= {o["label"] for o in menu["options"]}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_sanction_note_with_a_comma_reads_whole_in_english(slug):
    """A note holding "，" (甩牌不成立，出所甩牌中最小的牌张或组合…) is one part of the explanation, read whole."""
    path = PROFILE_DIR / f"{slug}.yaml"
    data = validate_profile_dict(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)
    notes = english_words(data["sanctions"], ("note",))
    for chinese, english_note in notes.items():
        assert english(f"迟到：警告，{chinese}", {"迟到": "Lateness"}, str, notes) == f"Lateness: warning, {english_note}"


def test_in_language_falls_back_to_the_shipped_files_then_to_the_text():
    node = {"label": "警告", "label_en": "Warned", "clause": "第十六条", "note": "组委会另行通知"}
    with translation.override("en"):
        assert [in_language(node, key) for key in ("label", "clause", "note", "part")] == [
            "Warned", "Article 16", "组委会另行通知", ""]
    with translation.override("zh-hans"):
        assert in_language(node, "label") == "警告"


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_every_sanction_of_every_profile_reads_without_chinese_in_english(slug):
    """Each offence of the profile, with each referee option, lateness, card count and role the console can
    send, second offences included (escalation): its explanation and clause on an English page hold no Han."""
    profile = latest_profile(slug)
    ledger, seen, bad = ledger_for(profile), 0, []
    for offence in offence_menu(profile):
        for choice in [None, *(option["id"] for option in offence["options"])]:
            for extra in ({}, {"minutes": 7}, {"minutes": 16}, {"minutes": 25}, {"cards": 2}):
                for role in (None, "declarers", "defenders"):
                    try:
                        sanction = ledger.record(offence["code"], "NS", choice=choice, role=role, **extra)
                    except UserError:
                        continue
                    seen += 1
                    with translation.override("en"):
                        shown = ruling_explanation(sanction, profile), clause_text(sanction.clause, profile)
                    if CJK.search(" ".join(shown)):
                        bad.append((sanction.explanation, *shown))
    assert seen > len(offence_menu(profile)) and not bad, bad[:5]


def test_an_awards_reason_on_the_table_page_and_the_result_sheet_reads_in_english(table, client):
    """shenzhen-community 第十七条（七）: the declarers' wrong bury moves the stage (an award); the hand's line
    quoting the sanction (the award's reason) reads in English under the match's profile."""
    match, users = table
    scoring.record_hand(match, users["referee"], number=1, trump="S", defender_points=40, declarer="N")
    rulings.record_ruling(match, users["referee"], "wrong_bury", "NS", role="declarers", hand_number=1)
    with translation.override("zh-hans"):
        reason = next(line for hand in _hands(match) for line in hand.explanation.split("\n")
                      if line.startswith("庄家方扣错底牌"))
    client.cookies["django_language"] = "en"
    html = unescape(client.get(f"/tables/{match.pk}/").content.decode())
    assert reason not in html and "Declarers: Wrong bury: the declarers step down" in html
    with translation.override("en"):
        lines = [line for hand in _hands(match) for line in hand.explanation.split("\n")]
    assert any(line.startswith("Declarers: Wrong bury") for line in lines) and reason not in lines
    client.cookies["django_language"] = "zh-hans"
    assert reason in unescape(client.get(f"/tables/{match.pk}/").content.decode())


@pytest.mark.django_db
def test_a_ruling_under_a_version_stored_before_the_twins_reads_in_english_too():
    profile = latest_profile("union-games")
    bare = RuleProfile.add_version(profile.slug, name=profile.name, data=_without_english(profile.data),
                                   source=profile.source)
    sanction = ledger_for(bare).record("hidden_card", "NS", choice="heavy")
    with translation.override("en"):
        assert ruling_explanation(sanction, bare) == ruling_explanation(sanction, profile)
        assert not CJK.search(ruling_explanation(sanction, bare))
        assert clause_text(sanction.clause, bare) == "2.9"
    with translation.override("zh-hans"):
        assert ruling_explanation(sanction, bare) == sanction.explanation
