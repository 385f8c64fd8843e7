"""Money category: VAT, percentages, annuity loans, compound interest, amounts in words.

Amounts are computed in decimal arithmetic and returned as strings with two decimals (rounded
half up to kopecks/cents), so 0.1 + 0.2 never prints as 0.30000000000000004.
"""

from __future__ import annotations

import decimal
from decimal import Decimal

from workbench.text import ru_plural
from workbench.utilities._number import ru_words, to_decimal
from workbench.utilities._schema import BadArgument, circ, data, define, ex

CENT = Decimal("0.01")
MAX_AMOUNT = Decimal(10) ** 15
AMOUNT = data("amount", "number", "the amount", "сумма")
RATE = circ(
    "rate",
    "number",
    "the VAT rate in percent",
    "ставка НДС в процентах",
)


def _money(value: Decimal) -> str:
    return str(value.quantize(CENT, rounding=decimal.ROUND_HALF_UP))


def _amount(value: float, argument: str, allow_negative: bool = False) -> Decimal:
    d = to_decimal(value, argument)
    if abs(d) >= MAX_AMOUNT or (d < 0 and not allow_negative):
        raise BadArgument(argument, "a non-negative amount below 10^15")
    return d


def _rate(value: float, argument: str = "rate") -> Decimal:
    d = to_decimal(value, argument)
    if not 0 <= d <= 1000:
        raise BadArgument(argument, "a percentage from 0 to 1000")
    return d


@define(
    "money.vat_add",
    en="add VAT to a net amount",
    ru="начислить НДС сверх суммы",
    args=[AMOUNT, RATE],
    result="object",
    examples=[
        ex({"amount": 1000, "rate": 20}, {"net": "1000.00", "vat": "200.00", "gross": "1200.00"}),
        ex({"amount": 99.99, "rate": 10}, {"net": "99.99", "vat": "10.00", "gross": "109.99"}),
    ],
)
def vat_add(amount: float, rate: float) -> dict[str, str]:
    """VAT = net x rate / 100, rounded to cents; gross = net + VAT.

    The rate is always an argument: the standard rate is set by law and changes (in Russia 20%
    until 2025, 22% from 2026), and a pure function cannot know the date.
    """
    net = _amount(amount, "amount").quantize(CENT, rounding=decimal.ROUND_HALF_UP)
    vat = (net * _rate(rate) / 100).quantize(CENT, rounding=decimal.ROUND_HALF_UP)
    return {"net": _money(net), "vat": _money(vat), "gross": _money(net + vat)}


@define(
    "money.vat_extract",
    en="split the VAT out of a gross amount",
    ru="выделить НДС из суммы, включающей налог",
    args=[AMOUNT, RATE],
    result="object",
    examples=[
        ex({"amount": 1200, "rate": 20}, {"gross": "1200.00", "vat": "200.00", "net": "1000.00"}),
        ex({"amount": 100, "rate": 20}, {"gross": "100.00", "vat": "16.67", "net": "83.33"}),
    ],
)
def vat_extract(amount: float, rate: float) -> dict[str, str]:
    """VAT = gross x rate / (100 + rate), rounded to cents; net = gross - VAT."""
    gross = _amount(amount, "amount").quantize(CENT, rounding=decimal.ROUND_HALF_UP)
    r = _rate(rate)
    vat = (gross * r / (100 + r)).quantize(CENT, rounding=decimal.ROUND_HALF_UP)
    return {"gross": _money(gross), "vat": _money(vat), "net": _money(gross - vat)}


@define(
    "money.percent_change",
    en="percent change from an old value to a new one",
    ru="изменение в процентах от старого значения к новому",
    args=[
        data("old", "number", "the old value", "старое значение"),
        data("new", "number", "the new value", "новое значение"),
    ],
    result="number",
    examples=[ex({"old": 80, "new": 100}, 25.0), ex({"old": 100, "new": 80}, -20.0)],
)
def percent_change(old: float, new: float) -> float:
    """(new - old) / |old| x 100, to six decimals; an old value of zero is refused."""
    a, b = to_decimal(old, "old"), to_decimal(new, "new")
    if a == 0:
        raise BadArgument("old", "a non-zero old value")
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return float(((b - a) / abs(a) * 100).quantize(Decimal("0.000001")))


@define(
    "money.discount",
    en="a price after a percentage discount",
    ru="цена после скидки в процентах",
    args=[
        data("price", "number", "the price", "цена"),
        circ("percent", "number", "the discount in percent", "скидка в процентах"),
    ],
    result="object",
    examples=[ex({"price": 1500, "percent": 15}, {"discount": "225.00", "price": "1275.00"})],
)
def discount(price: float, percent: float) -> dict[str, str]:
    """The discount is rounded to cents first, then subtracted."""
    p = _amount(price, "price")
    pct = to_decimal(percent, "percent")
    if not 0 <= pct <= 100:
        raise BadArgument("percent", "a percentage from 0 to 100")
    cut = (p * pct / 100).quantize(CENT, rounding=decimal.ROUND_HALF_UP)
    return {"discount": _money(cut), "price": _money(p - cut)}


@define(
    "money.loan_payment",
    en="monthly annuity payment of a loan, total paid and overpayment",
    ru="ежемесячный аннуитетный платёж по кредиту, всего выплат и переплата",
    args=[
        data("principal", "number", "the loan amount", "сумма кредита"),
        circ(
            "annual_rate",
            "number",
            "the annual interest rate in percent",
            "годовая ставка в процентах",
        ),
        circ("months", "integer", "the term in months", "срок в месяцах"),
    ],
    result="object",
    examples=[
        ex(
            {"principal": 1_000_000, "annual_rate": 12, "months": 12},
            {"payment": "88848.79", "total": "1066185.48", "overpayment": "66185.48"},
        ),
        ex(
            {"principal": 120_000, "annual_rate": 0, "months": 12},
            {"payment": "10000.00", "total": "120000.00", "overpayment": "0.00"},
        ),
    ],
)
def loan_payment(principal: float, annual_rate: float, months: int) -> dict[str, str]:
    """P x r / (1 - (1 + r)^-n) with r the monthly rate; total = payment (in cents) x n."""
    p, rate = _amount(principal, "principal"), _rate(annual_rate, "annual_rate")
    if not 1 <= months <= 1200:
        raise BadArgument("months", "a term from 1 to 1200 months")
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        r = rate / 1200
        payment = p / months if r == 0 else p * r / (1 - (1 + r) ** -months)
        payment = payment.quantize(CENT, rounding=decimal.ROUND_HALF_UP)
        total = payment * months
    return {"payment": _money(payment), "total": _money(total), "overpayment": _money(total - p)}


@define(
    "money.compound_interest",
    en="a deposit's final amount with compound interest",
    ru="итоговая сумма вклада со сложными процентами",
    args=[
        data("principal", "number", "the initial amount", "начальная сумма"),
        circ("annual_rate", "number", "the annual rate in percent", "годовая ставка в процентах"),
        circ("years", "number", "the term in years", "срок в годах"),
        circ(
            "periods_per_year",
            "integer",
            "compounding periods a year",
            "число капитализаций в год",
            required=False,
            default=12,
        ),
    ],
    result="string",
    examples=[
        ex({"principal": 100000, "annual_rate": 10, "years": 1}, "110471.31"),
        ex({"principal": 1000, "annual_rate": 5, "years": 2, "periods_per_year": 1}, "1102.50"),
    ],
)
def compound_interest(
    principal: float, annual_rate: float, years: float, periods_per_year: int = 12
) -> str:
    """P x (1 + r/m)^(m t); periods must be whole (m t an integer)."""
    p, rate = _amount(principal, "principal"), _rate(annual_rate, "annual_rate")
    if not 1 <= periods_per_year <= 366:
        raise BadArgument("periods_per_year", "an integer from 1 to 366")
    t = to_decimal(years, "years")
    n = t * periods_per_year
    if not 0 <= t <= 200 or n != n.to_integral_value():
        raise BadArgument("years", "a term of 0 to 200 years in whole compounding periods")
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        value = p * (1 + rate / 100 / periods_per_year) ** int(n)
        if value >= MAX_AMOUNT * 1000:
            raise BadArgument("years", "a result below 10^18")
        return _money(value)


RUBLE = ("рубль", "рубля", "рублей")
KOPECK = ("копейка", "копейки", "копеек")


@define(
    "money.amount_in_words_ru",
    en="a ruble amount in Russian words, as on payment documents",
    ru="сумма в рублях прописью, как в платёжных документах",
    args=[AMOUNT],
    examples=[
        ex({"amount": 1251.50}, "Одна тысяча двести пятьдесят один рубль 50 копеек"),
        ex({"amount": 2}, "Два рубля 00 копеек"),
        ex({"amount": 21.01}, "Двадцать один рубль 01 копейка"),
    ],
)
def amount_in_words_ru(amount: float) -> str:
    """Rubles in words (agreed in number), kopecks in digits; rounded half up to kopecks."""
    d = _amount(amount, "amount").quantize(CENT, rounding=decimal.ROUND_HALF_UP)
    rubles, kopecks = int(d), int((d - int(d)) * 100)
    words = ru_words(rubles)
    text = f"{words} {ru_plural(rubles, RUBLE)} {kopecks:02d} {ru_plural(kopecks, KOPECK)}"
    return text[:1].upper() + text[1:]
