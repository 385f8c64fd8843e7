"""One Russian plural rule serves the utilities' amounts in words, the gates' search areas and the screen."""

from __future__ import annotations

import pytest

from workbench.text import ru_plural

FORMS = ("файл", "файла", "файлов")


@pytest.mark.parametrize(("n", "form"), [
    (0, "файлов"), (1, "файл"), (2, "файла"), (4, "файла"), (5, "файлов"), (11, "файлов"),
    (12, "файлов"), (14, "файлов"), (21, "файл"), (22, "файла"), (25, "файлов"), (101, "файл"),
    (111, "файлов"), (112, "файлов"), (1001, "файл"), (-3, "файла"),
])
def test_the_form_agrees_with_the_number(n: int, form: str) -> None:
    assert ru_plural(n, FORMS) == form
