"""The Russian noun form a number takes: 1 файл, 2 файла, 5 файлов."""

from __future__ import annotations


def ru_plural(n: int, forms: tuple[str, str, str]) -> str:
    """The form of ``forms`` (one, few, many) that agrees with ``n``: (1 рубль, 2 рубля, 5 рублей)."""
    n = abs(n) % 100
    if 10 < n < 20:
        return forms[2]
    n %= 10
    return forms[0] if n == 1 else forms[1] if 2 <= n <= 4 else forms[2]


__all__ = ["ru_plural"]
