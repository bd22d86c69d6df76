"""Numbers a question constrains: "lighter than 25 kg", "width <= 1.2 m", "more than £40".

The numbers and their units come from the `QuantityReader` port, which normalises them as the
documents' quantities are (2 ft → 0.6096 m); this module reads the comparison and the field.
"""

from __future__ import annotations

import re

from core.contracts import NumericConstraint
from core.ports import FoundQuantity, QuantityReader
from core.text import STOPWORDS
from core.understanding.periods import is_year

COMPARATIVES = {
    "lighter than": ("weight", "<"),
    "heavier than": ("weight", ">"),
    "narrower than": ("width", "<"),
    "wider than": ("width", ">"),
    "shorter than": ("height", "<"),
    "taller than": ("height", ">"),
    "cheaper than": ("price", "<"),
    "more expensive than": ("price", ">"),
}
"""Comparatives that name both the field and the comparison."""

OPERATORS = {
    "at most": "<=",
    "under": "<",
    "below": "<",
    "less than": "<",
    "at least": ">=",
    "over": ">",
    "above": ">",
    "more than": ">",
    "greater than": ">",
    "up to": "<=",
}
"""Words that say how a number compares."""

_VERB_LABELS = {"weigh": "weight", "weighs": "weight", "cost": "price", "costs": "price", "priced": "price"}
_USUAL_FIELD = {"mass": "weight", "power": "power", "currency": "total"}
_UNIT_DIMENSIONS = {"kg": "mass", "W": "power", "EUR": "currency", "USD": "currency", "GBP": "currency"}
_OPERATOR_WORDS = "|".join(re.escape(w) for w in sorted([*COMPARATIVES, *OPERATORS], key=len, reverse=True))
_BEFORE_NUMBER = re.compile(
    rf"(?:\b(?!(?:{_OPERATOR_WORDS})\b)(?P<label>[a-z]+)\s+)?(?P<op><=|>=|<|>|=|\b(?:{_OPERATOR_WORDS}))?\s*$",
    re.IGNORECASE,
)


def usual_field(unit: str | None) -> str | None:
    """The field a normalised unit usually measures when the question names none (kg → weight)."""
    return _USUAL_FIELD.get(_UNIT_DIMENSIONS.get(unit or "", ""))


def constraints(text: str, reader: QuantityReader) -> list[NumericConstraint]:
    """The numbers `text` constrains: those with a unit or a comparison, not names or years.

    A bare number ("SunPeak 400", "2024") is a name or a year, not a constraint.
    """
    found = []
    for quantity in reader.find(text):
        context = _BEFORE_NUMBER.search(text[: quantity.start])
        op_text = (context["op"] or "").lower() if context else ""
        if not (op_text or quantity.unit):
            continue
        if quantity.unit is None and is_year(text[quantity.start : quantity.end]):
            continue
        word = (context["label"] or "").lower() if context else ""
        start = context.start() if context and (context["label"] or op_text) else quantity.start
        found.append(_constraint(quantity, word, op_text, text[start : quantity.end].strip()))
    return found


def _constraint(quantity: FoundQuantity, word: str, op_text: str, written: str) -> NumericConstraint:
    label, operator = None, OPERATORS.get(op_text, op_text or "=")
    if op_text in COMPARATIVES:
        label, operator = COMPARATIVES[op_text]
    elif word and word not in STOPWORDS:
        label = _VERB_LABELS.get(word, word)
    if label is None and quantity.dimension:
        label = _USUAL_FIELD.get(quantity.dimension)
    return NumericConstraint(
        label=label,
        operator=operator if operator in ("<", "<=", "=", ">=", ">") else "=",
        value=quantity.value,
        unit=quantity.unit,
        text=written,
    )
