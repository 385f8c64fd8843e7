"""The learned binder's training: decoy-laden generated lines, the dev splits, a seeded fit, a margin.

:func:`generate_decoy_lines` writes requests from templates per utility, each with a decoy slot:
a value of the argument's shape that another noun owns (a booking's number beside the sum, a
reader's card beside the ISBN, a birth year beside the SNILS, an INN beside the OGRN, a contract's
year beside the old price, a date that is not the date asked); :func:`absent_lines` writes
requests that give no value for the argument asked, only such a number, whose candidates are all
negatives. :func:`dev_lines` reads the dev split of every bundled ``router_*.jsonl`` but the
check-only sets (and, for the negatives, its lines refused for a missing argument); test and
held-out lines are never read. :func:`train_binder` fits a logistic regression (scikit-learn, seeded) on every
(argument, candidate) pair of those lines, and chooses the ambiguity margin by Learn then Test
(:func:`workbench.stats.learn_then_test`) on cross-fitted dev calls.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.config import project_root
from workbench.registry import build
from workbench.routing._binder import (
    BinderModel,
    Binding,
    LearnedBinder,
    ReferenceBinding,
    candidate_features,
)
from workbench.routing._binder_candidates import TooManyCandidates, candidates, same_value, weighed
from workbench.stats import NoPromise, learn_then_test
from workbench.utilities import UtilitySchema

CHECK_ONLY = frozenset({"router_styles.jsonl"})
"""Task sets nothing is trained or tuned on (the span router's check sets)."""
TRAIN_SPLITS = frozenset({"dev"})
"""The only split the binder reads; ``test`` and ``heldout`` lines are never read."""
ALPHA = 0.02
"""The risk promised: wrong calls among answered calls."""
DELTA = 0.1
"""The probability the promise may fail."""
MIN_ANSWERS = 50
"""The fewest answered calibration calls Learn then Test searches over."""
NO_RIVAL = 1e6
"""The score of a call none of whose arguments had a rival of another value."""


def dev_lines(questions_dir: str | Path | None = None, *, absent: bool = False) -> list[dict[str, Any]]:
    """The dev-split utility calls of every ``router_*.jsonl`` in the folder (not its sub-folders).

    The check-only sets (:data:`CHECK_ONLY`) are left out, and so is every line whose split is
    not in :data:`TRAIN_SPLITS`. With ``absent``, also each dev line that must be refused for a
    missing argument it names: its gold is ``{"utility", "args": {}, "missing"}``, and every
    candidate of that argument is one it must not take.
    """
    folder = Path(questions_dir) if questions_dir is not None else project_root() / "corpus/questions"
    rows = []
    for path in sorted(folder.glob("router_*.jsonl")):
        if path.name in CHECK_ONLY:
            continue
        for text in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(text) if text.strip() else None
            if not row or row.get("split") not in TRAIN_SPLITS:
                continue
            gold = row["gold"]
            if gold.get("source") == "utility" and gold.get("args"):
                rows.append({"question": row["question"], "gold": gold, "id": row.get("id", ""),
                             "set": path.stem})
            elif absent and gold.get("refusal") == "MISSING_ARGUMENT" and gold.get("utility"):
                rows.append({"question": row["question"], "id": row.get("id", ""), "set": path.stem,
                             "gold": {"utility": gold["utility"], "args": {}, "missing": gold["missing"]}})
    return rows


# --- generated lines with decoys -------------------------------------------------------------


def _n(rng: random.Random, digits: int) -> str:
    return str(rng.randint(10 ** (digits - 1), 10 ** digits - 1))


def _money(rng: random.Random, ru: bool) -> tuple[str, int]:
    value = rng.choice([rng.randint(100, 999), rng.randint(1000, 99999), rng.randint(100000, 999999)])
    text = f"{value:,}".replace(",", " " if ru and rng.random() < 0.5 else "," if not ru else "")
    return text, value


def _date(rng: random.Random) -> tuple[str, str]:
    y, m, d = rng.randint(2015, 2030), rng.randint(1, 12), rng.randint(1, 28)
    return f"{d:02d}.{m:02d}.{y}", f"{y:04d}-{m:02d}-{d:02d}"


RU_OWNERS = ("брони", "заказа", "счёта №", "договора №", "комн.", "квартиры", "тикета", "карты лояльности")
EN_OWNERS = ("order", "booking", "invoice #", "room", "ticket", "account", "reference", "desk")


def _template(rng: random.Random) -> tuple[str, str, dict[str, Any]]:
    """One request: its question, utility and gold arguments (a decoy in every one)."""
    ru = rng.random() < 0.5
    owner = rng.choice(RU_OWNERS if ru else EN_OWNERS)
    decoy = _n(rng, rng.choice([3, 4, 5, 6]))
    year = str(rng.randint(1960, 2024))
    kind = rng.randrange(KINDS)
    if kind >= ASIDES:
        return _aside_template(rng, kind, ru)
    if kind >= 12:
        return _sibling_template(rng, kind, ru, owner, decoy, year)
    if kind in (0, 1):
        amount, value = _money(rng, ru)
        rate = rng.choice([10, 12, 18, 20, 22])
        uid = "money.vat_extract" if kind == 0 else "money.vat_add"
        q = rng.choice([
            f"По {owner} {decoy} сумма {amount} руб., НДС {rate}% "
            + ("внутри. Выдели НДС." if kind == 0 else "сверху. Начисли НДС."),
            f"Начисли НДС {rate}% на {amount} руб. для {owner} {decoy}." if kind else
            f"Выдели НДС {rate}% из {amount} ₽, {owner} {decoy}.",
        ] if ru else [
            f"For {owner} {decoy} the total is {amount} USD with {rate}% VAT included. Extract the VAT."
            if kind == 0 else f"Add {rate}% VAT to {amount} for {owner} {decoy}.",
            f"{owner.capitalize()} {decoy}: how much VAT at {rate}% is in {amount}?" if kind == 0 else
            f"{owner.capitalize()} {decoy} costs {amount} before VAT; add {rate}% VAT.",
        ])
        return q, uid, {"amount": value, "rate": rate}
    if kind == 2:
        old, new = rng.randint(100, 9000), rng.randint(100, 9000)
        q = (f"В договоре {year} года цена была {old}, а теперь {new}. На сколько процентов она изменилась?"
             if ru else
             f"The {year} contract priced it at {old}; now it is {new}. What is the percent change?")
        return q, "money.percent_change", {"old": old, "new": new}
    if kind == 3:
        price, pct = rng.randint(200, 90000), rng.choice([5, 10, 15, 20, 25, 30])
        q = (f"Товар из {owner} {decoy} стоит {price} руб., скидка {pct}%. Сколько к оплате?" if ru else
             f"The item on {owner} {decoy} costs {price}, with a {pct}% discount. What do I pay?")
        return q, "money.discount", {"price": price, "percent": pct}
    if kind == 4:
        isbn, card = "978" + _n(rng, 10), _n(rng, rng.choice([6, 8, 10]))
        q = rng.choice([f"Читательский билет {card}, книга с ISBN {isbn}. Проверь ISBN.",
                        f"Проверь ISBN {isbn} — билет читателя {card}."] if ru else
                       [f"Reader card {card} borrowed ISBN {isbn}. Is that ISBN valid?",
                        f"Is ISBN {isbn} valid? My library card is {card}."])
        return q, "id.validate_isbn", {"isbn": isbn}
    if kind == 5:
        snils = f"{_n(rng, 3)}-{_n(rng, 3)}-{_n(rng, 3)} {_n(rng, 2)}"
        q = (f"Сотрудник {year} г.р., СНИЛС {snils}. Он корректен по контрольной сумме?" if ru else
             f"The employee was born in {year}; SNILS {snils}. Does its checksum hold?")
        return q, "id.validate_snils", {"snils": snils}
    if kind in (6, 7):
        inn, ogrn = _n(rng, 10), _n(rng, 13)
        asked, uid = (("ОГРН", "id.validate_ogrn") if kind == 6 else ("ИНН", "id.validate_inn"))
        latin = "OGRN" if kind == 6 else "INN"
        q = rng.choice([f"У фирмы ИНН {inn} и ОГРН {ogrn}. Проверь {asked}.",
                        f"Проверь {asked}: ОГРН {ogrn}, ИНН {inn}."] if ru else
                       [f"The firm's INN is {inn} and its OGRN {ogrn}. Check the {latin}.",
                        f"OGRN {ogrn}, INN {inn}: validate the {latin}."])
        return q, uid, {"ogrn": ogrn} if kind == 6 else {"inn": inn}
    if kind == 8:
        n = rng.randint(2, 9999)
        q = (f"Я живу в {owner} {decoy}. Является ли {n} простым числом?" if ru else
             f"I am in {owner} {decoy}. Is {n} a prime number?")
        return q, "number.is_prime", {"n": n}
    if kind == 9:
        (d1, _), (d2, iso2) = _date(rng), _date(rng)
        q = rng.choice([f"Мы созванивались {d1}. Какой день недели будет {d2}?" if ru else
                        f"We spoke on {d1}. What weekday is {d2}?",
                        f"Какой день недели будет {d2}? На {d1} уже всё занято." if ru else
                        f"What weekday is {d2}? {d1} is taken already."])
        return q, "date.weekday", {"date": iso2}
    if kind == 10:
        (d1, iso1), days, (d3, _) = _date(rng), rng.randint(2, 120), _date(rng)
        q = rng.choice([f"Заказ {decoy} оформлен {d1}. Какая дата будет через {days} дней?" if ru else
                        f"{owner.capitalize()} {decoy} was placed on {d1}. What date is {days} days later?",
                        f"Какая дата будет через {days} дней после {d1}? Счёт от {d3} — отдельно." if ru else
                        f"What date is {days} days after {d1}? The invoice of {d3} is separate."])
        return q, "date.add_days", {"date": iso1, "days": days}
    value, pct = rng.randint(10, 90000), rng.choice([3, 7, 12, 15, 40])
    q = (f"По {owner} {decoy}: сколько будет {pct}% от {value}?" if ru else
         f"For {owner} {decoy}: what is {pct}% of {value}?")
    return q, "number.percent_of", {"value": value, "percent": pct}


KINDS = 21
"""How many template kinds :func:`_template` draws from."""
ASIDES = 18
"""The first kind of :func:`_aside_template`."""
UNITS = (("units.mass", ("kg", "кг", "kg"), ("lb", "фунты", "lb"), ("cartons", "коробок")),
         ("units.length", ("in", "дюймов", "in"), ("cm", "сантиметры", "cm"), ("frames", "рамок")),
         ("units.temperature", ("F", "°F", "F"), ("C", "градусы Цельсия", "C"), ("lines", "строки")))


def _sibling_template(rng: random.Random, kind: int, ru: bool, owner: str, decoy: str, year: str
                      ) -> tuple[str, str, dict[str, Any]]:
    """Requests whose arguments are siblings of one kind, or a value beside a unit, each with a decoy.

    Siblings: a loan's sum, rate and term; r, g and b; two values or two dates in order.
    """
    if kind == 12:
        principal = rng.randint(50, 5000) * 1000
        rate, months = rng.choice([5.5, 7, 9.5, 12, 14, 18]), rng.choice([12, 24, 36, 60, 120, 240])
        q = (f"Кредит {principal} руб. под {rate:g}% годовых на {months} мес., {owner} {decoy}. Какой платёж?"
             if ru else f"A loan of {principal:,} at {rate:g}% a year over {months} months "
             f"({owner} {decoy}): what is the monthly payment?")
        return q, "money.loan_payment", {"principal": principal, "annual_rate": rate, "months": months}
    if kind == 13:
        old, new, share = rng.randint(1000, 90000), rng.randint(1000, 90000), rng.randint(40, 99)
        y2 = int(year) + 1
        q = (f"В {year} было {old}, в {y2} стало {new}, доля {share}%. На сколько процентов изменилось?" if ru
             else f"It was {old} in {year} and {new} in {y2} ({share}% share). What is the percent change?")
        return q, "money.percent_change", {"old": old, "new": new}
    if kind == 14:
        uid, (src, src_ru, src_id), (dst, dst_ru, dst_id), (noun, noun_ru) = rng.choice(UNITS)
        value, count = rng.randint(2, 900), rng.randint(2, 40)
        q = rng.choice([
            f"{owner.capitalize()} {decoy}: {value} {src_ru}, {count} {noun_ru}. Переведи в {dst_ru}." if ru
            else f"{owner.capitalize()} {decoy}: {value} {src} across {count} {noun}. Convert it to {dst}.",
            f"{count} {noun_ru}, всего {value} {src_ru}: переведи в {dst_ru} ({owner} {decoy})." if ru
            else f"{count} {noun}, {value} {src} in all: convert it to {dst} ({owner} {decoy})."])
        return q, uid, {"value": value, "from_unit": src_id, "to_unit": dst_id}
    if kind == 15:
        n = rng.randint(1000, 999999)
        q = (f"Напиши прописью {n}, договор № {decoy}/{year[2:]}." if ru else
             f"Write {n} in words for contract No. {decoy}/{year[2:]}.")
        return q, "number.to_words_ru" if ru else "number.to_words_en", {"n": n}
    if kind == 16:
        r, g, b, x, y, z = (rng.randint(0, 255) for _ in range(6))
        q = rng.choice([f"Баннер {decoy}: цвет rgb({r}, {g}, {b}), нужен HEX." if ru else
                        f"Banner {decoy}: colour rgb({r}, {g}, {b}); what is it in hex?",
                        f"R={r} G={g} B={b} — какой hex?" if ru else f"Hex for R {r}, G {g}, B {b}?",
                        f"Нужен HEX для {r}, {g}, {b}; фон {x}, {y}, {z} уже готов." if ru else
                        f"Hex for {r}, {g}, {b} please; the background {x}, {y}, {z} is done."])
        return q, "color.rgb_to_hex", {"r": r, "g": g, "b": b}
    (d1, iso1), (d2, iso2), (d3, _) = _date(rng), _date(rng), _date(rng)
    if iso1 > iso2:
        (d1, iso1), (d2, iso2) = (d2, iso2), (d1, iso1)
    q = rng.choice([f"Договор от {d3}. Сколько дней с {d1} по {d2}?" if ru else
                    f"Contract dated {d3}. How many days from {d1} to {d2}?",
                    f"Сколько дней с {d1} по {d2}? Акт подписан {d3}." if ru else
                    f"How many days from {d1} to {d2}? The act was signed {d3}.",
                    f"Сколько полных лет на {d2}, если родился {d1}? Справка от {d3}." if ru else
                    f"How old on {d2} if born {d1}? The form was filed {d3}.",
                    f"Родился {d1}, справка от {d3}. Сколько полных лет на {d2}?" if ru else
                    f"Born {d1}; form filed {d3}. How old on {d2}?"])
    if "лет" in q or "old" in q:
        return q, "date.age", {"birth_date": iso1, "on_date": iso2}
    return q, "date.diff_days", {"start": iso1, "end": iso2}


def _card(rng: random.Random) -> str:
    digits = "2202" + _n(rng, 12)
    return " ".join(digits[i:i + 4] for i in range(0, 16, 4))


def _aside_template(rng: random.Random, kind: int, ru: bool) -> tuple[str, str, dict[str, Any]]:
    """Requests where the decoy is set aside in words.

    A value corrected in mid-line, a card named as the one not to check, a unit price beside the
    total asked.
    """
    rate = rng.choice([10, 20, 22])
    if kind == ASIDES:
        right = rng.randint(1000, 90000)
        wrong = int(str(right)[::-1]) if str(right)[::-1] != str(right) and str(right)[-1] != "0" \
            else right + rng.randint(1, 9) * 100
        q = rng.choice([f"Сумма {wrong} руб. — ой, нет, {right} руб. Начисли НДС {rate}%." if ru else
                        f"The net is {wrong} — sorry, {right}. Add {rate}% VAT.",
                        f"Начисли НДС {rate}% на {right} (не {wrong}, я ошиблась)." if ru else
                        f"Add {rate}% VAT to {right} (not {wrong}, my mistake)."])
        return q, "money.vat_add", {"amount": right, "rate": rate}
    if kind == ASIDES + 1:
        card, test, old = _card(rng), "4111 1111 1111 1111", _card(rng)
        q = rng.choice([f"Не тестовую {test}, а карту клиента {card} проверь по алгоритму Луна." if ru else
                        f"Not the test card {test}: check the customer's {card} with Luhn.",
                        f"Проверь карту {card} по алгоритму Луна; старая {old} заблокирована." if ru else
                        f"Does {card} pass Luhn? The old card {old} is blocked."])
        return q, "id.luhn_check", {"number": card}
    count, unit = rng.randint(2, 12), rng.randint(5, 90) * 100
    total = count * unit
    q = rng.choice([f"{count} шт. по {unit} руб., итого {total} руб. без НДС. Начисли НДС {rate}%." if ru else
                    f"{count} hours at {unit} each, {total} in total before VAT. Add {rate}% VAT.",
                    f"Начисли НДС {rate}% на итог {total} ({count} шт. по {unit})." if ru else
                    f"Add {rate}% VAT to the total of {total} ({count} items at {unit})."])
    return q, "money.vat_add", {"amount": total, "rate": rate}


ABSENT_IDS = (("id.validate_inn", "inn", "ИНН", "INN"),
              ("id.validate_snils", "snils", "СНИЛС", "SNILS"),
              ("id.validate_ogrn", "ogrn", "ОГРН", "OGRN"),
              ("id.validate_bik", "bik", "БИК", "BIK"),
              ("id.validate_isbn", "isbn", "ISBN", "ISBN"),
              ("id.luhn_check", "number", "номер карты", "card number"))
"""Identifiers a generated line asks to check without giving them (:func:`absent_lines`)."""


def _absent_template(rng: random.Random) -> tuple[str, str, str]:
    """One request whose value is elsewhere, with a number another noun owns: question, utility, argument."""
    ru = rng.random() < 0.5
    owner = rng.choice(RU_OWNERS if ru else EN_OWNERS)
    decoy = _n(rng, rng.choice([1, 2, 3, 4, 5, 6]))
    kind = rng.randrange(4)
    if kind == 0:
        uid, arg, what_ru, what_en = rng.choice(ABSENT_IDS)
        q = rng.choice([f"Проверь {what_ru} из {owner} {decoy}, сам номер пришлю позже." if ru else
                        f"Check the {what_en} from {owner} {decoy}; I will send the number itself later.",
                        f"{what_ru} клиента указан в {owner} {decoy} — проверь его." if ru else
                        f"The client's {what_en} is on {owner} {decoy}: is it valid?"])
        return q, uid, arg
    if kind == 1:
        rate = rng.choice([10, 20, 22])
        q = (f"Начисли НДС {rate}% на сумму по {owner} {decoy}; сумма в приложении." if ru else
             f"Add {rate}% VAT to the sum for {owner} {decoy}; the sum is in the attachment.")
        return q, "money.vat_add", "amount"
    if kind == 2:
        q = (f"Сумму из {owner} {decoy} напиши прописью, она в файле." if ru else
             f"Spell out in Russian words the total of {owner} {decoy}; it is in the file.")
        return q, "money.amount_in_words_ru", "amount"
    (said, _) = _date(rng)
    q = (f"{owner.capitalize()} {decoy} оформлен {said}. Какой день недели будет в день отгрузки? "
         "Её дату уточню." if ru else f"{owner.capitalize()} {decoy} was placed on {said}. "
         "Which weekday is the shipping day? I will confirm its date.")
    return q, "date.weekday", "date"


def absent_lines(lines: int, seed: int = 13) -> list[dict[str, Any]]:
    """``lines`` generated requests that give no value for the argument asked (seeded).

    Each gives only a number another noun owns (a booking, an invoice, a room): every candidate is
    one the argument must not take.
    """
    rng = random.Random(seed + 1)
    out = []
    for i in range(lines):
        question, uid, arg = _absent_template(rng)
        out.append({"question": question, "id": f"absent-{i}",
                    "gold": {"utility": uid, "args": {}, "missing": arg}})
    return out


def generate_decoy_lines(lines: int, seed: int = 13) -> list[dict[str, Any]]:
    """``lines`` generated requests, each carrying a decoy of its argument's shape (seeded)."""
    rng = random.Random(seed)
    out = []
    for i in range(lines):
        question, uid, args = _template(rng)
        out.append({"question": question, "id": f"gen-{i}",
                    "gold": {"source": "utility", "utility": uid, "args": args}})
    return out


# --- pairs, fit, margin ----------------------------------------------------------------------


def line_pairs(line: Mapping[str, Any], schema: UtilitySchema, reference: ReferenceBinding | None,
               use_reference: bool) -> list[tuple[list[str], int]]:
    """Every (features, label) pair of one line's weighed arguments: 1 where the value is the gold one."""
    question, gold = line["question"], line["gold"]["args"]
    ref = dict(reference(schema, question)) if reference is not None else {}
    kinds = {a.name: a for a in schema.arguments}
    given = {name: (s.start, s.end) for name, s in ref.items() if not weighed(kinds[name])}
    missing = line["gold"].get("missing")
    pairs = []
    for arg in schema.arguments:
        if not weighed(arg) or (arg.name not in gold and arg.name != missing):
            continue
        found = candidates(arg, question, ref.get(arg.name))
        if isinstance(found, TooManyCandidates) or not found:
            continue
        found = [c for c in found if not any(c.span.start < e and s < c.span.end for s, e in given.values())]
        features = candidate_features(schema, question, arg.name, found, ref.get(arg.name),
                                      use_reference, given)
        pairs += [(f, int(arg.name != missing and same_value(c.value, gold[arg.name])))
                  for c, f in zip(found, features, strict=True)]
    return pairs


def fit(pairs: Sequence[tuple[list[str], int]], seed: int, c: float = 1.0) -> tuple[dict[str, float], float]:
    """A seeded logistic regression over the pairs' features: each feature's weight and the bias."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([dict.fromkeys(f, 1) for f, _ in pairs])
    y = [label for _, label in pairs]
    model = LogisticRegression(C=c, max_iter=2000, random_state=seed, class_weight="balanced")
    model.fit(x, y)
    names = vectorizer.get_feature_names_out()
    weights = {str(n): round(float(w), 6) for n, w in zip(names, model.coef_[0], strict=True)
               if abs(w) > 1e-6}
    return weights, round(float(model.intercept_[0]), 6)


def call_outcome(binding: Binding, gold: Mapping[str, Any], question: str) -> tuple[float, bool] | None:
    """A call's score (its least margin) and whether a weighed argument took a value not the gold one."""
    if binding.refusal is not None or not binding.choices:
        return None
    wrong = any(c.argument in gold and c.argument in binding.spans
                and not same_value(binding.spans[c.argument].value(question), gold[c.argument])
                for c in binding.choices)
    score = binding.least_margin
    return (NO_RIVAL if math.isinf(score) else score), wrong


def set_folds(lines: Sequence[Mapping[str, Any]], folds: int) -> list[int]:
    """Each line's fold: whole sets go to one fold (round robin over the sorted set names).

    A line is then scored by a model that read no line of its set, so the margin is calibrated on
    wording the model has not seen, as a held-out set's is, not on its siblings' wording.
    """
    names = sorted({line.get("set", "") for line in lines})
    fold_of = {name: i % folds for i, name in enumerate(names)}
    return [fold_of[line.get("set", "")] for line in lines]


def train_binder(*, seed: int = 13, generated: int = 3000, use_reference: bool = True, absent: int = 600,
                 questions_dir: str | Path | None = None,
                 reference: ReferenceBinding | None = None,
                 schemas: Mapping[str, UtilitySchema] | None = None, folds: int = 2,
                 progress: Callable[[str], None] | None = None) -> BinderModel:
    """Fit the binder on dev and generated lines; choose its margin on cross-fitted dev calls.

    Each dev line is scored by a model fitted without its fold, a fold being whole sets
    (:func:`set_folds`; and with every generated line);
    the calls where every weighed argument is bound give (least margin, wrong) pairs, and Learn
    then Test picks the loosest margin whose risk stays under :data:`ALPHA` with probability
    ``1 - DELTA``. Where no margin holds the promise the margin is 0 and the reason is kept.

    ``absent`` generated lines that give no value (:func:`absent_lines`), with the dev lines
    refused for a missing argument, add their candidates as negatives; they are not calibration
    calls (their one candidate has no rival, so no margin would refuse them).
    """
    if schemas is None or reference is None:
        # the reference binding: the span router's reference router, built by name as it builds it
        rule = build("router", "rule")
        schemas = schemas or rule.schemas
        reference = reference or (lambda schema, question: rule.bind(schema.id, question))
    say = progress or (lambda _: None)
    dev = [line for line in dev_lines(questions_dir, absent=absent > 0) if line["gold"]["utility"] in schemas]
    decoys, nothing = generate_decoy_lines(generated, seed), absent_lines(absent, seed)
    gen = decoys + nothing

    def pairs_of(lines: Iterable[Mapping[str, Any]]) -> list[tuple[list[str], int]]:
        return [p for line in lines for p in line_pairs(line, schemas[line["gold"]["utility"]],
                                                         reference, use_reference)]

    gen_pairs = pairs_of(gen)
    dev_pairs = [pairs_of([line]) for line in dev]
    say(f"{len(dev)} dev lines, {len(gen)} generated, {len(gen_pairs) + sum(map(len, dev_pairs))} pairs")
    outcomes: list[tuple[float, bool]] = []
    fold = set_folds(dev, folds)
    for k in range(folds):
        inside = [p for i, ps in enumerate(dev_pairs) if fold[i] != k for p in ps]
        weights, bias = fit(gen_pairs + inside, seed)
        held = LearnedBinder(BinderModel(weights, bias, 0.0, use_reference, seed), reference)
        for i, line in enumerate(dev):
            if fold[i] == k and "missing" not in line["gold"]:
                outcome = call_outcome(held.bind(schemas[line["gold"]["utility"]], line["question"]),
                                       line["gold"]["args"], line["question"])
                if outcome is not None:
                    outcomes.append(outcome)
    bound = learn_then_test([s for s, _ in outcomes], [w for _, w in outcomes], ALPHA, DELTA, MIN_ANSWERS)
    wrong = sum(w for _, w in outcomes)
    calibration: dict[str, Any] = {"alpha": ALPHA, "delta": DELTA, "calls": len(outcomes), "wrong": wrong,
                                   "folds": folds}
    if isinstance(bound, NoPromise):
        margin = 0.0
        calibration["no_promise"] = bound.reason
    else:
        margin = float(bound.threshold)
        kept = [w for s, w in outcomes if s >= margin]
        calibration.update(answered=len(kept), answered_wrong=sum(kept))
    say(f"cross-fitted dev calls {len(outcomes)}, wrong {wrong}; margin {margin:.4f}")
    weights, bias = fit(gen_pairs + [p for ps in dev_pairs for p in ps], seed)
    return BinderModel(weights, bias, round(margin, 6), use_reference, seed,
                       {"dev": len(dev), "generated": len(decoys), "absent": len(nothing),
                        "pairs": len(gen_pairs) + sum(map(len, dev_pairs))}, calibration)


__all__ = ["CHECK_ONLY", "TRAIN_SPLITS", "absent_lines", "dev_lines", "generate_decoy_lines", "line_pairs",
           "train_binder"]
