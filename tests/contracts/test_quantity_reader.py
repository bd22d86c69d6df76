"""The `QuantityReader` contract: numbers and quantities found in a text, normalised as documents' are."""

from __future__ import annotations

import pytest

from adapters.annotations.units import UnitNormalizer, UnitQuantityReader
from core.ports import FoundQuantity, QuantityReader


@pytest.fixture(params=["pint"])
def reader(request: pytest.FixtureRequest) -> QuantityReader:
    return UnitQuantityReader(units=UnitNormalizer())


def only(reader: QuantityReader, text: str) -> FoundQuantity:
    found = [q for q in reader.find(text) if q.unit]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("text", "value", "unit", "dimension"),
    [
        ("a 1,134 mm panel", 1.134, "m", "length"),
        ("under 2 ft", 0.6096, "m", "length"),
        ("40.2 in wide", 1.02108, "m", "length"),
        ("at most 16 oz", 0.45359237, "kg", "mass"),
        ("lighter than 25 kg", 25.0, "kg", "mass"),
        ("less than 50 lb", 22.6796185, "kg", "mass"),
        ("over 0.5 kW", 500.0, "W", "power"),
        ("over 0.5 kw", 500.0, "W", "power"),
        ("more than £40", 40.0, "GBP", "currency"),
        ("over $40", 40.0, "USD", "currency"),
        ("receipts over 500 EUR", 500.0, "EUR", "currency"),
        ("costs 45 €", 45.0, "EUR", "currency"),
        ("above 20 %", 20.0, "%", "percent"),
        ("1,2 m wide", 1.2, "m", "length"),
    ],
)
def test_quantities_are_normalised(reader: QuantityReader, text: str, value: float, unit: str, dimension: str) -> None:
    quantity = only(reader, text)
    assert (quantity.value, quantity.unit, quantity.dimension) == (pytest.approx(value), unit, dimension)


def test_the_span_covers_the_number_and_its_unit(reader: QuantityReader) -> None:
    text = "panels more than £40 each"
    quantity = only(reader, text)
    assert text[quantity.start : quantity.end] == "£40"


@pytest.mark.parametrize(
    "text",
    [
        "the SunPeak 400",
        "top 5 vendors",
        "25 in stock",
        "in 2024 in Berlin",
        "3 months ago",
        "10 points",
        "K-450",
        "E04",
    ],
)
def test_numbers_without_a_unit_of_a_known_kind_are_bare(reader: QuantityReader, text: str) -> None:
    assert all(q.unit is None and q.dimension is None for q in reader.find(text))


def test_bare_numbers_are_found_with_their_value(reader: QuantityReader) -> None:
    assert [(q.value, q.unit) for q in reader.find("the top 5 of 1,200 rows")] == [(5.0, None), (1200.0, None)]
