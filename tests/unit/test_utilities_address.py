"""Russian addresses: nothing the parser does not recognise is dropped."""

from __future__ import annotations

import re

import pytest

from workbench.utilities import call_utility

ADDRESSES = [
    "кв 14 дом 7 улица Ленина Москва 101000",
    "101000 Москва улица Ленина дом 7",
    "Тверская ул 7 кв 12",
    "г. Казань, ул. Баумана, д. 1, стр. 2, офис 5",
    "630099 Новосибирск Красный проспект 18",
]


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[А-Яа-яЁё]{3,}|\d+", text)}


@pytest.mark.parametrize("address", ADDRESSES)
def test_no_word_of_an_address_is_lost(address: str) -> None:
    outcome = call_utility("address.normalize_ru", {"address": address})
    assert outcome.refusal is None
    result = outcome.result
    text = str(result)
    markers = {"дом", "квартира", "улица", "корпус", "строение", "проспект", "город"}
    missing = {w for w in _words(address) - markers if w not in text.lower()}
    # "проспект" becomes "пр-кт" and "улица" becomes "ул."; everything else must survive
    assert not missing, (address, result)
