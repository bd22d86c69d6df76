"""What a document is, whom it is about and which period it covers, read from its own text and name.

Documents that differ only by who and when (a company's quarterly filings, an agency's yearly
reports, one protocol per trial) are the normal case of an organisation's documents. Each one is
described at ingestion by facets read from its cover, its text and its file name, never from
word lists of companies or agencies:

- title: the file's own title when it reads as words, else the cover's first heading line;
- kind: what the title says the document is, once names and periods are taken out of it;
- entities: the acronyms the document defines ("Office of Personnel Management (OPM)"), the names
  it writes most (capitalised where a sentence does not begin), and the codes in its file name
  ("AAPL", "DHS");
- identifiers: codes of capitals and digits on its cover (a registration "N5921D", a trial id);
- periods: the quarter, fiscal year, year or span its cover or file name states, in its own words;
- abbreviations: every short form its text defines, with the definition (to spell out in questions).

Each facet keeps where it was read ("file name", "metadata", "page 1", "text").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from core.knowledge import DocumentFacets, EntityFacet, IdentifierFacet, LoadedDocument, PeriodFacet
from core.text import ACRONYM, STOPWORDS, words
from core.understanding import MONTHS, quarters, read_date, years
from core.understanding.abbreviations import defined_abbreviations
from core.understanding.periods import (
    PERIOD_CODE,
    PERIOD_WORDS,
    fiscal_years,
    is_period_phrase,
    periods_ended,
    quarter_of,
    year_spans,
)

COVER_CHARS = 1500
HEADING_LINES = 5
"""A cover's spans of years count only in its first lines (its title block), not in its prose."""
"""How much of the first page is the cover: where a document states its title and period."""
MAX_ENTITIES = 6
MIN_MENTIONS = 3
MAX_IDENTIFIERS = 8
MAX_NAME_WORDS = 6
LOWER_SHARE = 0.1
"""A word is part of a name when the document writes it in lower case at most this often ("opm" in a
web address) for each time it writes the name: "Plan" and "Department" are words, "Apple" a name."""

# "Long Form Name (LFN)": an acronym defined in the text (after Schwartz & Hearst, 2003).
_DEFINITION = re.compile(
    r"((?:[A-Z][\w&.'’-]*,?\s+(?:(?:of|and|for|the|on|in|&)\s+)*){1,10})\(([A-Z][A-Za-z&.]{1,9})\)"
)
# A run of capitalised words inside a sentence (after a lower-case word or punctuation), joiners
# allowed: how English writes a proper name ("Department of Energy"), whatever the domain.
# A name word is a whole word: "COVID-19" holds no name "COVID-" (a word is not cut at a digit).
_NAME_WORD = r"[A-Z][A-Za-z&.'’-]+(?![\w-])"
_JOINER = r"(?:of|and|for|the|&)\s+"
_CAPITALISED = re.compile(rf"(?<=[a-z,;:] ){_NAME_WORD}(?:\s+(?:{_JOINER})?{_NAME_WORD})*")
# A code of capitals then digits ("N5921D", "K-900", "NCT04368728"): registrations, models, trials.
_IDENTIFIER = re.compile(r"\b[A-Z]{1,6}-?\d{2,}[A-Z\d-]*\b")
# File-name word boundaries: separators and letter/digit switches ("FY2016_APR" → FY, 2016, APR).
_SPLIT = re.compile(r"[\s_\-.]+|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
# A whole date in a file name (2024-01-10, 20240110): its year is not a period label on its own.
_FULL_DATE = re.compile(r"(?<!\d)\d{4}[-_.]\d{2}[-_.]\d{2}(?!\d)|(?<!\d)\d{8}(?!\d)")


def describe(loaded: LoadedDocument, file_name: str) -> DocumentFacets:
    """The facets of one loaded document; `file_name` is its name without folders."""
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    first = loaded.blocks[0] if loaded.blocks else None
    cover = first.text[:COVER_CHARS] if first else ""
    where = f"page {first.page}" if first and first.page else "text"
    text = "\n".join(block.text for block in loaded.blocks)
    own = reads_as_words(loaded.title)
    title = loaded.title if own else heading(cover) or loaded.title
    periods = _merge(
        _periods(stem, "file name"),
        _periods(loaded.title, "metadata", cover=True) if own else [],
        _periods(cover, where, cover=True),
    )
    entities = _entities(text, stem, title)
    named = _with_period(_with_name(title, entities), periods)
    entities = _codes_spelled(entities, " ".join(text.split()), " ".join(cover.split()))
    return DocumentFacets(
        title=named,
        kind=_kind(title, entities, periods),
        entities=entities,
        identifiers=[IdentifierFacet(value=v, source=where) for v in identifiers(cover)],
        periods=periods,
        abbreviations=defined_abbreviations(text),
    )


def reads_as_words(title: str) -> bool:
    """False for a title that is a code: one token without a lower-case letter, such as "DHS2020", an
    SEC accession number "0000320193-22-000070" or "OWS", which PDF metadata may hold; a heading of
    one word ("Fleet") or of several is the document's own title."""
    text = title.strip()
    return bool(text) and (any(ch.isspace() for ch in text) or any(ch.islower() for ch in text))


def heading(cover: str) -> str | None:
    """The cover's first line that reads as a title; a short one takes the next line with it
    ("UNITED STATES" / "SECURITIES AND EXCHANGE COMMISSION")."""
    lines = [" ".join(line.split()) for line in cover.splitlines() if line.strip()]
    for index, line in enumerate(lines[:12]):
        tokens = line.split()
        letters = sum(ch.isalpha() for ch in line)
        if (
            sum(1 for w in words(line) if w.isalpha() and len(w) > 1) < 2
            or len(tokens) > 14
            or letters < 0.6 * len(line.replace(" ", ""))
        ):
            continue
        if len(tokens) <= 3 and index + 1 < len(lines) and len(lines[index + 1].split()) <= 10:
            return f"{line} {lines[index + 1]}"
        return wrapped(line, lines[index + 1 : index + 1 + MAX_WRAPPED])
    return None


MAX_WRAPPED = 2
"""Lines a cover's title may wrap onto after its first."""
WRAPPED_WORDS = 2
"""A line this short after a title line is the title's end ("Plan", "2022-2026")."""
SHORT_TITLE_LINE = 10
"""A line of more words than this after a title is prose, not the title wrapping."""
_OPEN_MARK = ",:;|~–—-"


def wrapped(line: str, following: list[str]) -> str:
    """A cover's title line with the lines it wraps onto: while a line ends open (on a stop-word, a
    joining mark or a period word such as "FY") the next one continues it, and a line of a word or two
    after it ends the title.

    General case: a title set large wraps ("U.S. Department of Education FY 2022 Annual Performance"
    / "Plan"; "… U.S. Department of" / "State U.S. Agency for International Development"); its first
    line alone is a title cut short. The prose after the title is a line of many words; an address
    line ("Washington, D.C. 20549") after a complete title is not joined."""
    title = line
    for nxt in following:
        last = title.split()[-1]
        open_end = last.lower() in STOPWORDS or last.lower() in PERIOD_WORDS or last[-1] in _OPEN_MARK
        # The title's last word or two, capitalised or a year span: not a page number, not prose's tail.
        ends = len(nxt.split()) <= WRAPPED_WORDS and not nxt[0].islower() and not re.fullmatch(r"\d{1,3}", nxt)
        if len(nxt.split()) > SHORT_TITLE_LINE or not (open_end or ends):
            break
        title = f"{title} {nxt}"
    return title


def identifiers(cover: str) -> list[str]:
    """Codes of capitals and digits on the cover ("N5921D", "NCT04280705", "K-450"), first seen first;
    fiscal-year and quarter codes are periods, not identifiers."""
    found = [m for m in _IDENTIFIER.findall(cover) if not PERIOD_CODE.fullmatch(m)]
    return list(dict.fromkeys(found))[:MAX_IDENTIFIERS]


def periods_in(text: str) -> bool:
    """True when a text states a quarter, fiscal year or span of years."""
    flat = " ".join(text.split())
    return bool(quarters(flat) or fiscal_years(flat) or year_spans(flat))


def _periods(text: str, source: str, *, cover: bool = False) -> list[PeriodFacet]:
    """Quarter labels, fiscal years, spans of years and "period ended" dates a text states; a file
    name's bare year too, unless the name carries a full date (a dated document, found by its date)."""
    found: list[PeriodFacet] = []
    flat = " ".join(text.split())
    for quarter, year in quarters(flat):
        found.append(
            PeriodFacet(
                label=f"{year} Q{quarter}",
                kind="quarter",
                start_year=year,
                end_year=year,
                quarter=quarter,
                source=source,
            )
        )
    for label, first, last in fiscal_years(flat):
        kind = "fiscal_year" if first == last else "years"
        found.append(PeriodFacet(label=label, kind=kind, start_year=first, end_year=last, source=source))
    spans = " ".join(text.splitlines()[:HEADING_LINES]) if cover else flat
    for label, first, last in year_spans(spans):
        found.append(PeriodFacet(label=label, kind="years", start_year=first, end_year=last, source=source))
    for label, phrase in periods_ended(flat):
        if (date := read_date(phrase)) is not None:
            quarter, year = quarter_of(date)
            found.append(
                PeriodFacet(
                    label=label,
                    kind="period_end",
                    start_year=year,
                    end_year=year,
                    quarter=quarter,
                    end=date,
                    source=source,
                )
            )
    if not cover and not found and not _FULL_DATE.search(text):
        for year in years(" ".join(_SPLIT.split(text))):
            found.append(PeriodFacet(label=str(year), kind="year", start_year=year, end_year=year, source=source))
    return found


def _merge(*groups: list[PeriodFacet]) -> list[PeriodFacet]:
    """Periods from every source, each once (the first source's words kept); a bare year that a
    fiscal-year label of the same year also states is that fiscal year."""
    unique: dict[tuple[str, int, int, int | None], PeriodFacet] = {}
    for period in (p for group in groups for p in group):
        unique.setdefault((period.kind, period.start_year, period.end_year, period.quarter), period)
    fiscal = {p.start_year for p in unique.values() if p.kind == "fiscal_year"}
    return [p for p in unique.values() if not (p.kind == "year" and p.start_year in fiscal)]


def _with_period(title: str, periods: list[PeriodFacet]) -> str:
    """The title, followed by the period the document labels itself with when the title does not
    state one ("… — AAPL (2022 Q3)"), so that citations say which version they quote."""
    labelled = [p for p in periods if p.kind not in ("year", "period_end")]
    if not labelled or periods_in(title):
        return title
    return f"{title} ({labelled[0].label})"


def _with_name(title: str, entities: list[EntityFacet]) -> str:
    """The title, followed by the name its file name codes when the title does not say it
    ("Strategic Plan FY 2022 – 2026" in `HHS2022.pdf` → "… — Health and Human Services"): people
    name files by whom they are about. A name the text merely defines is not added: minutes define
    the committee that writes them, and a title carrying it would make every minute look "about" it."""
    named = [e for e in entities if e.source == "file name" or "file name" in e.aliases_from]
    if not named:
        return title
    top = named[0]
    lowered = f" {' '.join(words(title)).lower()} "
    return title if any(f" {form} " in lowered for form in top.forms()) else f"{title} — {top.name}"


def _entities(text: str, stem: str, title: str) -> list[EntityFacet]:
    """Acronyms defined in the text with their long forms, the names written most and those the
    title writes, the file name's codes.

    General case: the organisation a document is by is named in its title ("U.S. Department of
    Education FY 2022 Annual Performance Plan") and then called "the Department"; the offices and
    programmes it runs are written more often than its own name, which must not fall out. A title's
    word alone ("Department", "Plan") is no name."""
    flat = " ".join(text.split())
    acronyms = Counter(ACRONYM.findall(flat))
    lower = Counter(w for w in words(flat) if w.islower())
    entities: dict[str, EntityFacet] = {}
    for long_form, acronym in _DEFINITION.findall(flat):
        name = _spelled_by(long_form, acronym)
        if name and acronym.upper() not in entities and not is_period_phrase(name):
            mentions = acronyms[acronym] + flat.count(name)
            entities[acronym.upper()] = EntityFacet(name=name, aliases=[acronym], mentions=mentions, source="text")
    known = {form for e in entities.values() for form in e.forms()}
    for name, count in _names(flat).most_common(3 * MAX_ENTITIES):
        proper = any(lower[w.lower()] <= count * LOWER_SHARE for w in words(name) if w[:1].isupper())
        if name.lower() not in known and count >= MIN_MENTIONS and proper and not is_period_phrase(name):
            entities[name.upper()] = EntityFacet(name=name, mentions=count, source="text")
            known.add(name.lower())
    ranked = sorted(entities.values(), key=lambda e: -e.mentions)
    titled = f" {' '.join(words(title)).lower()} "
    ranked = ranked[:MAX_ENTITIES] + [
        e
        for e in ranked[MAX_ENTITIES:]
        if (e.aliases or len(e.name.split()) > 1) and any(f" {' '.join(words(f))} " in titled for f in e.forms())
    ]
    for code in _codes(stem):
        match = next((e for e in ranked if code.lower() in e.forms()), None)
        if match is None:
            ranked.append(EntityFacet(name=code, mentions=acronyms[code], source="file name"))
        else:
            match.aliases_from.append("file name")
    return ranked


_RUN = re.compile(rf"{_NAME_WORD}(?:\s+(?:{_JOINER})*{_NAME_WORD})*")
"""A run of capitalised words, small words inside allowed ("Department of the Interior"), wherever it
stands (a cover's title line), as `_CAPITALISED` reads them inside sentences."""


def _codes_spelled(entities: list[EntityFacet], flat: str, cover: str) -> list[EntityFacet]:
    """The file name's codes that no defined acronym spells, with the name the text or cover writes
    that spells them as an alias ("DOT2022.pdf", written "U.S. Department of Transportation Strategic
    Plan" → "Department of Transportation"). The title is set before, from the code alone.

    General case: people name files by an organisation's short form, which its own documents spell
    out without defining it; a question names the organisation either way."""
    if not any(entity.source == "file name" and not entity.aliases for entity in entities):
        return entities
    runs = Counter(_RUN.findall(flat)) + Counter(_RUN.findall(cover))
    out: list[EntityFacet] = []
    for entity in entities:
        if entity.source == "file name" and not entity.aliases:
            spelled: Counter[str] = Counter()
            for run, count in runs.items():
                for name in _spellings(run, entity.name):
                    spelled[name] += count
            if spelled:  # the form written most, as prose writes it (not in capitals) when there is one
                best = max(spelled, key=lambda name: (not name.isupper(), spelled[name]))
                entity = entity.model_copy(update={"aliases": [best]})
        out.append(entity)
    return out


def _spellings(run: str, code: str) -> set[str]:
    """The spans of a run of capitalised words whose words' initials, small words too or not, spell
    `code` ("Department of Labor" and "Health and Human Services"), from and to a capitalised word."""
    letters = [ch.lower() for ch in code if ch.isalpha()]
    tokens = re.sub(r"['’]s\b", "", run).split()
    found: set[str] = set()
    for start in range(len(tokens)):
        for end in range(start + 1, min(len(tokens), start + 2 * len(letters)) + 1):
            span = tokens[start:end]
            if not (span[0][:1].isupper() and span[-1][:1].isupper()):
                continue
            capitals = [t[0].lower() for t in span if t[:1].isupper()]
            every = [t[0].lower() for t in span]
            if letters in (capitals, every):
                found.add(" ".join(span))
    return found


def _spelled_by(long_form: str, acronym: str) -> str | None:
    """The shortest tail of `long_form` whose capitalised words spell `acronym` ("the Department of
    Homeland Security" → "Department of Homeland Security" for "DHS"), in the order written or, for a
    name "Y of X", in the order "X Y" ("U.S. Department of Education (ED)": the Education
    Department), or None.

    General case: English names an organisation both ways (`core.orchestrator.support.other_order`),
    and its short form may follow either."""
    letters = [ch.lower() for ch in acronym if ch.isupper()]
    tokens = long_form.replace(",", " ").split()
    for start in range(len(tokens) - 1, -1, -1):
        tail = tokens[start:]
        if not tail[0][:1].isupper():
            continue
        head, joiner, rest = " ".join(tail).partition(" of ")
        orders = [tail, [*rest.removeprefix("the ").split(), *head.split()]] if joiner else [tail]
        if any([t[0].lower() for t in order if t[:1].isupper()] == letters for order in orders):
            return " ".join(tail)
    return None


def _names(flat: str) -> Counter[str]:
    """Capitalised names written inside sentences (not sentence-initial), counted; function words,
    months and single letters are not names."""
    counts: Counter[str] = Counter()
    for run in _CAPITALISED.findall(flat):
        name = re.sub(r"['’]s$", "", run.rstrip(".'’,"))
        parts = name.split()
        if parts[0].lower() in STOPWORDS or parts[0].lower() in MONTHS or len(name) < 3 or len(parts) > MAX_NAME_WORDS:
            continue
        counts[name] += 1
    return counts


def _codes(stem: str) -> Iterable[str]:
    """Capital-letter codes in a file name ("2022 Q3 AAPL" → "AAPL", "DHS2020" → "DHS")."""
    for token in _SPLIT.split(stem):
        if ACRONYM.fullmatch(token) and not PERIOD_CODE.fullmatch(token):
            yield token


def _kind(title: str, entities: list[EntityFacet], periods: list[PeriodFacet]) -> str | None:
    """What the title says the document is, without its names and periods ("THE DHS STRATEGIC PLAN
    Fiscal Years 2020-2024" → "Strategic Plan")."""
    rest = title
    for period in periods:
        rest = rest.replace(period.label, " ")
    for label, _, _ in fiscal_years(rest) + year_spans(rest):
        rest = rest.replace(label, " ")
    forms = {form for e in entities if e.aliases or e.source == "file name" for form in e.forms()}
    kept = [
        w
        for w in words(rest)
        if w.lower() not in forms and w.lower() not in STOPWORDS and w.lower() not in PERIOD_WORDS and not w.isdigit()
    ]
    return " ".join(w.capitalize() if w.isupper() else w for w in kept) or None
