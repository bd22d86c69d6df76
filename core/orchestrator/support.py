"""Does the evidence support the question? One measure for every route, and the gate before answering.

support = ½ × the share of the question's content terms the cited text contains
        + ½ × the calibrated cosine between the answer and the question.

An answer is given only when its support reaches the calibrated `support` threshold (fitted by
`threadwise eval calibrate`) and every name the question steers by (a company, a product, a
quarter) is mentioned by what it cites; otherwise the outcome is the uncertainty reply.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from core.calibration import Calibration
from core.orchestrator.asked_names import Name
from core.orchestrator.guardrails import REDACTION_MARK
from core.prompts.synthesis import MARK
from core.text import dotted, initials, key_terms, split_sentences, stems, words
from core.understanding import answer_kind, holds, is_date_word, measure_words
from core.understanding.periods import PERIOD_WORDS, occasions

TOP_PASSAGES = 3
_NUMBER = re.compile(r"[\d.,/\u2013-]*\d[\d.,/\u2013-]*")


def content_terms(question: str) -> list[str]:
    """The words of a question that name its subject: key terms (no stop-words) less numbers and dates.

    A number is any term of digits and the marks between them ("2.5", "17-18", "1-3/4").

    Dates and period words ("FY", "fiscal") are not words a source must repeat: the date window and
    steering see to them; nor is the measure a "how far" asks for, nor the mark left where personal
    data was redacted.
    """
    asking = measure_words(question)
    return [
        t
        for t in key_terms(REDACTION_MARK.sub(" ", question))
        if t not in asking and not _NUMBER.fullmatch(t) and not is_date_word(t) and t not in PERIOD_WORDS
    ]


def required_terms(question: str, text: str, asked: str | None = None) -> list[str]:
    """The content terms of `question` to measure `text` by: the occasion a date names ("meeting" in
    "at the July 2023 meeting") counts when the text writes it and is not required when it does not
    (the date window chose that meeting's documents; they need not repeat the word, no more than the
    date). `asked`: the question as the person wrote it, when `question` is a rewording of it that
    lost its prepositions."""
    occasion = occasions(asked or question)
    terms = content_terms(question)
    written = found_terms([t for t in terms if t in occasion], text)
    return [t for t in terms if t not in occasion or t in written]


Forms = Mapping[str, Sequence[str]]
"""Other ways the documents write a term ("nrw" → "non-revenue water", the definition they give)."""


class NamedForms(Protocol):
    """A name the question steers by (`steering.Name`): its text and the ways documents write it."""

    text: str
    variants: list[str]
    period: bool


def name_forms(names: Iterable[NamedForms]) -> dict[str, list[str]]:
    """The question's names as terms, with the ways the documents write them (aliases, definitions)."""
    return {n.text.lower(): n.variants for n in names if not n.period}


def other_order(name: str) -> str:
    """A name "Y of X" written "X Y", and "X Y" written "Y of X" ("Labor Department" ↔ "Department of
    Labor"): English names an organisation both ways. A name of one word is itself."""
    head, joiner, rest = name.partition(" of ")
    if joiner:
        return f"{rest.removeprefix('the ')} {head}"
    first, _, last = name.rpartition(" ")
    return f"{last} of {first}" if first else name


def with_heads(forms: list[str]) -> list[str]:
    """The forms of a name, and the head of each "X and Y" name whose head is a name of several words:
    "National Archives" of "National Archives and Records Administration", "Department of Health" of
    "Department of Health and Human Services".

    General case: people shorten a name that coordinates two things to its first ("the National
    Archives"); a head of one word ("Health", "Employment") is a word, not the name."""
    heads = [head for form in forms if len((head := form.split(" and ")[0]).split()) > 1]
    return list(dict.fromkeys([*forms, *heads]))


def objects(forms: list[str]) -> list[str]:
    """The object of each "Y of X" form of a document's own organisation (one a title names):
    "Commerce" of "Department of Commerce", "Personnel Management" of "Office of Personnel Management".

    General case: people call a department or office by what it is of ("Commerce's plan", "State
    aims for …"). Only an organisation some title names: an office the documents merely mention
    ("Federal Reserve Bank of New York") is not called "New York"."""
    return [obj.removeprefix("the ") for form in forms if (obj := form.partition(" of ")[2]) and " of " not in obj]


_JOINER = re.compile(r"\s+of\s+(?:the\s+)?", re.IGNORECASE)


def written_in_parts(text: str, name: str) -> bool:
    """True when a name joined by "of (the)" whose parts are names of several words is written part
    by part: "Manager for Domestic Operations of the System Open Market Account" as "Manager for
    Domestic Operations, System Open Market Account".

    General case: a title and the body it belongs to are written with "of the" in a question and
    with a comma or in a list in the record. A part of one word ("Department of Energy") stays bound:
    "Department" and "Energy" stand apart in any text."""
    parts = _JOINER.split(name)
    return len(parts) > 1 and all(len(p.split()) > 1 for p in parts) and all(mentions(text, [p]) for p in parts)


_PERSON = re.compile(r"[A-Z][a-z]+(?:\s+[A-Z]\.)*(?:\s+[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?)+")
_HONORIFIC = r"(?:Mr|Mrs|Ms|Messrs|Mses|Mmes|Dr)\.?"


def by_honorific(text: str, name: str) -> bool:
    """True when a person's name ("Esther George") is written as an honorific and the surname: "Ms.
    George", or in a list, "Mses. George and Mester".

    General case: English prose names a person in full once and by honorific and surname after that;
    a passage from further on writes only the latter."""
    if not _PERSON.fullmatch(name):
        return False
    surname = re.escape(name.rsplit(" ", 1)[1])
    return re.search(rf"\b{_HONORIFIC}\s+(?:[A-Z][\w'-]+(?:,\s*|\s+and\s+))*{surname}\b", text) is not None


FIRST_AND_LAST = 2
"""A person's name asked without initials: a first name and a surname."""


def with_initials(text: str, name: str) -> bool:
    """True when a person's name of two words ("Charles Plosser") is written with middle initials
    between them: "Charles I. Plosser", "Mary C. J. Daly".

    General case: records (a vote, a signature, a list of those present) give a person's middle
    initials; people asking leave them out."""
    parts = name.split()
    if not _PERSON.fullmatch(name) or len(parts) != FIRST_AND_LAST:
        return False
    first, last = (re.escape(part) for part in parts)
    return re.search(rf"\b{first}\s+(?:[A-Z]\.\s*){{1,3}}{last}\b", text) is not None


def led_by_acronym(text: str, name: str) -> bool:
    """True when a name led by an organisation's short form is written part by part: "FOMC Vice
    Chairman" where the text writes "Vice Chairman" and "FOMC" (or spells it, "Federal Open Market
    Committee").

    General case: people put the body's short form before a title or a thing it owns ("the OPM
    Director", "FOMC Vice Chairman"); the body's own record writes the title alone, in its own
    name."""
    head, _, rest = name.partition(" ")
    short = head.isalpha() and head.isupper() and len(head) > 1
    return short and bool(rest) and mentions(text, [rest]) and (mentions(text, [head]) or acronym_spelled(head, text))


def found_terms(terms: Iterable[str], text: str, forms: Forms | None = None) -> set[str]:
    """The terms `text` contains, matched by stem ("dissenters" ~ "dissented"), or acronyms its
    names spell ("FOMC" ~ "Federal Open Market Committee"), or in one of their `forms` (general case:
    an abbreviation asked, its definition written — `core.understanding.abbreviations`). A compound
    is found with or without its hyphen ("asset-purchase" ~ "asset purchase")."""
    wanted = list(terms)
    written = words(text)
    known = set(stems(written)) | dotted(text)
    # A compound is written with or without its hyphen: "asset-purchase program", "asset purchase program".
    if parts := [part for w in written if "-" in w for part in w.split("-")]:
        known |= set(stems(parts))
    found = {t for t, stem in zip(wanted, stems(wanted), strict=True) if stem in known}
    found |= {t for t in wanted if "-" in t and t not in found and set(stems(t.split("-"))) <= known}
    rest = [t for t in wanted if t not in found]
    if rest and forms:
        found |= {t for t in rest if t in forms and mentions(text, forms[t])}
        rest = [t for t in rest if t not in found]
    if not rest:
        return found
    # An acronym's plural ("ISSOs") is spelled by the singular's name ("Information System Security Officers").
    spelled = initials(text)
    acronyms = {t for t in rest if t in spelled or (t.endswith("s") and t[:-1] in spelled)}
    return found | acronyms | clipped(rest, written) | (set(rest) & spelled_out(wanted, written))


MIN_ACRONYM = 3
"""Letters of an acronym a run of the question's words may spell ("NBIB"; not "US" or "IT")."""


def spelled_out(terms: Sequence[str], written: Sequence[str]) -> set[str]:
    """The terms of a run of the question's words whose initials the text writes as an acronym:
    "National Background Investigations Bureau" where the text writes "NBIB".

    General case: a document defines an abbreviation once and writes it thereafter; a question
    spells the name out (the other way round from `core.text.initials`)."""
    acronyms = {w.lower() for w in written if len(w) >= MIN_ACRONYM and w.isupper() and w.isalpha()}
    found: set[str] = set()
    for i in range(len(terms)):
        for j in range(i + MIN_ACRONYM, len(terms) + 1):
            if "".join(t[0] for t in terms[i:j]) in acronyms:
                found.update(terms[i:j])
    return found


def acronym_spelled(name: str, text: str) -> bool:
    """True when the name and the text write one name, one of them by its initials: an acronym
    (`MIN_ACRONYM` capitals or more) whose letters a run of the text's capitalised words spells
    ("APP" where a cited title reads "Annual Performance Plan"), or a name of several words whose
    initials the text writes as an acronym ("Department of Energy" where a table writes "DOE").

    General case: a question names a body or a document by its short form or its long one; the
    passage cited (its title, a heading, a table's rows) writes the other."""
    if len(name) >= MIN_ACRONYM and name.isalpha() and name.isupper():
        return name.lower() in initials(text)
    parts = name.lower().split()
    return len(parts) > 1 and set(parts) <= spelled_out(parts, words(text))


MIN_CLIPPED = 3
"""A clipped name is at least this long ("Fed"), and shorter than the word it clips by as much."""


def clipped(terms: Iterable[str], written: Sequence[str]) -> set[str]:
    """The terms that are the clipped start of a capitalised word the text writes: "Fed" for
    "Federal", "Gov" for "Government".

    General case: people shorten a long name word to its first syllable ("the Fed", "the
    Gov"); a source spells it out."""
    names = {w.lower() for w in written if w[:1].isupper()}
    return {
        t
        for t in terms
        if len(t) >= MIN_CLIPPED and t.isalpha() and any(n.startswith(t) and len(n) >= 2 * len(t) for n in names)
    }


def term_share(terms: list[str], text: str, signals: Sequence[bool] = (), forms: Forms | None = None) -> float:
    """The share of the question's key signals the text carries: its content words, plus `signals`
    met beyond words (see `asked_signals`); 1.0 when there is nothing to carry."""
    total = len(terms) + len(signals)
    if not total:
        return 1.0
    return (len(found_terms(terms, text, forms)) + sum(signals)) / total


def asked_signals(
    question: str, answer: str, dates: Iterable[dt.date | None], window: tuple[dt.date | None, dt.date | None]
) -> list[bool]:
    """What a question asks for beyond its words, and whether the answer meets it (seed 002's key
    signals): the kind of answer ("who" → a person in `answer`) and the dates asked (a source dated
    inside the window)."""
    signals: list[bool] = []
    kind = answer_kind(question)
    if kind is not None:
        signals.append(holds(answer, kind))
    start, end = window
    if start is not None or end is not None:
        low, high = start or dt.date.min, end or dt.date.max
        signals.append(any(d is not None and low <= d <= high for d in dates))
    return signals


def support_score(share: float, calibrated_cosine: float) -> float:
    """The one support measure of an answer: lexical coverage and meaning, equally weighted."""
    return 0.5 * share + 0.5 * calibrated_cosine


def mentions(text: str, phrases: Iterable[str]) -> bool:
    """True when `text` writes one of `phrases` as words of its own (case and spacing insensitive).

    General case: a name is written as a word. "EPA" is not written by "department", "OPM" by
    "development" or "DOL" by "dollar"; a substring test finds every short name in every document.
    """
    pattern = _written(tuple(phrases))
    return pattern is not None and pattern.search(" ".join(text.lower().split())) is not None


@functools.lru_cache(maxsize=4096)
def _written(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for `phrases`, each bounded by a non-alphanumeric character or the text's ends."""
    flat = sorted({" ".join(p.lower().split()) for p in phrases} - {""}, key=len, reverse=True)
    if not flat:
        return None
    return re.compile(rf"(?<![^\W_])(?:{'|'.join(re.escape(p) for p in flat)})(?![^\W_])")


def passages_support(
    question: str,
    passages: Sequence[str],
    best_cosine: float,
    calibration: Calibration,
    signals: Sequence[bool] = (),
    forms: Forms | None = None,
) -> float:
    """The support measure of the top passages (title, section and text) before an answer exists."""
    if not passages:
        return 0.0
    text = " ".join(passages[:TOP_PASSAGES])
    share = term_share(required_terms(question, text), text, signals, forms)
    return support_score(share, calibration.calibrated(best_cosine))


def checked_missing(missing: Sequence[str], grade: float, terms: list[str], cited_text: str) -> list[str]:
    """The parts a model names as missing from an answer's sources that hold up against the text
    (general case: a model's claim is checked where it can be, as its citations are — a weak model
    echoes its prompt's example `"missing": ["..."]`, or names as missing what the sources say).

    A part is kept when it carries a word of the question and the cited text lacks it; a grade
    below partial support that names no such part is not a judgement (`ValueError`).
    """
    kept = []
    for part in missing:
        asked = list(found_terms(terms, part))
        if asked and len(found_terms(asked, cited_text)) < len(asked):
            kept.append(part)
    if grade < PARTIAL_GRADE and not kept:
        raise ValueError(f"graded {grade:g} without naming a part of the question the sources lack")
    return kept


PARTIAL_GRADE = 0.5
"""The reflection prompt's "partly supported": below it a grade must say what is missing."""

GROUNDED_SHARE = 0.8
"""The share of a model-written summary's content terms that must come from what the model was shown."""


def grounded(summary: str, shown: str) -> bool:
    """A model's summary states only what it was shown (general case: a conversation memory must not
    keep a fact nobody in the thread stated, e.g. a weak model "answering" what the documents did not).

    Every number and every capitalised name inside a sentence must occur in `shown`, and the summary's
    content terms carry `shown`'s words at the share the term measure of answers uses.
    """
    return names_known(summary, shown) and term_share(content_terms(summary), shown) >= GROUNDED_SHARE


def names_known(text: str, shown: str) -> bool:
    """Every number and every capitalised name inside a sentence of `text` occurs in `shown`."""
    known = {w.lower() for w in words(shown)}
    for sentence in split_sentences(text):
        tokens = words(sentence)
        named = [t for t in tokens[1:] if t[:1].isupper() or any(c.isdigit() for c in t)]
        if any(t.lower() not in known for t in named):
            return False
    return True


MIN_STATED = 2
"""Content words of a model's answer that its sources' text must carry: a statement, not a heading."""


def states_sources(answer: str, headings: Sequence[str], passages: Sequence[str]) -> str:
    """A model's answer that states what its sources say, or `ValueError` (general case: a weak
    model writes the source list back — "The source is: [1] Quarterly Report Q3 2025 (2025-10-28,
    Highlights)" — or a figure no source has, "The answer is: 2-4").

    Without the sources' headings (titles, sections, dates) the answer must name only numbers and
    names the sources have, and say at least `MIN_STATED` content words of their text.
    """
    body = MARK.sub(" ", answer)
    for heading in sorted({h for h in headings if h}, key=len, reverse=True):
        body = body.replace(heading, " ")
    text = " ".join(passages)
    if not names_known(body, " ".join([*headings, text])):
        raise ValueError("names a number or name its sources do not have")
    if len(found_terms(content_terms(body), text)) < MIN_STATED:
        raise ValueError("states nothing of its sources' text")
    return answer


def writes(text: str, name: Name) -> bool:
    """Whether `text` writes a name the question uses: in one of its forms, part by part ("Manager for Domestic
    Operations, System Open Market Account"), spelled out ("APP" in a title reading "Annual Performance Plan"), by
    the acronym of either order ("DOC" for "Commerce Department", `other_order`), led by a body's short form ("FOMC
    Vice Chairman"), or a person's by honorific and surname ("Ms. George")."""
    return (
        mentions(text, name.variants)
        or written_in_parts(text, name.text)
        or any(acronym_spelled(form, text) for form in (name.text, other_order(name.text)))
        or led_by_acronym(text, name.text)
        or by_honorific(text, name.text)
        or with_initials(text, name.text)
    )
