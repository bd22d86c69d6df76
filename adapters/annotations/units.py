"""Quantities in text ("1,134 mm", "EUR 45", "0.55 kW") normalised with pint.

The same normaliser reads the documents' quantities and the questions' (`QuantityReader`), so
"width <= 1.2 m" and "under 4 ft" compare with a table cell of "1,134 mm".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pint

from core.ports import FoundQuantity

# Lengths to metres, masses to kilograms, power to watts; currencies keep their code.
_TARGETS = {"[length]": "meter", "[mass]": "kilogram", "[mass] * [length] ** 2 / [time] ** 3": "watt"}
_SYMBOLS = {"meter": "m", "kilogram": "kg", "watt": "W"}
_CURRENCIES = {"eur": "EUR", "€": "EUR", "usd": "USD", "$": "USD", "gbp": "GBP", "£": "GBP"}
_NUMBER = r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d+(?:\.\d+)?"
_DIMENSIONS = {"m": "length", "kg": "mass", "W": "power", "%": "percent"}
# Words pint reads as units that, after a number in a question, are not ("5 points", "2 pc").
_NOT_UNITS = frozenset({"point", "points", "hand", "hands", "line", "lines", "pc", "ct", "u", "gr", "span", "spans"})
# "in" after a number is inches only before a size word or the end ("40.2 in wide", "under 47 in?").
_IN_AS_WORD = re.compile(r"\s+(?!(?:wide|tall|high|deep|long|thick|x|by)\b)[a-z]", re.IGNORECASE)
_FIND = re.compile(
    r"(?<![\w.,/-])(?:(?P<pre>eur|usd|gbp|€|\$|£)\s*)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|\d+(?:[.,]\d+)?)"
    r"(?:\s*(?P<unit>[a-zA-Zµ€$£%][a-zA-Zµ²³/]*))?",
    re.IGNORECASE,
)
_QUANTITY = re.compile(
    rf"^\s*(?P<pre>eur|usd|gbp|€|\$|£)?\s*(?P<num>{_NUMBER})\s*(?P<unit>[a-zA-Zµ€$£%]+)?\.?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Quantity:
    """A number with its normalised unit (`m`, `kg`, `W`, a currency code, or as written)."""

    value: float
    unit: str | None


class UnitNormalizer:
    """Parses and normalises quantities; one pint registry per instance."""

    def __init__(self) -> None:
        self._registry: pint.UnitRegistry[float] = pint.UnitRegistry()

    def normalize(self, value: float, unit: str | None) -> Quantity:
        """`value unit` in the unit its kind is compared in (1,134 mm → 1.134 m)."""
        if not unit:
            return Quantity(value, None)
        currency = _CURRENCIES.get(unit.lower())
        if currency:
            return Quantity(value, currency)
        if unit == "%":
            return Quantity(value, "%")
        quantity = self._quantity(value, unit)
        if quantity is None:
            return Quantity(value, unit)
        target = _TARGETS.get(str(quantity.dimensionality))
        if target is None:
            return Quantity(value, unit)
        return Quantity(round(float(quantity.to(target).magnitude), 9), _SYMBOLS[target])

    def _quantity(self, value: float, unit: str) -> pint.Quantity[float] | None:
        """pint's quantity, trying the unit as written, then "kw"/"KG" in pint's spelling."""
        for spelling in dict.fromkeys((unit, unit.lower(), unit.lower().replace("w", "W"))):
            try:
                return self._registry.Quantity(value, spelling)
            except (
                pint.errors.UndefinedUnitError,
                pint.errors.DefinitionSyntaxError,
                AttributeError,
                ValueError,
            ):
                continue
        return None

    def known_unit(self, unit: str) -> bool:
        """True for a currency, `%`, or a unit pint knows (`mm`, `kg`, `ft`, `oz`, `L/min`)."""
        if unit.lower() in _CURRENCIES or unit == "%":
            return True
        try:
            self._registry.Unit(unit)
        except Exception:  # pint raises several kinds for text that is not a unit
            return False
        return True

    def parse(self, text: str) -> Quantity | None:
        """A quantity when `text` is just one ("1,134 mm", "EUR 45", "21.5 kg"), else None."""
        match = _QUANTITY.match(text)
        if not match:
            return None
        value = float(match.group("num").replace(",", ""))
        unit = match.group("pre") or match.group("unit")
        return self.normalize(value, unit)


class UnitQuantityReader:
    """The `QuantityReader` port on a `UnitNormalizer`: numbers and quantities in a question."""

    def __init__(self, *, units: UnitNormalizer) -> None:
        self._units = units

    def find(self, text: str) -> list[FoundQuantity]:
        """Every number in `text`, with its unit normalised when it has one of a known kind."""
        found = []
        for match in _FIND.finditer(text):
            number = match.group("num")
            thousands = re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", number)
            value = float(number.replace(",", "") if thousands else number.replace(",", "."))
            unit = match.group("pre") or match.group("unit")
            end = match.end("num") if match.group("pre") else match.end()
            quantity = self.normalize_unit(value, unit, text[end:]) if unit else None
            if quantity is None:  # a bare number, or a word after it that is not a unit
                end = match.end("num")
                found.append(FoundQuantity(start=match.start(), end=end, value=value))
                continue
            dimension = "currency" if quantity.unit in _CURRENCIES.values() else _DIMENSIONS.get(quantity.unit or "")
            found.append(FoundQuantity(match.start(), end, quantity.value, quantity.unit, dimension))
        return found

    def normalize_unit(self, value: float, unit: str, rest: str) -> Quantity | None:
        """The normalised quantity when `unit` is a unit of a kind the documents compare, else None."""
        if unit.lower() in _NOT_UNITS or (unit.lower() == "in" and _IN_AS_WORD.match(rest)):
            return None  # "25 in stock", "in 2024 in Berlin": the word, not inches
        quantity = self._units.normalize(value, unit)
        known = quantity.unit in _CURRENCIES.values() or quantity.unit in _DIMENSIONS
        return quantity if known else None
