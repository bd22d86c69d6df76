"""Quantities in text ("1,134 mm", "EUR 45", "0.55 kW") normalised with pint."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pint

# Lengths to metres, masses to kilograms, power to watts; currencies keep their code.
_TARGETS = {"[length]": "meter", "[mass]": "kilogram", "[mass] * [length] ** 2 / [time] ** 3": "watt"}
_SYMBOLS = {"meter": "m", "kilogram": "kg", "watt": "W"}
_CURRENCIES = {"eur": "EUR", "€": "EUR", "usd": "USD", "$": "USD", "gbp": "GBP", "£": "GBP"}
_NUMBER = r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d+(?:\.\d+)?"
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
        try:
            quantity = self._registry.Quantity(value, unit)
        except (
            pint.errors.UndefinedUnitError,
            pint.errors.DefinitionSyntaxError,
            AttributeError,
            ValueError,
        ):
            return Quantity(value, unit)
        target = _TARGETS.get(str(quantity.dimensionality))
        if target is None:
            return Quantity(value, unit)
        return Quantity(round(float(quantity.to(target).magnitude), 9), _SYMBOLS[target])

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
