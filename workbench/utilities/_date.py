"""Date category: differences, shifts, weekdays, Unix time and time zones (IANA, via zoneinfo).

Dates are ISO ``YYYY-MM-DD`` (``DD.MM.YYYY`` is accepted too); date-times are ISO
``YYYY-MM-DDTHH:MM[:SS]``. Nothing reads the clock: "today" is always an argument.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from workbench.utilities._schema import BadArgument, circ, data, define, ex

UTC = dt.UTC
_RU_DATE = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$")
_OFFSET_ZONE = re.compile(r"^(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
ZONE_ALIASES = {"MSK": "Europe/Moscow", "UTC": "UTC", "GMT": "UTC", "Z": "UTC"}
WEEKDAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "ru": ["понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"],
}


def parse_date(value: str, argument: str) -> dt.date:
    """A date from ``YYYY-MM-DD`` or ``DD.MM.YYYY``."""
    m = _RU_DATE.match(value)
    try:
        if m:
            return dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise BadArgument(argument, "a date YYYY-MM-DD or DD.MM.YYYY") from None


def parse_datetime(value: str, argument: str) -> dt.datetime:
    """A date-time from ISO 8601 (a bare date means midnight)."""
    try:
        return dt.datetime.fromisoformat(value.strip())
    except ValueError:
        raise BadArgument(argument, "an ISO date-time such as 2024-03-10T12:00:00") from None


def zone(name: str, argument: str = "tz") -> dt.tzinfo:
    """An IANA zone (``Europe/Moscow``), ``UTC``/``MSK``, or a fixed offset ``UTC+03:00``."""
    key = name.strip()
    m = _OFFSET_ZONE.match(key)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise BadArgument(argument, "an offset between UTC-14:00 and UTC+14:00")
        return dt.timezone(sign * dt.timedelta(hours=hours, minutes=minutes))
    key = ZONE_ALIASES.get(key.upper(), key)
    if key == "UTC":
        return UTC
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise BadArgument(argument, "an IANA time zone such as Europe/Moscow") from None


def _localize(moment: dt.datetime, tz: dt.tzinfo) -> dt.datetime:
    # An explicit offset in the text wins over the zone argument; a wall-clock time that occurs
    # twice (autumn shift) is read as the first occurrence (fold=0).
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=tz)


DATE = data("date", "string", "the date (YYYY-MM-DD)", "дата (ГГГГ-ММ-ДД)")
START = data("start", "string", "the first date", "начальная дата")
END = data("end", "string", "the second date", "конечная дата")
TZ = circ("tz", "string", "the IANA time zone (or UTC)", "часовой пояс IANA (или UTC)")


@define(
    "date.diff_days",
    en="days from one date to another (negative if the second is earlier)",
    ru="число дней от одной даты до другой (отрицательное, если вторая раньше)",
    args=[START, END],
    result="integer",
    examples=[
        ex({"start": "2024-01-01", "end": "2024-03-01"}, 60),
        ex({"start": "01.03.2023", "end": "01.03.2024"}, 366),
    ],
)
def diff_days(start: str, end: str) -> int:
    """Calendar days; time zones and daylight saving play no part."""
    return (parse_date(end, "end") - parse_date(start, "start")).days


@define(
    "date.diff_hours",
    en="elapsed hours between two local date-times in a time zone (DST-aware)",
    ru="сколько часов прошло между двумя местными моментами в часовом поясе "
    "(с учётом перехода на летнее время)",
    args=[
        data("start", "string", "the first local date-time", "начальный момент"),
        data("end", "string", "the second local date-time", "конечный момент"),
        TZ,
    ],
    result="number",
    examples=[
        ex({"start": "2024-03-30T12:00", "end": "2024-03-31T12:00", "tz": "Europe/Berlin"}, 23.0),
        ex({"start": "2024-10-26T12:00", "end": "2024-10-27T12:00", "tz": "Europe/Berlin"}, 25.0),
    ],
)
def diff_hours(start: str, end: str, tz: str) -> float:
    """Real elapsed time: both moments are converted to UTC before subtracting."""
    zone_ = zone(tz)
    a = _localize(parse_datetime(start, "start"), zone_).astimezone(UTC)
    b = _localize(parse_datetime(end, "end"), zone_).astimezone(UTC)
    return (b - a).total_seconds() / 3600


def _shift(day: dt.date, delta: dt.timedelta, argument: str) -> str:
    try:
        return (day + delta).isoformat()
    except OverflowError:
        raise BadArgument(argument, "a shift that stays within years 1 to 9999") from None


@define(
    "date.add_days",
    en="the date a number of days after (or before) a date",
    ru="дата через заданное число дней (или за столько дней до)",
    args=[
        DATE,
        data("days", "integer", "days to add (negative to subtract)", "сколько дней прибавить"),
    ],
    examples=[
        ex({"date": "2024-02-28", "days": 1}, "2024-02-29"),
        ex({"date": "2023-12-31", "days": 60}, "2024-02-29"),
    ],
)
def add_days(date: str, days: int) -> str:
    """ISO date ``days`` later."""
    if abs(days) > 4_000_000:
        raise BadArgument("days", "at most 4 million days")
    return _shift(parse_date(date, "date"), dt.timedelta(days=days), "days")


@define(
    "date.add_months",
    en="the date some months later, clamped to the month's last day",
    ru="дата через заданное число месяцев (с прижатием к последнему дню месяца)",
    args=[DATE, data("months", "integer", "months to add", "сколько месяцев прибавить")],
    examples=[
        ex({"date": "2024-01-31", "months": 1}, "2024-02-29"),
        ex({"date": "2023-03-31", "months": -1}, "2023-02-28"),
    ],
)
def add_months(date: str, months: int) -> str:
    """Jan 31 plus one month is the last day of February."""
    day = parse_date(date, "date")
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    if not 1 <= year <= 9999:
        raise BadArgument("months", "a shift that stays within years 1 to 9999")
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last)).isoformat()


@define(
    "date.weekday",
    en="the day of the week of a date",
    ru="день недели для даты",
    args=[
        DATE,
        circ(
            "lang",
            "string",
            "the language of the name",
            "язык названия",
            required=False,
            default="en",
            choices=tuple(WEEKDAYS),
        ),
    ],
    examples=[
        ex({"date": "2024-01-01"}, "Monday"),
        ex({"date": "2024-08-09", "lang": "ru"}, "пятница"),
    ],
)
def weekday(date: str, lang: str = "en") -> str:
    """The weekday's name in English or Russian."""
    if lang not in WEEKDAYS:
        raise BadArgument("lang", "en or ru")
    return WEEKDAYS[lang][parse_date(date, "date").weekday()]


@define(
    "date.to_unix",
    en="Unix timestamp of a local date-time in a time zone",
    ru="Unix-время для местного момента в часовом поясе",
    args=[data("datetime", "string", "the local date-time", "местные дата и время"), TZ],
    result="integer",
    examples=[
        ex({"datetime": "2024-01-01T00:00:00", "tz": "UTC"}, 1704067200),
        ex({"datetime": "2024-01-01T03:00:00", "tz": "Europe/Moscow"}, 1704067200),
    ],
)
def to_unix(datetime: str, tz: str) -> int:
    """Whole seconds since 1970-01-01T00:00:00Z (fractions are dropped toward the past)."""
    moment = _localize(parse_datetime(datetime, "datetime"), zone(tz))
    return int((moment - dt.datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() // 1)


@define(
    "date.from_unix",
    en="local ISO date-time of a Unix timestamp in a time zone",
    ru="местные дата и время (ISO) для Unix-времени в часовом поясе",
    args=[
        data("timestamp", "integer", "seconds since 1970-01-01 UTC", "секунды с 1970-01-01 UTC"),
        TZ,
    ],
    examples=[
        ex({"timestamp": 1700000000, "tz": "UTC"}, "2023-11-14T22:13:20+00:00"),
        ex({"timestamp": 1700000000, "tz": "Europe/Moscow"}, "2023-11-15T01:13:20+03:00"),
    ],
)
def from_unix(timestamp: int, tz: str) -> str:
    """ISO 8601 with the zone's offset at that moment."""
    zone_ = zone(tz)
    if abs(timestamp) > 253_402_300_799:
        raise BadArgument("timestamp", "a timestamp within years 1 to 9999")
    try:
        moment = dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(seconds=timestamp)
        return moment.astimezone(zone_).isoformat()
    except (OverflowError, ValueError):
        raise BadArgument("timestamp", "a timestamp within years 1 to 9999") from None


@define(
    "date.convert_timezone",
    en="the same moment in another time zone (DST-aware)",
    ru="тот же момент в другом часовом поясе (с учётом летнего времени)",
    args=[
        data("datetime", "string", "the local date-time", "местные дата и время"),
        circ("from_tz", "string", "the zone it is given in", "исходный часовой пояс"),
        circ("to_tz", "string", "the zone to express it in", "целевой часовой пояс"),
    ],
    examples=[
        ex(
            {
                "datetime": "2024-03-09T12:00:00",
                "from_tz": "America/New_York",
                "to_tz": "Europe/London",
            },
            "2024-03-09T17:00:00+00:00",
        ),
        ex(
            {
                "datetime": "2024-03-10T12:00:00",
                "from_tz": "America/New_York",
                "to_tz": "Europe/London",
            },
            "2024-03-10T16:00:00+00:00",
        ),
        ex(
            {"datetime": "2024-07-01T09:30", "from_tz": "Europe/Moscow", "to_tz": "Asia/Tokyo"},
            "2024-07-01T15:30:00+09:00",
        ),
    ],
)
def convert_timezone(datetime: str, from_tz: str, to_tz: str) -> str:
    """ISO 8601 in ``to_tz`` with its offset at that moment."""
    src, dst = zone(from_tz, "from_tz"), zone(to_tz, "to_tz")
    moment = _localize(parse_datetime(datetime, "datetime"), src)
    try:
        return moment.astimezone(dst).isoformat()
    except (OverflowError, ValueError):
        raise BadArgument("datetime", "a moment within years 1 to 9999 in both zones") from None


@define(
    "date.iso_week",
    en="ISO 8601 year, week and weekday of a date",
    ru="год, неделя и день недели по ISO 8601",
    args=[DATE],
    result="object",
    examples=[
        ex({"date": "2021-01-03"}, {"year": 2020, "week": 53, "weekday": 7}),
        ex({"date": "2024-12-30"}, {"year": 2025, "week": 1, "weekday": 1}),
    ],
)
def iso_week(date: str) -> dict[str, int]:
    """Weeks start on Monday; week 1 holds the year's first Thursday."""
    y, w, d = parse_date(date, "date").isocalendar()
    return {"year": y, "week": w, "weekday": d}


@define(
    "date.is_leap_year",
    en="whether a year is a leap year (Gregorian)",
    ru="високосный ли год (григорианский календарь)",
    args=[data("year", "integer", "the year", "год")],
    result="boolean",
    examples=[ex({"year": 2000}, True), ex({"year": 1900}, False)],
)
def is_leap_year(year: int) -> bool:
    """Divisible by 4, except centuries not divisible by 400."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


@define(
    "date.days_in_month",
    en="number of days in a month of a year",
    ru="число дней в месяце года",
    args=[
        data("year", "integer", "the year", "год"),
        data("month", "integer", "the month 1-12", "месяц 1-12"),
    ],
    result="integer",
    examples=[ex({"year": 2024, "month": 2}, 29)],
)
def days_in_month(year: int, month: int) -> int:
    """Gregorian calendar."""
    if not 1 <= month <= 12:
        raise BadArgument("month", "a month from 1 to 12")
    if not 1 <= year <= 9999:
        raise BadArgument("year", "a year from 1 to 9999")
    return calendar.monthrange(year, month)[1]


@define(
    "date.day_of_year",
    en="ordinal day of the year of a date",
    ru="порядковый номер дня в году",
    args=[DATE],
    result="integer",
    examples=[ex({"date": "2024-12-31"}, 366)],
)
def day_of_year(date: str) -> int:
    """January 1 is day 1."""
    return parse_date(date, "date").timetuple().tm_yday


@define(
    "date.business_days",
    en="business days, the weekdays Monday-Friday, between two dates, both included; holidays "
       "not counted out",
    ru="рабочие (будние) дни, пн-пт, между датами включительно; праздники не исключаются",
    args=[START, END],
    result="integer",
    examples=[
        ex({"start": "2024-01-01", "end": "2024-01-31"}, 23),
        ex({"start": "2024-08-09", "end": "2024-08-12"}, 2),
    ],
)
def business_days(start: str, end: str) -> int:
    """Monday to Friday inclusive of both ends; no public-holiday calendar is applied."""
    a, b = parse_date(start, "start"), parse_date(end, "end")
    if b < a:
        raise BadArgument("end", "a date not earlier than start")
    days = (b - a).days + 1
    weeks, rest = divmod(days, 7)
    extra = sum((a.weekday() + i) % 7 < 5 for i in range(rest))
    return weeks * 5 + extra


@define(
    "date.age",
    en="age in whole years on a given date",
    ru="полных лет на заданную дату",
    args=[
        data("birth_date", "string", "the date of birth", "дата рождения"),
        data(
            "on_date",
            "string",
            "the date the age is counted on",
            "дата, на которую считается возраст",
        ),
    ],
    result="integer",
    examples=[
        ex({"birth_date": "1990-05-15", "on_date": "2024-05-14"}, 33),
        ex({"birth_date": "1990-05-15", "on_date": "2024-05-15"}, 34),
        ex({"birth_date": "2000-02-29", "on_date": "2023-02-28"}, 22),
    ],
)
def age(birth_date: str, on_date: str) -> int:
    """Whole years; a February 29 birthday comes on March 1 in common years."""
    born, on = parse_date(birth_date, "birth_date"), parse_date(on_date, "on_date")
    if on < born:
        raise BadArgument("on_date", "a date not earlier than the birth date")
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))
