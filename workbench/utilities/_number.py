"""Number category: bases, Roman numerals, numbers in words, rounding, percentages, primes."""

from __future__ import annotations

import decimal
import math
import string
from collections.abc import Callable

from workbench.text import ru_plural
from workbench.utilities._schema import BadArgument, circ, data, define, ex

DIGITS = string.digits + string.ascii_lowercase
MAX_DIGITS = 10_000
ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip

# --- numbers in Russian words; shared with the money category -----------------------------------
_RU_UNITS_M = ["", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"]
_RU_UNITS_F = ["", "одна", "две", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"]
_RU_TEENS = [
    "десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать",
    "шестнадцать", "семнадцать", "восемнадцать", "девятнадцать",
]  # fmt: skip
_RU_TENS = [
    "", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят",
    "восемьдесят", "девяносто",
]  # fmt: skip
_RU_HUNDREDS = [
    "", "сто", "двести", "триста", "четыреста", "пятьсот", "шестьсот", "семьсот",
    "восемьсот", "девятьсот",
]  # fmt: skip
# (forms for 1, 2-4, 5+; feminine?) for each power of a thousand
_RU_SCALES = [
    (("", "", ""), False),
    (("тысяча", "тысячи", "тысяч"), True),
    (("миллион", "миллиона", "миллионов"), False),
    (("миллиард", "миллиарда", "миллиардов"), False),
    (("триллион", "триллиона", "триллионов"), False),
]
MAX_WORDS = 10**15 - 1


def _ru_triple(n: int, feminine: bool) -> list[str]:
    words = [_RU_HUNDREDS[n // 100]]
    rest = n % 100
    if 10 <= rest < 20:
        words.append(_RU_TEENS[rest - 10])
    else:
        words.append(_RU_TENS[rest // 10])
        words.append((_RU_UNITS_F if feminine else _RU_UNITS_M)[rest % 10])
    return [w for w in words if w]


def ru_words(n: int, feminine: bool = False) -> str:
    """``n`` in Russian words; ``feminine`` agrees the last word with a feminine noun."""
    if abs(n) > MAX_WORDS:
        raise BadArgument("n", f"an integer of absolute value at most {MAX_WORDS}")
    if n == 0:
        return "ноль"
    parts: list[str] = ["минус"] if n < 0 else []
    n = abs(n)
    groups = []
    while n:
        groups.append(n % 1000)
        n //= 1000
    for power in range(len(groups) - 1, -1, -1):
        triple = groups[power]
        if not triple:
            continue
        forms, fem = _RU_SCALES[power]
        parts += _ru_triple(triple, fem if power else feminine)
        if power:
            parts.append(ru_plural(triple, forms))
    return " ".join(parts)


_EN_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_EN_SCALES = ["", "thousand", "million", "billion", "trillion"]


def _en_triple(n: int) -> list[str]:
    words = []
    if n >= 100:
        words += [_EN_SMALL[n // 100], "hundred"]
    rest = n % 100
    if rest >= 20:
        words.append(_EN_TENS[rest // 10] + (f"-{_EN_SMALL[rest % 10]}" if rest % 10 else ""))
    elif rest:
        words.append(_EN_SMALL[rest])
    return words


N_ARG = data("n", "integer", "the integer", "целое число")


@define(
    "number.to_words_ru",
    en="an integer in Russian words",
    ru="целое число прописью по-русски",
    args=[N_ARG],
    examples=[
        ex({"n": 1251}, "одна тысяча двести пятьдесят один"),
        ex({"n": 2_000_000}, "два миллиона"),
        ex({"n": -15}, "минус пятнадцать"),
    ],
)
def to_words_ru(n: int) -> str:
    """Masculine agreement; thousands are feminine (одна тысяча, две тысячи)."""
    return ru_words(n)


@define(
    "number.to_words_en",
    en="an integer in English words",
    ru="целое число прописью по-английски",
    args=[N_ARG],
    examples=[
        ex({"n": 1251}, "one thousand two hundred fifty-one"),
        ex({"n": 0}, "zero"),
    ],
)
def to_words_en(n: int) -> str:
    """American style: no "and", hyphenated tens (twenty-one)."""
    if abs(n) > MAX_WORDS:
        raise BadArgument("n", f"an integer of absolute value at most {MAX_WORDS}")
    if n == 0:
        return "zero"
    parts: list[str] = ["minus"] if n < 0 else []
    m, groups = abs(n), []
    while m:
        groups.append(m % 1000)
        m //= 1000
    for power in range(len(groups) - 1, -1, -1):
        if groups[power]:
            parts += _en_triple(groups[power]) + ([_EN_SCALES[power]] if power else [])
    return " ".join(parts)


def _base(value: int, argument: str) -> int:
    if not 2 <= value <= 36:
        raise BadArgument(argument, "a base from 2 to 36")
    return value


@define(
    "number.convert_base",
    en="convert an integer written in one base to another base (2-36)",
    ru="перевести целое число из одной системы счисления в другую (2-36)",
    args=[
        data("value", "string", "the digits of the number", "цифры числа"),
        circ("from_base", "integer", "the base it is written in", "исходное основание"),
        circ("to_base", "integer", "the base to write it in", "целевое основание"),
    ],
    examples=[
        ex({"value": "255", "from_base": 10, "to_base": 16}, "ff"),
        ex({"value": "ff", "from_base": 16, "to_base": 2}, "11111111"),
        ex({"value": "-1010", "from_base": 2, "to_base": 10}, "-10"),
    ],
)
def convert_base(value: str, from_base: int, to_base: int) -> str:
    """Lower-case digits; a ``0x``/``0b``/``0o`` prefix matching ``from_base`` is accepted."""
    src, dst = _base(from_base, "from_base"), _base(to_base, "to_base")
    text = value.strip().lower().replace("_", "")
    if len(text) > MAX_DIGITS:
        raise BadArgument("value", f"at most {MAX_DIGITS} digits")
    sign = "-" if text.startswith("-") else ""
    text = text.lstrip("+-")
    prefix = {16: "0x", 2: "0b", 8: "0o"}.get(src)
    if prefix and text.startswith(prefix):
        text = text[2:]
    if not text or any(c not in DIGITS[:src] for c in text):
        raise BadArgument("value", f"digits of base {src}")
    n = int(text, src)
    if n == 0:
        return "0"
    out = []
    while n:
        n, r = divmod(n, dst)
        out.append(DIGITS[r])
    return sign + "".join(reversed(out))


@define(
    "number.to_roman",
    en="an integer 1-3999 in Roman numerals",
    ru="целое число 1-3999 римскими цифрами",
    args=[N_ARG],
    examples=[ex({"n": 1994}, "MCMXCIV"), ex({"n": 2024}, "MMXXIV")],
)
def to_roman(n: int) -> str:
    """Standard subtractive notation."""
    if not 1 <= n <= 3999:
        raise BadArgument("n", "an integer from 1 to 3999")
    out = []
    for value, numeral in ROMAN:
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


@define(
    "number.from_roman",
    en="the value of a Roman numeral",
    ru="значение числа, записанного римскими цифрами",
    args=[data("roman", "string", "the Roman numeral", "число римскими цифрами")],
    result="integer",
    examples=[ex({"roman": "MCMXCIV"}, 1994), ex({"roman": "xlii"}, 42)],
)
def from_roman(roman: str) -> int:
    """Accepts only the canonical form (so IIII or IC are refused), any letter case."""
    text = roman.strip().upper()
    total, i = 0, 0
    for value, numeral in ROMAN:
        while text.startswith(numeral, i):
            total += value
            i += len(numeral)
    if not text or i != len(text) or total > 3999 or to_roman(total) != text:
        raise BadArgument("roman", "a canonical Roman numeral from I to MMMCMXCIX")
    return total


RoundFn = Callable[[decimal.Decimal, decimal.Decimal], decimal.Decimal]
ROUNDING = {
    "half_up": decimal.ROUND_HALF_UP,
    "half_even": decimal.ROUND_HALF_EVEN,
    "half_down": decimal.ROUND_HALF_DOWN,
    "up": decimal.ROUND_UP,
    "down": decimal.ROUND_DOWN,
    "ceiling": decimal.ROUND_CEILING,
    "floor": decimal.ROUND_FLOOR,
}


def to_decimal(value: float | int | str, argument: str) -> decimal.Decimal:
    """A finite decimal from a JSON number, read from its shortest decimal form."""
    try:
        d = decimal.Decimal(str(value).strip().replace(",", "."))
    except (decimal.InvalidOperation, ValueError):
        raise BadArgument(argument, "a finite number") from None
    if not d.is_finite() or abs(d.adjusted()) > 100:
        raise BadArgument(argument, "a finite number of magnitude below 1e100")
    return d


@define(
    "number.round",
    en="round a number to some decimal digits by a rounding mode",
    ru="округлить число до заданного числа знаков по правилу округления",
    args=[
        data("value", "number", "the number", "число"),
        circ(
            "digits",
            "integer",
            "decimal digits to keep",
            "сколько знаков после запятой",
        ),
        circ(
            "mode",
            "string",
            "the rounding mode",
            "правило округления",
            required=False,
            default="half_up",
            choices=tuple(ROUNDING),
        ),
    ],
    result="number",
    examples=[
        ex({"value": 2.675, "digits": 2}, 2.68),
        ex({"value": 2.5, "digits": 0, "mode": "half_even"}, 2),
        ex({"value": -2.5, "digits": 0, "mode": "half_up"}, -3),
    ],
)
def round_(value: float, digits: int, mode: str = "half_up") -> float | int:
    """Decimal rounding of the number as written (2.675 rounds to 2.68, unlike binary floats).

    ``half_up`` rounds ties away from zero. With ``digits`` <= 0 the result is an integer.
    """
    if mode not in ROUNDING:
        raise BadArgument("mode", "one of " + ", ".join(ROUNDING))
    if not -20 <= digits <= 20:
        raise BadArgument("digits", "an integer from -20 to 20")
    d = to_decimal(value, "value")
    quantum = decimal.Decimal(1).scaleb(-digits)
    with decimal.localcontext() as ctx:
        ctx.prec = 200
        r = (
            d.quantize(quantum, rounding=ROUNDING[mode])
            if digits >= 0
            else ((d / quantum).quantize(decimal.Decimal(1), rounding=ROUNDING[mode]) * quantum)
        )
    return int(r) if digits <= 0 else float(r)


@define(
    "number.percent_of",
    en="a given percent of a number",
    ru="заданный процент от числа",
    args=[
        data("value", "number", "the whole", "число, от которого берётся процент"),
        data("percent", "number", "the percent", "процент"),
    ],
    result="number",
    examples=[
        ex({"value": 200, "percent": 15}, 30.0),
        ex({"value": 1250, "percent": 12.5}, 156.25),
    ],
)
def percent_of(value: float, percent: float) -> float:
    """``value * percent / 100`` computed in decimal, then as a float."""
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        return float(to_decimal(value, "value") * to_decimal(percent, "percent") / 100)


@define(
    "number.gcd",
    en="greatest common divisor of two integers",
    ru="наибольший общий делитель двух целых чисел",
    args=[
        data("a", "integer", "the first integer", "первое число"),
        data("b", "integer", "the second integer", "второе число"),
    ],
    result="integer",
    examples=[ex({"a": 48, "b": 18}, 6)],
)
def gcd(a: int, b: int) -> int:
    """Greatest common divisor by Euclid's algorithm (0 for two zeros)."""
    return math.gcd(a, b)


_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
MAX_PRIME_TEST = 3_317_044_064_679_887_385_961_981


@define(
    "number.is_prime",
    en="whether an integer is prime",
    ru="является ли целое число простым",
    args=[N_ARG],
    result="boolean",
    examples=[ex({"n": 97}, True), ex({"n": 561}, False)],
)
def is_prime(n: int) -> bool:
    """Miller-Rabin with the first 13 primes as bases: exact below 3.3e24 (Sorenson & Webster)."""
    if n > MAX_PRIME_TEST:
        raise BadArgument("n", f"an integer at most {MAX_PRIME_TEST}")
    if n < 2:
        return False
    for p in _MR_BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True
