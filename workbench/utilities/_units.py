"""Units category: length, mass, temperature, data size (SI vs binary prefixes), area.

Factors are exact definitions (the international yard and pound of 1959, IEC 80000-13 binary
prefixes). Results are rounded to 12 significant digits so that binary floating-point noise
(0.30000000000000004) never reaches an answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from workbench.utilities._schema import BadArgument, circ, data, define, ex

LENGTH = {
    "mm": 0.001, "cm": 0.01, "dm": 0.1, "m": 1.0, "km": 1000.0, "in": 0.0254, "ft": 0.3048,
    "yd": 0.9144, "mi": 1609.344, "nmi": 1852.0,
}  # fmt: skip
LENGTH_ALIASES = {
    "мм": "mm", "см": "cm", "дм": "dm", "м": "m", "км": "km", "inch": "in", "inches": "in",
    "дюйм": "in", "foot": "ft", "feet": "ft", "фут": "ft", "yard": "yd", "ярд": "yd",
    "mile": "mi", "miles": "mi", "миля": "mi", "nautical mile": "nmi", "морская миля": "nmi",
    "meter": "m", "metre": "m", "метр": "m", "kilometer": "km", "kilometre": "km",
    "километр": "km", "сантиметр": "cm", "миллиметр": "mm",
}  # fmt: skip
MASS = {
    "mg": 1e-6, "g": 0.001, "kg": 1.0, "t": 1000.0, "oz": 0.028349523125, "lb": 0.45359237,
    "st": 6.35029318,
}  # fmt: skip
MASS_ALIASES = {
    "мг": "mg", "г": "g", "кг": "kg", "т": "t", "тонна": "t", "ton": "t", "tonne": "t",
    "ounce": "oz", "унция": "oz", "pound": "lb", "lbs": "lb", "фунт": "lb", "stone": "st",
    "gram": "g", "грамм": "g", "kilogram": "kg", "килограмм": "kg",
}  # fmt: skip
DATA = {
    "bit": 0.125, "B": 1.0, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15,
    "KiB": 1024.0, "MiB": 1024.0**2, "GiB": 1024.0**3, "TiB": 1024.0**4, "PiB": 1024.0**5,
    "kbit": 125.0, "Mbit": 125e3, "Gbit": 125e6,
}  # fmt: skip
DATA_ALIASES = {"byte": "B", "bytes": "B", "байт": "B", "бит": "bit", "bits": "bit"}
AREA = {
    "mm2": 1e-6, "cm2": 1e-4, "m2": 1.0, "km2": 1e6, "ha": 1e4, "a": 100.0,
    "ft2": 0.09290304, "acre": 4046.8564224,
}  # fmt: skip
AREA_ALIASES = {
    "м2": "m2", "м²": "m2", "m²": "m2", "км2": "km2", "км²": "km2", "km²": "km2", "га": "ha",
    "гектар": "ha", "hectare": "ha", "сотка": "a", "соток": "a", "ар": "a", "are": "a",
    "acres": "acre", "акр": "acre",
}  # fmt: skip
TEMPERATURE_ALIASES = {
    "c": "C", "°c": "C", "celsius": "C", "цельсий": "C", "f": "F", "°f": "F",
    "fahrenheit": "F", "фаренгейт": "F", "k": "K", "kelvin": "K", "кельвин": "K",
}  # fmt: skip
TO_KELVIN: dict[str, Callable[[float], float]] = {
    "C": lambda v: v + 273.15,
    "F": lambda v: (v - 32) * 5 / 9 + 273.15,
    "K": lambda v: v,
}
FROM_KELVIN: dict[str, Callable[[float], float]] = {
    "C": lambda v: v - 273.15,
    "F": lambda v: (v - 273.15) * 9 / 5 + 32,
    "K": lambda v: v,
}


def unit_codes() -> dict[str, frozenset[str]]:
    """The unit codes each conversion accepts, by utility id: "lb" is a mass, never a data size."""
    return {"units.length": frozenset(LENGTH), "units.mass": frozenset(MASS),
            "units.data_size": frozenset(DATA), "units.area": frozenset(AREA),
            "units.temperature": frozenset(TO_KELVIN)}


def unit_names() -> dict[str, str]:
    """Every name a unit argument accepts besides its code, case-folded, to the code it stands for."""
    names: dict[str, str] = {}
    for aliases in (LENGTH_ALIASES, MASS_ALIASES, DATA_ALIASES, AREA_ALIASES, TEMPERATURE_ALIASES):
        for alias, code in aliases.items():
            names.setdefault(alias.casefold(), code)
    return names


def tidy(x: float, argument: str = "value") -> float:
    """Round to 12 significant digits; a result outside float range is a bad argument."""
    if not math.isfinite(x):
        raise BadArgument(argument, "a value whose conversion stays finite")
    return float(f"{x:.12g}")


def _unit(
    name: str,
    table: dict[str, float],
    aliases: dict[str, str],
    argument: str,
    case_sensitive: bool = False,
) -> str:
    key = name.strip()
    if key in table:
        return key
    lowered = key.lower()
    if not case_sensitive:
        for unit in table:
            if unit.lower() == lowered:
                return unit
    if lowered in aliases:
        return aliases[lowered]
    raise BadArgument(argument, "one of " + ", ".join(table))


def _convert(
    value: float,
    from_unit: str,
    to_unit: str,
    table: dict[str, float],
    aliases: dict[str, str],
    case_sensitive: bool = False,
) -> float:
    src = _unit(from_unit, table, aliases, "from_unit", case_sensitive)
    dst = _unit(to_unit, table, aliases, "to_unit", case_sensitive)
    return tidy(value * table[src] / table[dst])


def _args(units: str, units_ru: str) -> list:  # type: ignore[type-arg]
    return [
        data("value", "number", "the quantity", "величина"),
        circ(
            "from_unit", "string", f"the unit it is in ({units})", f"исходная единица ({units_ru})"
        ),
        circ("to_unit", "string", "the unit to convert to", "целевая единица"),
    ]


@define(
    "units.length",
    en="convert a length between metric and imperial units",
    ru="перевести длину между метрическими и британскими единицами",
    args=_args("mm cm m km in ft yd mi nmi", "мм см м км дюйм фут ярд миля"),
    result="number",
    examples=[
        ex({"value": 1, "from_unit": "mi", "to_unit": "km"}, 1.609344),
        ex({"value": 100, "from_unit": "ft", "to_unit": "m"}, 30.48),
    ],
)
def length(value: float, from_unit: str, to_unit: str) -> float:
    """Through metres."""
    return _convert(value, from_unit, to_unit, LENGTH, LENGTH_ALIASES)


@define(
    "units.mass",
    en="convert a mass between metric and imperial units",
    ru="перевести массу между метрическими и британскими единицами",
    args=_args("mg g kg t oz lb st", "мг г кг т унция фунт"),
    result="number",
    examples=[ex({"value": 1, "from_unit": "lb", "to_unit": "kg"}, 0.45359237)],
)
def mass(value: float, from_unit: str, to_unit: str) -> float:
    """Through kilograms."""
    return _convert(value, from_unit, to_unit, MASS, MASS_ALIASES)


@define(
    "units.temperature",
    en="convert a temperature between Celsius, Fahrenheit and Kelvin",
    ru="перевести температуру между Цельсием, Фаренгейтом и Кельвином",
    args=_args("C F K", "C F K"),
    result="number",
    examples=[
        ex({"value": 100, "from_unit": "C", "to_unit": "F"}, 212.0),
        ex({"value": -40, "from_unit": "F", "to_unit": "C"}, -40.0),
        ex({"value": 0, "from_unit": "C", "to_unit": "K"}, 273.15),
    ],
)
def temperature(value: float, from_unit: str, to_unit: str) -> float:
    """Through kelvins; a result below absolute zero is refused."""
    src = TEMPERATURE_ALIASES.get(from_unit.strip().lower())
    dst = TEMPERATURE_ALIASES.get(to_unit.strip().lower())
    if src is None:
        raise BadArgument("from_unit", "C, F or K")
    if dst is None:
        raise BadArgument("to_unit", "C, F or K")
    kelvin = TO_KELVIN[src](value)
    if kelvin < -1e-9:
        raise BadArgument("value", "a temperature not below absolute zero")
    return tidy(FROM_KELVIN[dst](kelvin))


@define(
    "units.data_size",
    en="convert a data size; KB, MB are powers of 1000, KiB, MiB powers of 1024",
    ru="перевести объём данных; KB, MB — степени 1000, KiB, MiB — степени 1024",
    args=_args("bit B KB MB GB TB KiB MiB GiB TiB kbit Mbit Gbit", "бит B KB MB KiB MiB ..."),
    result="number",
    examples=[
        ex({"value": 1, "from_unit": "MB", "to_unit": "KiB"}, 976.5625),
        ex({"value": 1, "from_unit": "GiB", "to_unit": "MB"}, 1073.741824),
    ],
)
def data_size(value: float, from_unit: str, to_unit: str) -> float:
    """Through bytes; unit case matters (Mbit is not MB)."""
    return _convert(value, from_unit, to_unit, DATA, DATA_ALIASES, case_sensitive=True)


@define(
    "units.area",
    en="convert an area (m², km², hectares, ares/сотки, acres, ft²)",
    ru="перевести площадь (м², км², гектары, сотки, акры, кв. футы)",
    args=_args("mm2 cm2 m2 km2 ha a ft2 acre", "м2 км2 га сотка акр"),
    result="number",
    examples=[
        ex({"value": 6, "from_unit": "сотка", "to_unit": "m2"}, 600.0),
        ex({"value": 1, "from_unit": "acre", "to_unit": "ha"}, 0.40468564224),
    ],
)
def area(value: float, from_unit: str, to_unit: str) -> float:
    """Through square metres."""
    return _convert(value, from_unit, to_unit, AREA, AREA_ALIASES)
