"""The spans a question offers to the rule router's binding: literals, tokens, numbers, tails.

:class:`_Offer` collects them once per question and utility; the functions after it find unquoted
data (a tail after a cue, the words between an order and its target) and reconcile the text after a
colon with the quotes inside it.
"""

from __future__ import annotations

import re

from workbench.relevance import (
    GENERIC_WORDS,
    circumstance_spans,
    first_colon,
    question_literal_spans,
)
from workbench.routing._asks import OWNER_WORDS, orders_computation
from workbench.routing._normalise import (
    BASE_ARGS,
    PERCENT_ARGS,
    base_spans,
    date_spans,
    month_spans,
    number_spans,
    percent_spans,
    range_start_spans,
    reads_decimal_comma,
    unit_letter_spans,
    vocabularies,
)
from workbench.routing._tables import not_a_value, rule_patterns
from workbench.routing._values import (
    DATA_ALPHABETS,
    _counts_time,
    _counts_within,
    _day_and_month,
    _numbered,
    _opens_quote,
    _overlaps,
    _part_of_value,
    _quoted_name,
    unnamed_spans,
)
from workbench.routing._vocabulary import vocabulary_for
from workbench.text import morphology
from workbench.utilities import UtilitySchema, call_utility

P = rule_patterns()
"""The named patterns of ``data/patterns.yaml``."""
NAV = not_a_value()
"""The contexts of ``data/not_a_value.yaml`` in which a number is no value."""


TAIL_ARGS = frozenset({"text", "data"})
"""String data arguments that may take the one word after a cue such as «строки» or "word"."""


PAIR_ARGS = ("a", "b")


def _name_only(question: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` cut to the full name it opens with (:data:`P.full_name`), where a comma or a bracket follows.

    What comes after the name is a remark about the person («, 8А. Мама ждёт к 16:00.»).
    """
    name = P.full_name.match(question, span[0], span[1])
    if name is not None and re.match(r"\s*[,(]", question[name.end():span[1]]):
        return span[0], name.end()
    return span


def _one_sentence(question: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` cut after its first sentence where that holds no digit and the rest holds one.

    «…ICAO: Жанибеков Ерлан Сейтжанович. Номер 305, заезд в 14:00.», «slug: Кремль закроют на
    реставрацию. Материал id 40877»: the sentences with figures after a name or a title are
    remarks about the booking or the page, no part of it.

    A remark in brackets with a figure at the end of an unquoted tail is cut as well: «Замена ремня
    ГРМ (цену 6 500 в адрес не надо).», «Письма_1834.pdf (скан 36 стр.)»; a quoted title keeps its
    brackets ("Ten Tips for Faster CI Pipelines (2025 Edition)").
    """
    stop = P.sentence_end.search(question, span[0], span[1])
    if stop is not None and not re.search(r"\d", question[span[0]:stop.start()]) and re.search(
            r"\d", question[stop.end():span[1]]):
        return span[0], stop.start()
    remark = P.bracketed_remark.search(question, span[0], span[1])
    if remark is not None and remark.start() > span[0] and not _opens_quote(question, span[0]):
        return span[0], remark.start()
    return span


_QUOTE_MARKS = " \t«»\"'`“”„"


class _Offer:
    """The spans one question offers, by kind, in order; binding takes them one by one."""

    def __init__(self, question: str, schema: UtilitySchema, own: tuple[str, ...],
                 own_patterns: tuple[tuple[str, re.Pattern[str]], ...] = (),
                 names: frozenset[str] = frozenset()) -> None:
        colon = first_colon(question)
        literals = _blocks_whole(question, _tail_resolved(
            question, [(s, e) for s, e in question_literal_spans(question) if e > s], colon))
        tail = question[colon + 1:].strip()
        if colon >= 0 and "\n" in tail and P.one_line.search(question, 0, colon + 1):
            # "sha256 of this line exactly:" names one line: the lines after it are remarks
            start = colon + 1 + len(question[colon + 1:]) - len(question[colon + 1:].lstrip())
            literals = [(s, question.index("\n", start) if s == start else e) for s, e in literals]
        if colon >= 0 and (tail[:1] in {"{", "["} or "\n" in tail) and literals:
            block = literals.pop()  # the block after the colon comes first
            literals.insert(0, block)
        self.literals = literals
        # what an address starts or ends with ("ends with ::1") is a part of it
        ips = [(m.start(), m.end()) for m in P.ip.finditer(question)] + _ipv6_spans(question)
        self.ips = sorted(ip for ip in ips
                          if not NAV.part_of_value.search(question, max(0, ip[0] - 20), ip[0]))
        self.romans = [(m.start(), m.end()) for m in P.roman.finditer(question)]
        self.dates = date_spans(question)
        self.date_spans = tuple(self.dates)  # every date, kept while binding takes from self.dates
        self.range_starts = range_start_spans(question)
        self.months = month_spans(question)
        self.percents = percent_spans(question)
        wants_percent = any(a.name in PERCENT_ARGS for a in schema.arguments)
        self.bases = (base_spans(question)
                      if any(a.name in BASE_ARGS for a in schema.arguments) else [])
        avoid = self.ips + (self.percents if wants_percent else []) + self.bases
        # a number after «№» or "No." numbers a thing (an invoice, a house), and one before a
        # month's name is the day of a date: neither is a quantity
        quoted_names = [(s, e) for s, e in question_literal_spans(question) if _quoted_name(question, s, e)]
        # a time of day, a phone number, a vehicle's plate, a document's number, a school's class,
        # a room and a number after a record's noun ("line 8812", «кв. 48») name when, whom and
        # what, no value; an address utility reads a flat's number as a part of its address
        unnamed = unnamed_spans(question)
        self.unnamed = unnamed
        place = not P.flats_in_address.fullmatch(schema.id)
        self.numbers = [n for n in number_spans(question) if not _overlaps(n, avoid + unnamed)
                        and not _numbered(question, n[0], place)
                        and not NAV.part_of_value.search(question, max(0, n[0] - 20), n[0])
                        and not _day_and_month(question, *n)
                        and not (n[1] - n[0] >= 5 and NAV.code_prefix.search(question, 0, n[0]))
                        and not any(s <= n[0] and n[1] <= e for s, e in quoted_names)
                        and not any(P.day_gap.fullmatch(question, n[1], m) for m, _ in self.months)]
        # number words count only where the digits run out: in "my two favourite numbers are 84
        # and 126" the two counts the numbers, it is none of them
        digits = [n for n in self.numbers if not question[n[0]].isalpha()]
        if len(digits) < len(self.numbers) and len(digits) >= sum(
                1 for a in schema.arguments if a.type in {"integer", "number"}
                and (a.role.value == "data" or a.required)
                and a.name not in PERCENT_ARGS | BASE_ARGS):
            self.numbers = digits
        tokens = [(m.start(), m.end()) for m in P.spaced_token.finditer(question)]
        for m in P.url.finditer(question):  # a whole URL, its query string too
            tokens.append((m.start(), m.start() + len(m[0].rstrip(".,;:!?)"))))
        for m in [*P.percent_run.finditer(question), *P.form_run.finditer(question)]:
            span = (m.start(), m.start() + len(m[0].rstrip(".,;:!?)")))
            if not _overlaps(span, tokens):
                tokens.append(span)
        own_words = {word for name in own for word in name.split()}
        whole_numbers = number_spans(question, words=False)
        for m in P.token.finditer(question):
            text = m[0].rstrip(".?")
            if text.endswith(":") and not text.endswith("::"):  # "EAN 4601234567893: 13 digits"
                text = text[:-1]
            # glued into a longer run on both sides («state=42&next=/home»), it is a piece of a
            # value, not one
            if P.glued.fullmatch(question[m.start() - 1:m.start()] + question[m.start() + len(text):][:1]):
                continue
            # a charset, a word of the utility's own names ("Base64" in "decode this base64") or
            # the name of any utility ("UUID5" asked of the version-3 one) names no data
            if P.charset_name.fullmatch(text) or text.lower() in own_words or text.lower() in names or any(
                    w in text.lower() for w in own):
                continue
            end = m.start() + len(text)
            # a part of a date («12» of "12 May 1990") or of a number (the «200» of "3,200"), a
            # count of the data's parts («из 12 символов») and a file's name are no data of their own
            whole = next(((s, e) for s, e in whole_numbers
                          if s <= m.start() and end <= e and (s, e) != (m.start(), end)), None)
            if whole is not None and not _overlaps(whole, tokens + self.bases + unnamed):
                tokens.append(whole)  # "SHA-256 of 3,200": the whole number is the token
            if (whole is not None
                    or (text[:1] == "#" and NAV.numero.search(question, 0, m.start() + 1))  # "ticket #5521"
                    or _overlaps((m.start(), end), unnamed) or _day_and_month(question, m.start(), end)
                    or _numbered(question, m.start(), place)  # «договора № 112/25», «тикет 4471»
                    or (NAV.host.fullmatch(text)
                        and NAV.host_place.search(question, max(0, m.start() - 10), m.start()))
                    or (text.isdigit() and _counts_time(question, (m.start(), end)))
                    or any(s <= m.start() and end <= e and (s, e) != (m.start(), end) for s, e in self.dates)
                    or _part_of_value(question, m.start(), text)
                    or NAV.standard_name.search(question, max(0, m.start() - 8), m.start())
                    or P.file_name.fullmatch(text)):
                continue
            if not _overlaps((m.start(), end), tokens + self.bases):
                tokens.append((m.start(), end))
        self.tokens = sorted(tokens)
        self.schema, self.own, self.own_patterns = schema, own, own_patterns
        # a comma is the decimal mark in Russian («3,141»), a thousands separator in English
        self.number_style = "-ru" if reads_decimal_comma(question) else ""
        self.vocab: dict[str, list[tuple[int, int]]] = {}
        between = P.between.search(question)
        # the pair compared, when no quoted literal gives it and both words may be data
        self.pair = ([between.span(1), between.span(2)] if between and not literals and all(
            _plain_data(question, *between.span(g)) for g in (1, 2)) else [])
        self.question = question

    def spans(self, normaliser: str) -> list[tuple[int, int]]:
        """The spans that name a value of ``enum:<vocabulary>``, in order, without overlaps.

        Or, for ``unit-letter``, the single letters that name a unit where they stand
        (:func:`unit_letter_spans`). One list a normaliser: binding takes its spans out of it.
        """
        if normaliser not in self.vocab:
            self.vocab[normaliser] = (unit_letter_spans(self.question) if normaliser == "unit-letter" else
                                      vocabularies()[normaliser.removeprefix("enum:")].separate_spans(self.question))
        return self.vocab[normaliser]

    def tail(self) -> list[tuple[int, int]]:
        """Unquoted data, best first: the last resort of a text argument.

        What :func:`_tail_spans`, :func:`_between_order_and_target`,
        :func:`_after_opening_name` and :func:`_cyrillic_in_english` read, in that order.
        """
        names = "|".join(re.escape(w) for w in sorted(self.own, key=len, reverse=True) if w)
        targets = self._targets()
        # words that count their own parts («три слова, длина 27 символов») describe the data
        return [span for span in (_tail_spans(self.question, names)
                                  + _between_order_and_target(self.question, targets)
                                  + _after_opening_name(self.question, names, targets)
                                  + _cyrillic_in_english(self.question))
                if not _counts_within(self.question, *span)
                # nor are what a value begins with ("begins with Гали") the value
                and not NAV.part_of_value.search(self.question, max(0, span[0] - 21), span[0])
                # nor a class, a phone or a plate alone («MD5 для 10А»)
                and not any(s <= span[0] and span[1] <= e for s, e in self.unnamed)]

    def _targets(self) -> list[int]:
        """Where the utility's own names and the words of its enum vocabularies start."""
        low = self.question.lower()
        starts = [m.start() for _, pattern in self.own_patterns for m in pattern.finditer(low)]
        for arg in self.schema.arguments:
            vocabulary = vocabulary_for(self.schema.id, arg.name)
            if vocabulary is not None:
                # not self.spans(): binding takes its spans out of that list one by one
                starts += [start for start, _ in vocabularies()[vocabulary].separate_spans(self.question)]
        return starts


def _tail_spans(question: str, names: str) -> list[tuple[int, int]]:
    """Unquoted data that ends the question, best first: the last resort of a text argument.

    A phrase, a sentence or a text named as such is the rest of the question
    (:data:`P.phrase_tail`) where :func:`_plain_data` allows it: not «текста из письма», not «фразы
    привет в UTF-8» (where the data ends and the circumstance begins is not guessed). One word
    follows a cue (:data:`P.tail`: «слова», "string") or one of the utility's own ``names`` (a
    regular-expression alternation) and "of" («MD5 от admin»), under the same guard.
    """
    own = re.compile(rf"(?<!\w)(?:{names}){P.digest_noun.pattern}{P.of.pattern}([^\s«»\"'`,]+?)"
                     + P.tail_end.pattern, re.IGNORECASE)
    return (_plain_group(question, P.phrase_tail.search(question)) + _cue_named(question)
            + _plain_group(question, own.search(question)))


def _plain_group(question: str, match: re.Match[str] | None, *, file_name: bool = False
                 ) -> list[tuple[int, int]]:
    """The span of ``match``'s first group where :func:`_plain_data` allows it, as a list of one (or none)."""
    return [match.span(1)] if match and _plain_data(question, *match.span(1), file_name=file_name) else []


def _cue_named(question: str) -> list[tuple[int, int]]:
    """The one word a cue noun names as the data (:data:`P.tail`): «слова электрификация», "the word banana".

    Not a genitive that says whose string it is (:func:`_only_genitive`), and only where
    :func:`_plain_data` allows it. Named so, it is the data before a bare number the question
    holds («…, если поле принимает 32?»: the 32 is a limit).
    """
    match = P.tail.search(question)
    return [] if match and _only_genitive(match[1]) else _plain_group(question, match, file_name=True)


def _only_genitive(word: str) -> bool:
    """Whether a Russian word is a genitive in every parse: «строки браузера», «текста документа».

    After a cue noun such a word says whose string or text it is (the browser's, the document's),
    where the data itself stands in the nominative or accusative («слова кот», «фамилию Кузнецова»).
    """
    if not re.fullmatch(r"[А-Яа-яЁё-]+", word):
        return False
    return all("gent" in parse.tag for parse in morphology().parse(word.lower()))


def _marked_runs(question: str, own: tuple[str, ...]) -> list[tuple[int, int]]:
    """Unquoted runs that hold a mark of a regular expression, neighbours joined into one.

    "Escape the special characters in a.b*c" gives «a.b*c», «строку a+b (c)» gives «a+b (c)»:
    two such runs one space apart are one value. A question mark or full stop that ends the
    question is left out. The run must follow a word that introduces data (:data:`P.text_cue`),
    one of the utility's ``own`` names ("Escape [abc].*") or a colon: in "match the literal text
    price (USD) + tax" the data begins before the marks, and where it begins is not guessed.
    """
    def introduced(start: int) -> bool:
        before = question[max(0, start - 24):start].lower().rstrip()
        return bool(P.text_cue.search(before) or before.endswith(":")
                    or any(before.endswith(word) for word in own))

    found: list[tuple[int, int]] = []
    for m in P.marked_run.finditer(question):
        start, end = m.start(), m.end()
        if end == len(question.rstrip()):
            end = start + len(m[0].rstrip("?.!"))
        if found and question[found[-1][1]:start] == " ":
            found[-1] = (found[-1][0], end)
        else:
            found.append((start, end))
    return [span for span in found if introduced(span[0])]


def _cued_value(question: str, cue: re.Pattern[str], mark: re.Pattern[str] | None = None
                ) -> list[tuple[int, int]]:
    r"""The run written right after the name of its argument (the group of ``cue``).

    «Найди числа в "abc 12" по регулярке \d+» and "pattern (\d+)-(\d+), replacement \2"
    name a pattern and a replacement. Where ``mark`` is given the run must hold it (a pattern a
    mark of a regular expression, so "the pattern my colleague sent" is none). A comma or
    semicolon after it ends it, and so does the question mark that ends the question.
    """
    found = []
    for m in cue.finditer(question):
        text = m[1].rstrip(",;").rstrip("?.!" if m.end(1) == len(question) else "")
        if mark is None or mark.search(text):
            found.append((m.start(1), m.start(1) + len(text)))
    return found


def _named_word(question: str) -> list[tuple[int, int]]:
    """The word after the noun "name" (:data:`P.named`), its closing punctuation left out."""
    words = [(m.start(1), m.start(1) + len(m[1].rstrip(".?!:"))) for m in P.named.finditer(question)]
    return [word for word in words if _plain_data(question, *word)]


def _plain_data(question: str, start: int, end: int, *, file_name: bool = False) -> bool:
    """Whether the unquoted words ``question[start:end]`` may be data.

    They neither point at data («выше», "this") nor begin with a word that names none («из»,
    "the") nor hold a quoted literal ("matches of `[0-9]+`": the literal is the pattern, and the
    text is missing) nor a circumstance (an encoding, a time zone), nor are they a possessive
    («нашего») or hold a file's name (:data:`P.file_name`; «MD5 файла report.pdf» asks about its
    content), unless ``file_name`` allows one: after a noun that names a string («для строки
    отчёт_март_2025.xlsx») the name is the data.
    """
    text = question[start:end]
    return not (not re.search(r"\w", text) or P.pointing_word.search(text) or P.deixis.search(text)
                or OWNER_WORDS.search(text) or (not file_name and any(
                    P.file_name.fullmatch(word.strip(" ,.;:!?")) for word in text.split()))
                or any(mark in text for mark in "«»\"`“”„")  # a quoted literal in it is the data, if any is
                or GENERIC_WORDS.fullmatch(text.split()[0])
                # «…ПД? он на русском»: the next sentence describes a text not given
                or P.described_after.search(text)
                or any(s < end and start < e for s, e, _ in circumstance_spans(question)))


def _between_order_and_target(question: str, targets: list[int]) -> list[tuple[int, int]]:
    """The words between an opening order and "into"/«в» followed by one of ``targets``.

    ``targets`` are where the utility's own name or a word of one of its enum vocabularies starts:
    "Turn Hello into Base32" gives «Hello», "Convert it to YAML" nothing (it points).
    """
    order = P.order.match(question)
    if not order or not targets:
        return []
    # the noun that names the data is not a part of it: «Переведи фамилию Щука в латиницу»
    named = P.data_noun.match(question, order.end())
    start = named.end() if named else order.end()
    into = next((m for m in P.into.finditer(question, start) if m.end() in targets), None)
    return [(start, into.start())] if into and _plain_data(question, start, into.start()) else []


def _cyrillic_in_english(question: str) -> list[tuple[int, int]]:
    """The one run of Cyrillic words in a question otherwise written in Latin letters.

    "Transliterate Жуков into Latin letters using the GOST standard": in an English sentence the
    Russian words are what it works on. Not where there are two runs (which one is the data is not
    guessed), nor where the English words are fewer than three or than the Russian ones
    («Какую длину ключа … для HMAC-SHA256?» is a Russian question), nor where
    :func:`_plain_data` refuses the run.
    """
    runs = [m.span() for m in P.cyrillic_run.finditer(question)]
    english = len(re.findall(r"(?<![\w-])[A-Za-z]+(?![\w-])", question))  # plain words, no "SHA256"
    if len(runs) != 1 or english < 3 or english <= len(question[slice(*runs[0])].split()):
        return []
    return runs if _plain_data(question, *runs[0]) else []


def _after_opening_name(question: str, names: str, targets: list[int]) -> list[tuple[int, int]]:
    """The rest of a request that opens with the utility's own name: "HTML-escape <b>bold</b>".

    Not when the question asks (it ends in «?»), nor when the rest names the utility or one of its
    enum words again ("Transliterate Жуков the way a passport does": where the data ends is not
    guessed), nor where :func:`_plain_data` refuses it ("md5 of this", «base64 для текста …»).
    """
    text = question.rstrip()
    opening = re.match(rf"\s*(?:please\s+)?(?:{names})\w*[\s:]+", text, re.IGNORECASE)
    if not names or text.endswith("?") or not opening or any(opening.end() <= t < len(text) for t in targets):
        return []
    return [(opening.end(), len(text))] if _plain_data(question, opening.end(), len(text)) else []


def _tail_resolved(question: str, literals: list[tuple[int, int]], colon: int
                   ) -> list[tuple[int, int]]:
    """The literals with the text after the colon reconciled with the quotes inside it.

    A JSON value or several lines after the colon is one value whatever quotes it holds; a tail
    that only wraps one quoted literal («…») is that literal; a tail around one quote and more
    text (``5 < 7 && "кавычки"``) is the data, the quote a part of it, unless the tail ends in a
    question mark (`` md5 of "letmein"?``, «сколько байт займёт «Щука»?»): then it is the question
    itself, asked about the quote; a tail around two or more quotes is a list of them, not one value.
    ``colon`` is :func:`~workbench.relevance.first_colon` of the question.
    """
    if colon < 0 or not literals:
        return literals
    tail = literals[-1]
    mark = P.detached_mark.search(question, tail[0], tail[1])
    if mark is not None:  # "…%D1%8C ?": the question's own mark, set apart, is no part of the data
        tail = (tail[0], mark.start())
        literals = literals[:-1] + [tail]
    inside = [lit for lit in literals[:-1] if tail[0] <= lit[0] and lit[1] <= tail[1]]
    if not inside:
        if P.question_opening.match(question, tail[0]) and question[:tail[1]].rstrip().endswith("?"):
            return literals[:-1]  # "chmod question: what does octal 755 look like?" asks; it is no data
        return literals[:-1] + [_without_closing_question(question, tail)]
    outside = [lit for lit in literals[:-1] if lit not in inside]
    block = question[tail[0]:tail[1]]
    if block[:1] in {"{", "["}:  # JSON: the quotes are inside one value, which ends where it closes
        end = _closing(block)
        if end is not None and re.search(r"[^\W\d_]", block[end:]):
            tail = (tail[0], tail[0] + end)  # "{…} — can you turn it into YAML?"
        return outside + [tail]
    if "\n" in block:
        return outside + [_without_closing_question(question, tail)]  # lines: one value
    if (len(inside) > 1 or block.strip(_QUOTE_MARKS) == question[slice(*inside[0])]
            or block.rstrip().endswith("?") or _quote_then_sentence(question, tail, inside[0])):
        return outside + inside
    return outside + [tail]


def _quote_then_sentence(question: str, tail: tuple[int, int], quote: tuple[int, int]) -> bool:
    """Whether the tail opens with the quote and a new sentence or an order follows it.

    «…: «Отгрузку разделите на два адреса…». Выпишите все индексы из этого текста»: the quote
    is the data and the sentence after it the request; so is an order after the closing mark
    («клиент пишет: «…» выдерни индексы из сообщения»).
    """
    if question[tail[0]:quote[0]].strip(_QUOTE_MARKS) != "":
        return False
    if P.next_sentence.match(question, quote[1]) is not None:
        return True
    after = question[quote[1]:tail[1]].lstrip(_QUOTE_MARKS + " ,—–-")
    return bool(after) and question[quote[1]:quote[1] + 1] in _QUOTE_MARKS and orders_computation(after)


def _without_closing_question(question: str, tail: tuple[int, int]) -> tuple[int, int]:
    r"""The lines of a tail without a last line that asks about them.

    "Here it is:\n<the abstract>\nHow many words is that?": the last line, a question of three
    words or more, is the request, not a part of the data; so is a new sentence after one word
    ("…: Ёжик. Give me its bytes in koi8-r.").
    """
    block = question[tail[0]:tail[1]]
    head, _, last = block.rstrip().rpartition("\n")
    if head.strip() and last.strip().endswith("?") and len(last.split()) >= 3:
        return tail[0], tail[0] + len(head.rstrip())
    # "here's the word from it: Ёжик. Give me its bytes in koi8-r.": one word, then a new sentence,
    # which says what to do with it
    one = P.one_word_then_sentence.match(block)
    if one is not None:
        return tail[0] + one.start(1), tail[0] + one.end(1)
    # "…: ДМИТРИЕВ ПАВЕЛ СЕРГЕЕВИЧ. Сделай каждое слово с заглавной": a sentence that orders
    # what to do with the words before it is no part of them
    for stop in P.sentence_end.finditer(block):
        if orders_computation(block[stop.end():]):
            return tail[0], tail[0] + stop.start()
    # "…: Жукова Светлана Игоревна — это для справки в посольство": why it is needed is no part of it
    purpose = P.purpose_clause.search(block) or P.back_reference.search(block)
    if purpose is not None:
        return tail[0], tail[0] + purpose.start()
    return tail


def _closing(block: str) -> int | None:
    """Where the JSON object or array that opens ``block`` closes (the index after it), or None.

    Brackets inside JSON strings do not count; a block that never closes gives None.
    """
    depth, in_string, escaped = 0, False, False
    for i, ch in enumerate(block):
        if in_string:
            escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _blocks_whole(question: str, literals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The literals with every JSON object or array of the question as one value.

    ``{"a": 1,}`` written without a colon before it holds the quoted literal ``a``; the block is
    the value and its quotes are a part of it.
    """
    out = list(literals)
    for m in P.json_block.finditer(question):
        block = (m.start(), m.end())
        inside = [lit for lit in out if block[0] <= lit[0] and lit[1] <= block[1] and lit != block]
        if not inside:
            continue
        out = [lit for lit in out if lit not in inside] + [block]
    return sorted(out)


def _ipv6_spans(question: str) -> list[tuple[int, int]]:
    """IPv6 addresses: eight groups, or fewer with one «::» (never a time such as 10:00:00)."""
    return [m.span() for m in P.ipv6.finditer(question)
            if m[0].count("::") == 1 or (m[0].count(":") == 7 and "::" not in m[0])]


def _cued_first(literals: list[tuple[int, int]], question: str, cue: re.Pattern[str] | None = None) -> None:
    """Move the literal that follows «в строке», "in the string" to the front (it is the text).

    With ``cue``, the literal that follows it: «рубрика «Обратная связь». Разбери адрес на
    части: 603005, …» (:data:`P.address_cue`) gives the address after its noun, not the rubric.
    """
    pattern, reach = (cue, 32) if cue else (P.text_cue, 16)
    for i, (start, _) in enumerate(literals):
        if i and pattern.search(question[max(0, start - reach):start]):
            literals.insert(0, literals.pop(i))
            return


def _fitting(spans: list[tuple[int, int]], question: str, uid: str) -> list[tuple[int, int]]:
    """The spans that may be the data of ``uid``: written in its alphabet, changed by its repair.

    A span outside the letters the utility's data is written in (:data:`DATA_ALPHABETS`) is none
    («радуга» is no Base32). A utility that repairs its data (:data:`P.repaired_data`) takes only a
    span the repair changes: «UTF-8 прочитали как cp1251» is correct Russian, which no misreading
    undone gives back, so it is no garbled text. A span that the repair does not take whole is
    tried up to a dash set apart by spaces («Р“РµРјРѕРіР»РѕР±РёРЅ 132 Рі/Р» — почини пожалуйста»):
    the words after it are a remark.
    """
    if uid in DATA_ALPHABETS:
        spans = [span for span in spans if DATA_ALPHABETS[uid].fullmatch(question, *span)]
    if not P.repaired_data.fullmatch(uid):
        return spans
    kept = []
    for start, end in spans:
        dash = P.remark_dash.search(question, start, end)
        for stop in (end, dash.start()) if dash else (end,):
            text = question[start:stop]
            outcome = call_utility(uid, {"text": text})
            if outcome.ok and outcome.result != text:
                kept.append((start, stop))
                break
    return kept


def _shape_runs(question: str, shape: re.Pattern[str]) -> list[tuple[int, int]]:
    """The unquoted runs of ``shape``, neighbours one space apart joined into one value.

    "her name shows up as Р•Р»РµРЅР° РЎРѕРєРѕР»РѕРІР°. Can you …": the two words of mojibake are
    the one text to repair, though no quote or digit marks them as data.
    """
    found: list[tuple[int, int]] = []
    for m in shape.finditer(question):
        if found and m.start() < found[-1][1]:
            continue  # a run inside the word the last one was carried to («купли-продажи»)
        end = m.end()
        while end < len(question) and not question[end].isspace() and question[end] not in ".,;:!?»”\")":
            end += 1  # the rest of the word the run ends in, not the quote or bracket closing it
        if found and re.fullmatch(r"[ \t]", question[found[-1][1]:m.start()]):
            found[-1] = (found[-1][0], end)
        else:
            found.append((m.start(), end))
    return found
