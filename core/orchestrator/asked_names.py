"""The names a question uses: proper names, product ids, numbered items and quarters, each with the
lower-cased ways a document may write it (`core.orchestrator.steering` resolves them)."""

from __future__ import annotations

import calendar
import datetime as dt
import re

from core.contracts import Contract
from core.orchestrator.guardrails import REDACTION_MARK
from core.text import STOPWORDS, without_clitic, word_spans, words
from core.understanding import MONTHS, is_date_word, quarter_mentions, quarter_window, quarters
from core.understanding.periods import PERIOD_CODE, PERIOD_WORDS

_DAYS = {d.lower() for d in calendar.day_name}
_NAME_JOINERS = {"of", "for", "the"}  # not "and": "Northwind and Contoso" are two
_STOP = re.compile(r"[,;:?!()\[\]]")


def _written(run: list[str]) -> str:
    """A name's words as the question wrote them: a single capital among them is an initial, and single
    capitals in a row an initialism, written with full stops ("U.S. Department of Labor", "Charles I.
    Plosser"), which the tokenizer split off.

    General case: "U.S." and "U.K." are one word of a name; read as "U S", no source writes them so
    and a name check finds the sources "not about U S"."""
    if len(run) == 1:
        return run[0]  # a lone capital ("B") is a name as written
    out: list[str] = []
    for before, token in zip(["", *run], run, strict=False):
        initial = len(token) == 1 and token.isupper()
        if initial and len(before) == 1 and before.isupper():
            out[-1] += f"{token}."  # capitals in a row are one word: "U.S."
        else:
            out.append(f"{token}." if initial else token)
    return " ".join(out)


class Name(Contract):
    """A name the question uses and the lower-cased ways a document may write it."""

    text: str
    variants: list[str]
    period: bool = False
    identifier: bool = False  # a product or code id ("K-450", "E04"): letters and digits together
    start: dt.date | None = None  # a period's first and last day
    end: dt.date | None = None

    def covers(self, date: dt.date | None) -> bool:
        """True when `date` falls in this period (a receipt dated in the quarter asked about)."""
        return date is not None and self.start is not None and self.end is not None and self.start <= date <= self.end


def names_in(question: str) -> list[Name]:
    """Proper names, product ids, numbered items and quarters a question names (the mark left where
    personal data was redacted, "[REDACTED CARD]", is none)."""
    question = REDACTION_MARK.sub(" ", question)
    found: list[Name] = []
    for quarter, year in quarters(question):
        start, end = quarter_window(quarter, year)
        found.append(
            Name(text=f"Q{quarter} {year}", variants=quarter_mentions(quarter, year), period=True, start=start, end=end)
        )
    numbered = NUMBERED.findall(question)
    text = NUMBERED.sub(" ", question)
    tokens, spans = words(text), word_spans(text)
    # A comma, colon or bracket between two words ends a name: "Canada, the Fed" names two.
    stops = {i for i in range(1, len(spans)) if _STOP.search(text[spans[i - 1][1] : spans[i][0]])}
    run: list[str] = []

    def close() -> None:
        # A small word kept for a capitalised word that turned out to name nothing ("After Hurricane
        # Katrina, the September 2005 minutes …") is not the name's.
        while run and run[-1].lower() in _NAME_JOINERS:
            run.pop()
        if run:
            phrase = _written(run)
            found.append(Name(text=phrase, variants=[phrase.lower()]))
            run.clear()

    for index, token in enumerate([*tokens, ""]):
        if index in stops:
            close()
        bare = re.sub(r"'s?$", "", token)
        lower = bare.lower()
        when = PERIOD_CODE.fullmatch(bare) is not None or lower in PERIOD_WORDS  # "FY", "fy2018", "Fiscal"
        proper = (
            index > 0
            and bare[:1].isupper()
            and lower not in STOPWORDS
            and lower not in MONTHS
            and lower not in _DAYS
            and not when
        )
        # A middle initial is a name's word though it reads as a stop-word: "Charles I. Plosser".
        initial = bool(run) and len(bare) == 1 and bare.isupper() and text[spans[index][1] :].startswith(".")
        product = _is_product_id(lower) and not when
        if (proper or initial) and not product:
            run.append(bare)
            if bare != token:  # a possessive ends its name: "the Committee's Treasury purchases" names two
                close()
            continue
        # A name keeps its small words before a capitalised one ("Department of the Interior").
        rest = next((t for t in tokens[index + 1 :] if t.lower() not in _NAME_JOINERS), "")
        if run and lower in _NAME_JOINERS and rest[:1].isupper():
            run.append(bare)
            continue
        close()
        if product:
            found.append(Name(text=bare, variants=[lower], identifier=True))
    found += [Name(text=m, variants=[m.lower()], identifier=True) for m in numbered]
    unique: dict[str, Name] = {}
    for name in _with_short_forms(found, question):
        unique.setdefault(name.text.lower(), name)
    return list(unique.values())


def _with_short_forms(found: list[Name], question: str) -> list[Name]:
    """The names, an acronym the question defines in brackets after a name ("the Small Business Health
    Options Program (SHOP)") being one more way to write that name, not a name of its own.

    General case: writers define a short form by bracketing it after the full name; a passage may
    write either ("33 options through SHOP")."""
    out: list[Name] = []
    for name in found:
        last = out[-1] if out else None
        defined = rf"{re.escape(last.text)}\s*\(\s*{re.escape(name.text)}\s*\)" if last else ""
        if last and name.text.isupper() and not last.identifier and re.search(defined, question):
            out[-1] = last.model_copy(update={"variants": [*last.variants, name.text.lower()]})
        else:
            out.append(name)
    return out


NUMBERED = re.compile(r"(?<![\w.])\d{1,2}(?:\.[0-9A-Za-z]{1,3}){2,}(?![\w.])")
"""A numbered item a document lists ("measure 2.2.B", "KPI 3.2.1.1", "goal 5.2.1"): three parts or
more, so never a figure ("4.4 points") nor a date; a question quoting it asks about that item."""


def _is_product_id(word: str) -> bool:
    """Letters and digits together ("k-450", "e04"), but not a quarter ("q3")."""
    return bool(re.search(r"[a-z]", word)) and bool(re.search(r"\d", word)) and not re.fullmatch(r"q[1-4]", word)


def name_runs(question: str, free: set[str]) -> list[re.Pattern[str]]:
    """The question's names after its first word, each a run of capitalised words without the `free`
    words, stop-words and date words at its ends ("Washington Mutual", "Acting Secretary"), as
    patterns that find the run written whole in any case."""
    first = re.match(r"\s*\S+", question)
    runs: list[re.Pattern[str]] = []
    for match in CAPITALISED_RUN.finditer(question, first.end() if first else 0):
        kept = [without_clitic(w) for w in words(match[0])]
        while kept and not_named(kept[0], free):
            kept.pop(0)
        while kept and not_named(kept[-1], free):
            kept.pop()
        if kept:
            written = r"\W+".join(map(re.escape, kept))
            runs.append(re.compile(rf"(?<!\w){written}(?!\w)", re.IGNORECASE))
    return runs


def not_named(word: str, free: set[str]) -> bool:
    """True for a word at a name run's end that names nothing asked: a `free` word, a stop-word, a date word."""
    return word.lower() in free or word.lower() in STOPWORDS or is_date_word(word)


CAPITALISED_RUN = re.compile(r"(?<![\w'’])(?-i:[A-Z])[\w'’&-]*(?:[ \t]+(?-i:[A-Z])[\w'’&-]*)*")
