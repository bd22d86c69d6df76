"""Small text helpers shared by intake, segmentation, synthesis and reflection."""

from __future__ import annotations

import re
import unicodedata

import Stemmer
from nupunkt import sent_tokenize

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_SPACES = re.compile(r"[ \t\u00a0]+")
ACRONYM = re.compile(r"\b[A-Z][A-Z&]{1,7}\b")
"""A word in capitals ("OPM", "NASA", "AT&T"): how organisations are named in short."""
# Capitalised words in a row, with up to two of the small words title case leaves in lower case
# between them: articles, "and", "or" and short prepositions ("Board of Governors", "Department of the
# Treasury", "Individuals with Disabilities Education Act").
_NAME_RUN = re.compile(
    r"\b[A-Z][a-z]+(?:\s+(?:(?:of|and|or|for|the|an?|with|on|in|to|at|by|from)\s+){0,2}[A-Z][a-z]+)+"
)

# The core's one stop-list: words that carry no topic. Function words, greetings ("hey, what was
# …?"), and words that say how, when or from where to answer rather than what about ("list",
# "total", "latest", "how many", "per", "according to"), with the inflections of its verbs ("the
# display shows E04": "shows" is not what the manual must repeat): a question's content terms are
# its other words, and no source must repeat these.
STOPWORDS = frozenset(
    """
    a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own please same she
    should so some such than that the their theirs them then there these they this those through
    to too under until up very was we were what when where which while who whom whose why will with
    would might must shall ought cannot you your yours
    tell tells told show shows showed shown give gives gave find finds found know
    knows knew list get gets got gotten getting let want wants wanted need needs needed say says said
    anyone anybody someone somebody everyone everybody nobody
    anything something everything thing things much many ever every per according ok okay
    current currently latest newest recent recently today new old often year years yearly
    display name names item items total sum average mean count number spend spent
    explain describe summarise summarize
    hi hey hello thanks thank
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def normalize_text(text: str) -> str:
    """NFKC-normalise, unify whitespace and strip control characters."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


def words(text: str) -> list[str]:
    """The words of a text, in order, as written."""
    return _WORD.findall(text)


def word_spans(text: str) -> list[tuple[int, int]]:
    """Where each word of `words(text)` stands in `text`, as (start, end)."""
    return [m.span() for m in _WORD.finditer(text)]


def stems(tokens: list[str]) -> list[str]:
    """Snowball (Porter 2) stems, lower-cased: "dissenters" and "dissented" are both "dissent".

    The core's one stemmer: every comparison of words "up to inflection" goes through it.
    """
    return list(Stemmer.Stemmer("english").stemWords([t.lower() for t in tokens]))


def stem(word: str) -> str:
    """The Snowball stem of one word, lower-cased ("prices" and "priced" are both "price")."""
    return stems([word])[0]


def initials(text: str) -> set[str]:
    """The acronyms a text's capitalised names spell ("Federal Open Market Committee" → "fomc", "omc", …),
    with or without the small words inside them ("Bank of Japan" → "bj" and "boj": acronyms are
    written both ways, "DOL" for "Department of Labor", "FRBNY" for "Federal Reserve Bank of New York")."""
    found: set[str] = set()
    for run in _NAME_RUN.findall(text):
        names = run.split()
        capitals = [i for i, w in enumerate(names) if w[:1].isupper()]
        for a, i in enumerate(capitals):
            for j in capitals[a + 1 :]:
                found.add("".join(w[0].lower() for w in names[i : j + 1] if w[:1].isupper()))
                found.add("".join(w[0].lower() for w in names[i : j + 1]))
    return found


_VOWELS = frozenset("aeiouy")
MIN_CONTRACTION = 3


def contracts(short: str, word: str) -> bool:
    """True when `short` is `word` written without its vowels the way chat shortens a word: no
    vowel, at least `MIN_CONTRACTION` letters, the word's first and last letters, the rest in order
    ("stmt" for "statement", "mtg" for "meeting", "rpt" for "report"), or its plural ("stmts").

    General case: a message names what it asks about in a contraction its writer's readers know; the
    documents spell the word out. A word without vowels is seldom a word of its own."""
    short, word = short.lower(), word.lower()
    if short.endswith("s") and not word.endswith("s") and contracts(short[:-1], word):
        return True
    if len(short) < MIN_CONTRACTION or len(short) >= len(word) or not short.isalpha() or _VOWELS & set(short):
        return False
    if short[0] != word[0] or short[-1] != word[-1]:
        return False
    rest = iter(word[1:-1])
    return all(letter in rest for letter in short[1:-1])


_DOTTED = re.compile(r"\b(?:[A-Za-z]\.){2,}")


def dotted(text: str) -> set[str]:
    """The acronyms a text writes with dots, lower-cased without them: "U.S." is "us", "D.C." "dc".

    General case: "US territories" asks about what the text writes "five U.S. Territories"."""
    return {m.replace(".", "").lower() for m in _DOTTED.findall(text)}


_CLITIC = re.compile(r"(?:n['’]t|['’](?:s|d|re|ve|ll|m)|(?<=s)['’])$", re.IGNORECASE)


def without_clitic(word: str) -> str:
    """A word without its clitic: "OPM's" is "OPM", a plural's possessive "agencies'" is "agencies";
    a contraction is its first word ("couldn't" is "could", "where'd" "where")."""
    return _CLITIC.sub("", word)


def key_terms(text: str) -> list[str]:
    """Content words of a question, lower-cased and de-duplicated, in order."""
    seen: dict[str, None] = {}
    for word in words(text):
        bare = without_clitic(word)
        lowered = bare.lower()
        # Two letters are a word only as an acronym ("VA", "EU") or a number.
        short = len(lowered) < 3 and not lowered.isdigit() and not (bare.isupper() and len(bare) == 2)
        if lowered in STOPWORDS or short:
            continue
        seen.setdefault(lowered, None)
    return list(seen)


_UNIT_START = re.compile(r"^\s*([-*•+|#>]|\d+[.)]\s)")
_LABEL = r"[A-Z][\w()/&.'’-]*(?: [\w()/&.'’-]+){0,4}"
FIELD = re.compile(rf"^\s*{_LABEL}\s?:(?:\s+\S|(?=[A-Z]))")
"""A form's field on one line, "Registration: N5921D", "Aircraft Damage: Substantial": a label of at
most five words that starts with a capital, a colon, the value (after a space, or at once when it
starts with a capital: "Role:Secretary of Education" as a PDF extracts it). Forms, spec sheets and
receipts write one fact a line this way, and each line is a statement of its own."""
FIELD_LABEL = re.compile(rf"^\s*{_LABEL}\s?:\s*$")
"""A label alone on its line ("Registration:"), its value on the next line, as PDF forms lay them out."""
SHORT_FIELD_WORDS = 12
"""A field this short is one statement whatever its punctuation ("Gina Raimondo : U.S. Secretary of
Commerce" is not two sentences at "U.S.")."""


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences.

    Hard-wrapped lines of a paragraph are joined first; list items, table rows, headings, form
    fields ("Registration: N5921D") and labels ("Stakeholder(s):") start units of their own.
    Sentence boundaries come from nupunkt's Punkt model, which knows abbreviations and initials
    ("Mr. Poole", "Thomas M. Hoenig", "e.g.") from its training; a short field stays whole. An item's
    number that ends a sentence heads the next (`_labels_forward`).
    """
    units: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            units.append("")
        elif units and units[-1] and _continues(units[-1], line):
            units[-1] = f"{units[-1]} {line.strip()}"
        else:
            units.append(line.strip())
    sentences: list[str] = []
    for unit in units:
        unit = unit.lstrip("-*•+").strip()
        if unit and FIELD.match(unit) and len(unit.split()) <= SHORT_FIELD_WORDS:
            sentences.append(unit)
        elif unit:
            sentences.extend(part.strip() for part in sent_tokenize(unit) if isinstance(part, str) and part.strip())
    return _labels_forward(sentences)


_ITEM_LABEL = re.compile(r"^(.*?)\s*((?:[A-Z][\w-]*\s+)?\d{1,2}(?:\.\d{1,3}){2,}\.?)$", re.DOTALL)
"""A sentence that ends with an item's number of three levels or more, with the capitalised word before
it ("… early warning 1.1.2.", "… Actual Strategy 1.1.3.", "ETA 1.1.1.2.")."""


def _labels_forward(parts: list[str]) -> list[str]:
    """The sentences with each item label that ends one moved to the start of the next.

    General case: a plan's numbered items are headed by their number ("1.1.2. Supply Chains Increase
    the resilience …"); as a PDF extracts the page, the number's full stop reads as the end of the
    sentence before, so the number would be read as the previous item's. A figure with one decimal
    point ("rose to 1.36.") is no such number."""
    out = list(parts)
    for i in range(len(out) - 1):
        match = _ITEM_LABEL.match(out[i])
        if match:
            out[i], out[i + 1] = match[1], f"{match[2]} {out[i + 1]}"
    return [part for part in out if part]


def _continues(unit: str, line: str) -> bool:
    """True when `line` goes on with `unit`: a hard-wrapped line of prose, a field's wrapped value, the
    figures that follow a table's measure name ("Performance measure: …" then its row), or any line
    but a list item after a unit that stops mid-sentence (`unfinished`: "… standards against which" /
    "OPM conducted the assessment: (1) …" is one sentence, not a sentence and a field)."""
    if _UNIT_START.match(line) or _UNIT_START.match(unit):
        return False
    return unfinished(unit) or not (FIELD.match(line) or FIELD_LABEL.match(line))


CLOSING_MARKS = ".!?:;"
_NEVER_LAST = STOPWORDS & frozenset("a an the of to for with by from in into on at and or nor which whose".split())  # noqa: SIM905
"""The stop-list's articles, prepositions, conjunctions and relative pronouns: no sentence ends on one."""


def unfinished(text: str) -> bool:
    """True when `text` stops mid-sentence: it has no closing mark and its last word is a lower-case
    article, preposition, conjunction or relative pronoun (`_NEVER_LAST`).

    General case: a PDF's text comes line by line and a line may end anywhere in a sentence ("… five
    sections consistent with the" / "Human Capital Framework: (1) workforce demographics, …"); a line
    that ends on "of" or "which" goes on in the next, whatever that one starts with (a capitalised
    term, a label and colon, an id the PDF producer left)."""
    tail = text.rstrip()
    last = words(tail[-40:])[-1:]
    return bool(last) and tail[-1] not in CLOSING_MARKS and last[0] in _NEVER_LAST


def snippet(text: str, limit: int = 160) -> str:
    """A one-line excerpt of at most `limit` characters, cut at a word boundary."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


def normalize_label(label: str) -> str:
    """`unit_price_eur` and `Unit price (EUR)` compare equal."""
    return " ".join(label.lower().replace("_", " ").replace("(", " ").replace(")", " ").split())


LEADER = re.compile(r"\.{4,}|…{2,}|(?:\. ){4,}")
"""Leader dots, as a contents entry runs them from a heading to its page number ("Workforce ........ 27")."""
_WORDED = re.compile(r"[^\W\d_]")  # a letter of any script
MACHINE_ID = re.compile(
    r"(?<![\w-])_?[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}(?![\w-])|(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_\d+\b"
)
"""A UUID, as a PDF producer leaves object names in the text ("_a452994a-badb-11ec-b51f-cc2efa82ea00"),
or a template's numbered slot left unfilled ("PLACEHOLDER_59", capitals joined to a number by an
underscore): ids for machines, never words a reader is told."""


def contents_listing(text: str) -> bool:
    """True for a passage most of whose lines are contents entries (leader dots to a page number).

    General case: a report's table of contents names every heading, so it lies near in meaning to
    any question about the report, yet it points at answers and states none; as evidence it takes
    the places of the passages it points to. Where a chunk cut the contents, a line of numbering alone
    ("4.1.") is not counted, and a chunk of leader dots alone is a piece of an entry."""
    lines = [line for line in text.splitlines() if _WORDED.search(line)]
    if not lines:
        return LEADER.search(text) is not None
    return 2 * sum(1 for line in lines if LEADER.search(line)) > len(lines)
