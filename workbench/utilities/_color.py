"""Color category: hex and RGB, HSL and CMYK, WCAG contrast."""

from __future__ import annotations

import colorsys
import re
from typing import Any

from workbench.utilities._schema import BadArgument, data, define, ex

RGB_ARGS = [
    data("r", "integer", "red 0-255", "красный 0-255"),
    data("g", "integer", "green 0-255", "зелёный 0-255"),
    data("b", "integer", "blue 0-255", "синий 0-255"),
]


def _channels(r: int, g: int, b: int) -> tuple[int, int, int]:
    for name, value in (("r", r), ("g", g), ("b", b)):
        if not 0 <= value <= 255:
            raise BadArgument(name, "an integer from 0 to 255")
    return r, g, b


def parse_hex(value: str, argument: str = "hex") -> tuple[int, int, int]:
    """``#rgb`` or ``#rrggbb`` (the ``#`` is optional) as three channels."""
    s = value.strip().lstrip("#")
    if re.fullmatch(r"[0-9a-fA-F]{3}", s):
        s = "".join(c * 2 for c in s)
    if re.fullmatch(r"[0-9a-fA-F]{6}", s) is None:
        raise BadArgument(argument, "a hex colour #rgb or #rrggbb")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


@define(
    "color.hex_to_rgb",
    en="red, green, blue channels of a hex colour",
    ru="каналы красный, зелёный, синий для цвета в hex",
    args=[data("hex", "string", "the colour #rrggbb or #rgb", "цвет #rrggbb или #rgb")],
    result="object",
    examples=[
        ex({"hex": "#ff8000"}, {"r": 255, "g": 128, "b": 0}),
        ex({"hex": "0f0"}, {"r": 0, "g": 255, "b": 0}),
    ],
)
def hex_to_rgb(hex: str) -> dict[str, int]:  # noqa: A002 - the fixed argument name
    """Three-digit forms are doubled (#0f0 is #00ff00)."""
    r, g, b = parse_hex(hex)
    return {"r": r, "g": g, "b": b}


@define(
    "color.rgb_to_hex",
    en="hex form of an RGB colour",
    ru="запись цвета RGB в hex",
    args=RGB_ARGS,
    examples=[ex({"r": 255, "g": 128, "b": 0}, "#ff8000")],
)
def rgb_to_hex(r: int, g: int, b: int) -> str:
    """Lower-case ``#rrggbb``."""
    r, g, b = _channels(r, g, b)
    return f"#{r:02x}{g:02x}{b:02x}"


@define(
    "color.rgb_to_hsl",
    en="hue (degrees), saturation and lightness (percent) of an RGB colour",
    ru="тон (градусы), насыщенность и светлота (проценты) цвета RGB",
    args=RGB_ARGS,
    result="object",
    examples=[
        ex({"r": 255, "g": 0, "b": 0}, {"h": 0.0, "s": 100.0, "l": 50.0}),
        ex({"r": 255, "g": 128, "b": 0}, {"h": 30.1, "s": 100.0, "l": 50.0}),
    ],
)
def rgb_to_hsl(r: int, g: int, b: int) -> dict[str, float]:
    """CSS Color 4 HSL, each value rounded to one decimal."""
    r, g, b = _channels(r, g, b)
    h, lightness, s = colorsys.rgb_to_hls(r / 255, g / 255, b / 255)
    return {"h": round(h * 360, 1) % 360, "s": round(s * 100, 1), "l": round(lightness * 100, 1)}


@define(
    "color.hsl_to_rgb",
    en="RGB channels of an HSL colour",
    ru="каналы RGB для цвета HSL",
    args=[
        data("h", "number", "hue in degrees", "тон в градусах"),
        data("s", "number", "saturation in percent", "насыщенность в процентах"),
        data("l", "number", "lightness in percent", "светлота в процентах"),
    ],
    result="object",
    examples=[
        ex({"h": 120, "s": 100, "l": 50}, {"r": 0, "g": 255, "b": 0}),
        ex({"h": 210, "s": 50, "l": 40}, {"r": 51, "g": 102, "b": 153}),
    ],
)
def hsl_to_rgb(h: float, s: float, l: float) -> dict[str, int]:  # noqa: E741 - HSL's own letter
    """Channels rounded half up to integers."""
    if not (0 <= s <= 100 and 0 <= l <= 100):
        raise BadArgument("s" if not 0 <= s <= 100 else "l", "a percentage from 0 to 100")
    if not -1e9 < h < 1e9:
        raise BadArgument("h", "an angle in degrees")
    rgb = colorsys.hls_to_rgb((h % 360) / 360, l / 100, s / 100)
    r, g, b = (int(c * 255 + 0.5 + 1e-9) for c in rgb)
    return {"r": r, "g": g, "b": b}


@define(
    "color.rgb_to_cmyk",
    en="CMYK percentages of an RGB colour (naive, no colour profile)",
    ru="CMYK в процентах для цвета RGB (простая формула, без цветового профиля)",
    args=RGB_ARGS,
    result="object",
    examples=[ex({"r": 255, "g": 128, "b": 0}, {"c": 0.0, "m": 49.8, "y": 100.0, "k": 0.0})],
)
def rgb_to_cmyk(r: int, g: int, b: int) -> dict[str, float]:
    """K = 1 - max(R, G, B); the rest relative to 1 - K; one decimal."""
    r, g, b = _channels(r, g, b)
    k = 1 - max(r, g, b) / 255
    if k >= 1:
        return {"c": 0.0, "m": 0.0, "y": 0.0, "k": 100.0}
    c, m, y = ((1 - v / 255 - k) / (1 - k) for v in (r, g, b))
    return {
        "c": round(c * 100, 1),
        "m": round(m * 100, 1),
        "y": round(y * 100, 1),
        "k": round(k * 100, 1),
    }


def _luminance(rgb: tuple[int, int, int]) -> float:
    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@define(
    "color.contrast_ratio",
    en="WCAG 2 contrast ratio of two colours and the levels it meets",
    ru="контраст двух цветов по WCAG 2 и уровни, которым он соответствует",
    args=[
        data("foreground", "string", "the text colour (hex)", "цвет текста (hex)"),
        data("background", "string", "the background colour (hex)", "цвет фона (hex)"),
    ],
    result="object",
    examples=[
        ex(
            {"foreground": "#000000", "background": "#ffffff"},
            {"ratio": 21.0, "aa": True, "aa_large": True, "aaa": True},
        ),
        ex(
            {"foreground": "#777777", "background": "#ffffff"},
            {"ratio": 4.48, "aa": False, "aa_large": True, "aaa": False},
        ),
    ],
)
def contrast_ratio(foreground: str, background: str) -> dict[str, Any]:
    """(L1 + 0.05) / (L2 + 0.05) with relative luminance; levels use the unrounded ratio."""
    a = _luminance(parse_hex(foreground, "foreground"))
    b = _luminance(parse_hex(background, "background"))
    ratio = (max(a, b) + 0.05) / (min(a, b) + 0.05)
    return {
        "ratio": round(ratio, 2),
        "aa": ratio >= 4.5,
        "aa_large": ratio >= 3.0,
        "aaa": ratio >= 7.0,
    }
