"""Every catalog example in-process, the catalog's shape, and the fixed ids of UTILITIES.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import registry
from workbench.utilities import (
    TEXT_FORMS,
    Role,
    UtilitySchema,
    all_examples,
    call_utility,
    catalog_summary,
    form_spans,
    load_catalog,
    results_equal,
    run_examples,
)

EXAMPLES = all_examples()
ROOT = Path(__file__).resolve().parents[2]

# The ids and argument names outside callers use (shared UTILITIES.md); circumstances marked.
REQUIRED: dict[str, tuple[str, ...]] = {
    "hash.md5": ("text",), "hash.sha1": ("text",), "hash.sha256": ("text",),
    "hash.sha512": ("text",), "hash.sha3_256": ("text",), "hash.blake2b": ("text",),
    "hash.crc32": ("text",), "hash.hmac_sha256": ("text", "key"),
    "encoding.base64_encode": ("text",), "encoding.base64_decode": ("data",),
    "encoding.base32_encode": ("text",), "encoding.hex_encode": ("text",),
    "encoding.hex_decode": ("data",), "encoding.url_encode": ("text",),
    "encoding.url_decode": ("data",), "encoding.html_escape": ("text",),
    "encoding.html_unescape": ("data",), "encoding.punycode_encode": ("domain",),
    "charset.encode": ("text", "charset"), "charset.decode": ("data", "charset"),
    "charset.fix_mojibake": ("text",), "charset.utf8_length": ("text",),
    "charset.codepoints": ("text",), "charset.normalize": ("text", "form"),
    "text.stats": ("text", "charset"), "text.word_count": ("text",), "text.slugify": ("text",),
    "text.transliterate": ("text", "standard"), "text.change_case": ("text", "mode"),
    "text.reverse": ("text",), "text.levenshtein": ("a", "b"),
    "text.count_substring": ("text", "substring"),
    "format.json_to_yaml": ("data",), "format.yaml_to_json": ("data",),
    "format.csv_to_json": ("data", "delimiter"), "format.json_to_csv": ("data",),
    "format.json_pretty": ("data", "indent"), "format.json_minify": ("data",),
    "format.csv_to_markdown": ("data",),
    "number.convert_base": ("value", "from_base", "to_base"), "number.to_roman": ("n",),
    "number.from_roman": ("roman",), "number.to_words_ru": ("n",), "number.to_words_en": ("n",),
    "number.round": ("value", "digits", "mode"), "number.percent_of": ("value", "percent"),
    "date.diff_days": ("start", "end"), "date.add_days": ("date", "days"),
    "date.weekday": ("date", "lang"), "date.to_unix": ("datetime", "tz"),
    "date.from_unix": ("timestamp", "tz"),
    "date.convert_timezone": ("datetime", "from_tz", "to_tz"),
    "date.iso_week": ("date",), "date.is_leap_year": ("year",),
    "date.business_days": ("start", "end"), "date.age": ("birth_date", "on_date"),
    "address.parse_ru": ("address",), "address.normalize_ru": ("address",),
    "address.validate_postcode_ru": ("postcode",), "address.extract_postcode": ("text",),
    "address.format_ru": ("postcode", "region", "city", "street", "house", "building", "flat"),
    "id.validate_inn": ("inn",), "id.validate_snils": ("snils",), "id.validate_ogrn": ("ogrn",),
    "id.validate_bik": ("bik",), "id.luhn_check": ("number",), "id.validate_iban": ("iban",),
    "id.validate_isbn": ("isbn",), "id.validate_ean13": ("code",),
    "id.uuid5": ("namespace", "name"),
    "net.cidr_info": ("cidr",), "net.ip_in_network": ("ip", "cidr"), "net.ip_to_int": ("ip",),
    "net.int_to_ip": ("n",), "net.mac_normalize": ("mac",), "net.parse_url": ("url",),
    "net.ipv6_expand": ("ip",),
    "color.hex_to_rgb": ("hex",), "color.rgb_to_hex": ("r", "g", "b"),
    "color.rgb_to_hsl": ("r", "g", "b"), "color.contrast_ratio": ("foreground", "background"),
    "units.length": ("value", "from_unit", "to_unit"),
    "units.mass": ("value", "from_unit", "to_unit"),
    "units.temperature": ("value", "from_unit", "to_unit"),
    "units.data_size": ("value", "from_unit", "to_unit"),
    "money.vat_add": ("amount", "rate"), "money.vat_extract": ("amount", "rate"),
    "money.percent_change": ("old", "new"),
    "money.loan_payment": ("principal", "annual_rate", "months"),
    "money.amount_in_words_ru": ("amount",),
    "regex.match": ("pattern", "text"), "regex.find_all": ("pattern", "text"),
    "regex.replace": ("pattern", "replacement", "text"), "regex.escape": ("text",),
}  # fmt: skip
CIRCUMSTANCES = {
    "charset.encode": "charset", "charset.decode": "charset", "charset.normalize": "form",
    "text.stats": "charset", "text.transliterate": "standard", "text.change_case": "mode",
    "number.convert_base": "from_base", "date.to_unix": "tz", "date.convert_timezone": "to_tz",
    "id.uuid5": "namespace", "units.length": "from_unit", "money.vat_add": "rate",
    "money.loan_payment": "annual_rate", "regex.match": "pattern",
}  # fmt: skip


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example_in_process(example):
    outcome = call_utility(example.utility, dict(example.args))
    assert outcome.ok, outcome.to_dict()
    assert results_equal(example.result, outcome.result), (example.result, outcome.result)
    assert json.loads(json.dumps(outcome.result)) == outcome.result


def test_catalog_meets_the_counts():
    summary = catalog_summary()
    assert summary.utilities >= 95
    assert summary.categories == 14
    assert summary.examples >= 114
    assert len(summary.digest) == 64 and int(summary.digest, 16) >= 0
    assert summary.examples == len(EXAMPLES)


def test_run_examples_reports_every_example():
    report = run_examples()
    assert (report.total, report.passed, report.failed) == (len(EXAMPLES), len(EXAMPLES), 0)
    assert report.failures == ()


def test_digest_is_stable_and_canonical():
    catalog = load_catalog()
    load_catalog.cache_clear()
    try:
        assert load_catalog().digest == catalog.digest
    finally:
        load_catalog.cache_clear()
        load_catalog()


@pytest.mark.parametrize("uid", sorted(REQUIRED))
def test_required_ids_and_argument_names(uid):
    entry = registry.lookup("utility", uid)
    schema = entry.metadata["schema"]
    assert isinstance(schema, UtilitySchema)
    names = [a.name for a in schema.arguments]
    for name in REQUIRED[uid]:
        assert name in names, f"{uid} lacks argument {name}"
    if uid in CIRCUMSTANCES:
        assert schema.argument(CIRCUMSTANCES[uid]).role is Role.CIRCUMSTANCE


def test_every_schema_is_complete():
    catalog = load_catalog()
    categories = {c.id for c in catalog.categories}
    for uid, schema in catalog.schemas.items():
        assert schema.category in categories and uid.startswith(schema.category + ".")
        assert schema.en and schema.ru and schema.examples
        for arg in schema.arguments:
            assert arg.en and arg.ru and arg.role in (Role.DATA, Role.CIRCUMSTANCE)
            assert arg.required or arg.default is None or isinstance(
                arg.default, str | int | float | bool)
        assert json.dumps(schema.to_dict(), ensure_ascii=False)


def test_every_category_has_utilities():
    catalog = load_catalog()
    assert all(catalog.in_category(c.id) for c in catalog.categories)


def test_same_call_same_result():
    a = call_utility("date.convert_timezone", {"datetime": "2024-03-10T12:00:00",
                                               "from_tz": "America/New_York",
                                               "to_tz": "Europe/London"})
    b = call_utility("date.convert_timezone", {"datetime": "2024-03-10T12:00:00",
                                               "from_tz": "America/New_York",
                                               "to_tz": "Europe/London"})
    assert a.to_dict() == b.to_dict()


SHAPED = sorted((s.id, a.name) for s in load_catalog().schemas.values() for a in s.arguments if a.shape)


def test_identifiers_declare_their_form():
    assert {uid for uid, _ in SHAPED} == {
        "id.validate_inn", "id.validate_snils", "id.validate_ogrn", "id.validate_ean13",
        "id.validate_kpp", "id.validate_bik", "id.validate_iban", "id.validate_isbn",
        "address.validate_postcode_ru"}


@pytest.mark.parametrize(("uid", "name"), SHAPED)
def test_a_value_of_another_form_is_answered_invalid_not_refused(uid, name):
    """The form is what the check reads first: every example it passes has it, and a value without
    it is answered (its check fails), never refused, so the form tells an identifier from another
    number of a message without judging one given as the identifier."""
    schema = load_catalog().schemas[uid]
    arg = next(a for a in schema.arguments if a.name == name)
    for example in (e for e in EXAMPLES if e.utility == uid):
        if isinstance(example.result, dict) and example.result.get("valid"):
            assert arg.fits_shape(example.args[name]), example
    assert not arg.fits_shape("209") and not arg.fits_shape("")
    outcome = call_utility(uid, {name: "209"})
    assert outcome.ok and outcome.result["valid"] is False
    assert arg.to_json_schema()["x-shape"] == arg.to_dict()["shape"] == arg.shape


def _first_span(form: str, text: str) -> str | None:
    """The first (longest) span of ``text`` that has ``form``, as text, or ``None``."""
    found = form_spans(form, text)
    return text[found[0][0]:found[0][1]] if found else None


@pytest.mark.parametrize(("text", "table"), [
    ("Turn this into a table (week 6, shops 1-3)?\nshop,loaves\n1,420\n2,385", "shop,loaves\n1,420\n2,385"),
    ("a;b;c\n1;2;3 \nnot a row", "a;b;c\n1;2;3"),
    ("Sale 44, Saturday session.", None),  # one line is no table
    ("a,b\nc\nd,e", None),  # a line of another count ends a run before its second line
    ("Sale 44, Saturday session:\nlot,hammer\n12,85000", "lot,hammer\n12,85000"),
])
def test_a_table_is_two_lines_or_more_with_as_many_fields_each(text, table):
    assert _first_span("table", text) == table


@pytest.mark.parametrize(("text", "address"), [
    ("443099, г. Самара, ул. Молодогвардейская, д. 151, кв. 45. Заявитель ждёт у окна №2.",
     "443099, г. Самара, ул. Молодогвардейская, д. 151, кв. 45"),  # the sentence after it adds no part
    ("620014, г. Екатеринбург, ул. Малышева, д. 51, оф. 310 (контакт Ольга, 8 912 040 77 15)",
     "620014, г. Екатеринбург, ул. Малышева, д. 51, оф. 310"),  # an office stays, the remark goes
    ("344002, г. Ростов-на-Дону, ул. Большая Садовая, д. 45, кв. 8 — разбей по полям",
     "344002, г. Ростов-на-Дону, ул. Большая Садовая, д. 45, кв. 8"),
    ("холмск, сахалинская обл, советская ул, 12, 694620. Заявка 3312",
     "холмск, сахалинская обл, советская ул, 12, 694620"),
    ("кв 14 дом 7 улица Ленина Москва 101000", "кв 14 дом 7 улица Ленина Москва 101000"),
    # a part of the address after a full stop keeps the clause
    ("г. Тула, ул. Советская, д. 5. Корпус 2", "г. Тула, ул. Советская, д. 5. Корпус 2"),
    ("кв. 56. Он в выписке", None),  # one part is no address
    ("Заявитель сидит у окна", None),
])
def test_an_address_runs_to_the_clause_after_which_no_part_of_it_follows(text, address):
    assert _first_span("address", text) == address


@pytest.mark.parametrize(("text", "run"), [
    ("Воробьёв Евгений. Водитель будет в 10:00", "Воробьёв Евгений"),  # the sentence after the name
    ("Дмитрий Журавлёв, our steward supervisor", "Дмитрий Журавлёв"),  # a remark in Latin letters
    ("Воробьёв Илья Кириллович. (Жуков не едет)", "Воробьёв Илья Кириллович"),
    ("И. И. Петров", "И. И. Петров"),  # an initial's full stop ends nothing
    ("ICAO: Иванов", "Иванов"),
    ("Пасека Ёлкино, мёд разнотравье", "Пасека Ёлкино, мёд разнотравье"),  # a comma ends nothing
    ("2025-0412", None),
])
def test_a_text_to_transliterate_is_its_first_cyrillic_clause(text, run):
    assert _first_span("cyrillic", text) == run


@pytest.mark.parametrize(("text", "run"), [
    ("what does it say? 0JzQsNGCINCyINGC0YDQuCDRhdC+0LTQsA== (post #771)",
     "0JzQsNGCINCyINGC0YDQuCDRhdC+0LTQsA=="),  # a plus and a slash are inside the string
    ("token: eyJidWlsZCI6IjEuMC4zIn0 from the configuration file", "eyJidWlsZCI6IjEuMC4zIn0"),
    ("decode c2VjcmV0", "c2VjcmV0"),
    ("the configuration of 2025", None),  # a word, a year: no encoded bytes
])
def test_a_base64_run_is_encoded_bytes_whole_not_a_word(text, run):
    assert _first_span("base64", text) == run


@pytest.mark.parametrize(("text", "url"), [
    ("https://example.ru/a?x=1#top — not the old /promo page", "https://example.ru/a?x=1#top"),
    ("(see https://a.ru/x).", "https://a.ru/x"),
    ("rtsp://viewer@192.168.50.21:8554/ch/102", "rtsp://viewer@192.168.50.21:8554/ch/102"),
    ("example.com/x", None),  # no scheme, no link of this form
])
def test_a_link_is_its_first_url_with_a_scheme_up_to_a_space(text, url):
    assert _first_span("url", text) == url


@pytest.mark.parametrize(("text", "clause"), [
    ("Smith & Sons <Autumn> Cup. The old one for Members' Day was fine", "Smith & Sons <Autumn> Cup"),
    ("Floor Plan Level 2 Rev C (sheet A-102)", "Floor Plan Level 2 Rev C"),
    ("bar_menu_v3.pdf — v2 уже не актуален, его не считай", "bar_menu_v3.pdf"),
    ("anna.petrova@mail.ru", "anna.petrova@mail.ru"),  # a full stop inside a word ends nothing
    ("Hello, world!", "Hello, world!"),  # no words after the end
    ("И. Петров", "И. Петров"),  # an initial
    ("(sheet A-102) Rev C", "(sheet A-102) Rev C"),  # a mark it opens with ends nothing
])
def test_a_phrase_runs_to_its_first_clause_end_that_words_follow(text, clause):
    assert _first_span("phrase", text) == clause


def test_a_phrase_leaves_nearly_every_bundled_gold_value_whole():
    """What a phrase costs: a gold value it would ask about, unquoted in its question."""
    from workbench.routing._binder_candidates import set_in_quotes
    from workbench.routing._normalise import ArgSpan

    phrases = {(s.id, a.name) for s in load_catalog().schemas.values() for a in s.arguments
               if a.form == "phrase"}
    assert {"hash.md5", "encoding.html_escape", "text.change_case", "id.uuid5"} <= {u for u, _ in phrases}
    seen, asked = 0, []
    for path in sorted((ROOT / "corpus" / "questions").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            gold = row.get("gold")
            if not isinstance(gold, dict) or gold.get("source") != "utility":
                continue
            for name, value in (gold.get("args") or {}).items():
                if (gold.get("utility"), name) not in phrases or not isinstance(value, str):
                    continue
                seen += 1
                at = row["question"].find(value)
                if form_spans("phrase", value) != [(0, len(value))] and not set_in_quotes(
                        row["question"], ArgSpan(at, at + len(value), "text")):
                    asked.append(row["id"])
    assert seen > 500 and len(asked) <= seen // 100, asked


def test_texts_declare_the_form_every_bundled_gold_value_has():
    """A declared form is what every meaningful value has: no gold call of a bundled set lacks it."""
    formed = {(s.id, a.name): a for s in load_catalog().schemas.values() for a in s.arguments
              if a.form and not TEXT_FORMS[a.form].asks}
    assert set(formed) == {("format.csv_to_markdown", "data"), ("format.csv_to_json", "data"),
                           ("text.transliterate", "text"), ("charset.fix_mojibake", "text"),
                           ("address.parse_ru", "address"), ("address.normalize_ru", "address"),
                           ("encoding.base64_decode", "data"), ("net.parse_url", "url")}
    seen = 0
    for path in sorted((ROOT / "corpus" / "questions").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            gold = json.loads(line).get("gold")
            if not isinstance(gold, dict) or gold.get("source") != "utility":
                continue
            for name, value in (gold.get("args") or {}).items():
                arg = formed.get((gold.get("utility"), name))
                if arg is not None:
                    seen += 1
                    assert arg.has_form(value), (path.name, gold)
                    if TEXT_FORMS[arg.form].within:  # a form that cuts leaves a gold value whole
                        assert form_spans(arg.form, value) == [(0, len(value))], (path.name, gold)
    assert seen > 100
    for (uid, name), arg in formed.items():  # a value without the form is answered, not refused
        example = next(e for e in EXAMPLES if e.utility == uid)
        outcome = call_utility(uid, {**example.args, name: "2025"})
        # Base64 reads "2025" as bytes that are no UTF-8: the utility's own check, no form's
        assert outcome.ok or (uid, outcome.refusal.code) == ("encoding.base64_decode", "BAD_ARGUMENT")
        assert arg.to_json_schema()["x-form"] == arg.to_dict()["form"] == arg.form


@pytest.mark.parametrize(("text", "run"), [
    ("в 1С открылось так: РњСѓРєР° РїС€РµРЅРёС‡РЅР°СЏ РІ/СЃ, РјРµС€РѕРє 50 РєРі вЂ” 1 395 Можно вернуть?",
     "РњСѓРєР° РїС€РµРЅРёС‡РЅР°СЏ РІ/СЃ, РјРµС€РѕРє 50 РєРі вЂ”"),  # to its last misread word
    ("пришло «РЎРјРёСЂРЅРѕРІР°». Почини", "РЎРјРёСЂРЅРѕРІР°"),  # the quote mark and the stop left out
    ("SMS: `Р’Р°РіРѕРЅ 7, РјРµСЃС‚Рѕ 23` - fix it", "Р’Р°РіРѕРЅ 7, РјРµСЃС‚Рѕ 23"),  # a quote is whole
    ("клиент: РЁС‚СЂР°С„ РѕРїР»Р°С‡РµРЅ?", "РЁС‚СЂР°С„ РѕРїР»Р°С‡РµРЅ?"),  # the text's own last mark
    ("the name came as cafÃ© and that is all", "cafÃ©"),
    ("Можно вернуть нормальный текст? Привет, мир, так тут", None),  # «так» in cp866 reads as braille
])
def test_a_misread_text_is_the_run_of_words_its_bytes_repair(text, run):
    assert _first_span("misread", text) == run
