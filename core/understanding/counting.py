"""What a "how many" question counts, and whether a sentence writes a count of it.

"How many patent examiners?" is answered by a figure of patent examiners ("8,961 patent examiners"),
written the ways English writes a count; a passage about them that gives another figure answers
something else (`core.orchestrator.measures.gives_count`).
"""

from __future__ import annotations

import re

from text_to_num import alpha2digit

from core.text import STOPWORDS, stem, without_clitic
from core.understanding.answers import YEAR_ONLY
from core.understanding.asked_figures import SERIES_LABELS
from core.understanding.numerals import NUMBER, RATE_UNITS, SCALE

_HOW_MANY = re.compile(r"\bhow\s+many\s+", re.I)
_COUNTED_WORDS = 4
_WORD = r"[^\W\d_][\w'-]*"
# A figure and the words after it, a parenthesised short form among them ("22 Chief Human Capital
# Officers (CHCO) Council transmittals").
_COUNT = re.compile(rf"{NUMBER.pattern}(?:\s+(?:{SCALE}))?((?:[\s()]+{_WORD}){{1,5}})", re.I)
_NUMBER_OF = re.compile(rf"\bnumbers?\s+of((?:[\s()]+{_WORD}){{1,6}})", re.I)
# A count is a whole number, or a figure of thousands, millions or billions ("1.2 million"): a score
# of "0.6" after "the number of employees enrolled in quality plans" defines a measure, counts nothing;
# nor do a name's digits after a hyphen ("COVID-19").
_WHOLE = re.compile(
    rf"(?<![\w.:])(?<![^\W\d_]-)(?:\d[\d,]*\d|\d)(?![.,]?\d)(?![\w])|{NUMBER.pattern}\s*(?:{SCALE})\b", re.I
)
_MONEY = {"$": "dollar", "€": "euro", "£": "pound", "¥": "yen"}
# A form's field whose value is a figure: "Passenger Injuries: 2", "Enrolled Participants: 120".
_FIELD_COUNT = re.compile(rf"((?:{_WORD}\s+){{0,4}}{_WORD})\s*:\s*(?={NUMBER.pattern})")


# An ordinal that counts a run: "the 15th consecutive year", "a third straight meeting" (after text2num).
_RUN = re.compile(rf"\b\d+(?:st|nd|rd|th)\s+(?:consecutive|straight|successive)(?:\s+{_WORD}){{1,3}}", re.I)


# Stop-words that open what is counted rather than end it: "how many of the plans", "how many of its
# systems", "how many new cutters", "how many other agencies".
_COUNT_OPENERS = frozenset(
    {"of", "the", "its", "their", "our", "his", "her", "new", "other", "were", "are", "was", "is"}
)
# "Of the 1,328 elements …, how many were …": a partitive before "how many" names what it counts.
_PARTITIVE = re.compile(rf"\bof\s+(?:the|its|their|these|those)\s+(?:[a-z]+\s+)?{NUMBER.pattern}((?:\s+[a-z][\w-]*)+)")


_SCALES = re.compile(rf"(?:{SCALE}|hundred)s", re.I)


def counted(question: str) -> list[str]:
    """What a "how many" question counts, as words: "How many patent examiners does USPTO have?" →
    ["patent", "examiners"] (the words after "how many", up to the first stop-word).

    General case: a counted noun phrase may open with a determiner, "of", a copula or an adjective
    the stop-list holds ("how many of OPM's systems", "how many new cutters", "how many were payroll
    elements"); those are passed over. With nothing after it, a partitive before it says what is
    counted ("of the roughly 170 hiring authorities OPM reviewed, how many did it eliminate?").
    Anything else first ("how many more was that", "how many of them") leaves nothing counted.
    A scale that opens the phrase counts what follows its "of": "how many billions of dollars"
    counts dollars, "how many thousands of jobs" jobs (general case: a count asked in round
    figures)."""
    match = _HOW_MANY.search(question)
    if match is None:
        return []
    out: list[str] = []
    for word in re.findall(r"[^\W\d_][\w'’-]*", question[match.end() :]):
        bare = without_clitic(word)
        if not out and _SCALES.fullmatch(bare):
            continue
        if bare.lower() in STOPWORDS:
            if out or bare.lower() not in _COUNT_OPENERS:
                break
            continue
        out.append(bare)
        if len(out) == _COUNTED_WORDS:
            break
    if not out and (partitive := _PARTITIVE.search(question, 0, match.start())):
        nouns = partitive.group(partitive.lastindex or 0).split()
        out = nouns[: next((i for i, w in enumerate(nouns) if w in STOPWORDS), len(nouns))][:_COUNTED_WORDS]
    return out


def counts(sentence: str, nouns: set[str]) -> bool:
    """True when `sentence` writes a count of what is counted (`nouns`, stemmed).

    General case: the answer to "how many X" is a figure of X, written the ways English writes one:
    a number before X ("8,961 patent examiners", "approximately 47,000 employees", "nine Operating
    Administrations": number words are read by text2num), an amount of money for "how many
    dollars" ("$600 billion"), or a table or sentence naming "the number of X" beside its figure
    ("Number of users on the Federal Talent Dashboard … 1,209"), or a form's field whose label
    names X and whose value is a figure ("Passenger Injuries: 2"), or a run's place in order ("the
    15th consecutive year" says fifteen years in a row). A sentence about X that holds some other
    figure ("a 10 percent rise in examiner hiring") answers something else."""
    text = alpha2digit(sentence, "en", threshold=2)  # "two proposals" too; "one" is seldom a count
    if any(any(stem(w) in nouns for w in re.findall(_WORD, m.group(0))) for m in _RUN.finditer(text)):
        return True
    for match in _COUNT.finditer(text):
        if YEAR_ONLY.fullmatch(match.group(0).split()[0]) or _SHARE_AFTER.match(match.group(1)):
            continue  # "in 2022 employees received …"; "95 percent of customer requests" is a share
        if match.group(1).startswith(")"):
            continue  # "(2) provide executives with …": a list item's number counts nothing
        following = _phrase(re.findall(_WORD, match.group(1)))
        if any(stem(w) in nouns for w in following) or _spelled(nouns, following):
            return True
    if NUMBER.search(text) and any(stem(name) in nouns for sign, name in _MONEY.items() if sign in text):
        return True
    if any(stem(w) in nouns for match in _FIELD_COUNT.finditer(text) for w in re.findall(_WORD, match.group(1))):
        return True
    return any(
        any(stem(w) in nouns for w in re.findall(_WORD, match.group(1)))
        and _tallied(match.group(1), text[match.end() :])
        for match in _NUMBER_OF.finditer(text)
    )


def _phrase(words: list[str]) -> list[str]:
    """The noun phrase a figure opens, from the words after it: past the stop-words that open it ("120
    new field investigators", "seven of these projects"), up to the next one.

    General case: a figure counts the phrase it opens; a word after that phrase's end belongs to
    another ("nine leading practices with agencies" counts practices, not agencies; "three agencies to
    share hiring certifications" counts no certifications)."""
    start = next((i for i, w in enumerate(words) if w.lower() not in STOPWORDS), len(words))
    end = next((i for i in range(start, len(words)) if words[i].lower() in STOPWORDS), len(words))
    return words[start:end]


# A rate after a figure: "95 percent of customer requests" gives their share, not how many there were.
_SHARE_AFTER = re.compile(rf"\s*(?:{RATE_UNITS})\b", re.I)


# "The number of users of four dashboards": a figure right after the scope's preposition counts the
# scope. "Increased by 140 percent": a rate counts nothing.
_SCOPE = re.compile(r"\b(?:of|across|among)\s*$", re.I)
_RATE_AFTER = re.compile(rf"\s*(?:(?:{RATE_UNITS})\b|%)", re.I)


def _tallied(label: str, rest: str) -> bool:
    """True when the text after "the number of `label`" gives that number: a whole figure that is not
    a year or a rate, and not the figure that opens the rest right after a scope's preposition ("the
    number of users of four OPM dashboards … increased by 140 percent" gives no number of users).

    General case: "the number of X" is given by a figure beside it, in a sentence or a table row; a
    figure that counts what X is drawn from, or says by how much X changed, is not X's number."""
    rest = YEAR_ONLY.sub(" ", rest)
    figures = [m for m in _WHOLE.finditer(rest) if not _RATE_AFTER.match(rest, m.end())]
    if figures and _SCOPE.search(label) and not rest[: figures[0].start()].strip():
        figures = figures[1:]
    return bool(figures)


# Units of time: the calendar's and the clock's, a closed class.
_TIME_UNITS = ("second", "minute", "hour", "day", "week", "month", "decade")


def counts_unit(nouns: set[str]) -> bool:
    """True when what is counted (`nouns`, stemmed) is a unit of money or time ("how many dollars
    of funding", "how many days' notice"): a unit is counted only in itself, so only an amount of
    it answers, never a count of something else."""
    return any(stem(unit) in nouns for unit in (*_MONEY.values(), *_TIME_UNITS))


# What follows a figure that counts no thing: a rate ("4.2 percent") or a stretch of time ("three
# months", "a 50-year low").
_NOT_A_THING = re.compile(rf"\s*(?:{RATE_UNITS})\b|[\s-]+(?:{'|'.join(_TIME_UNITS)}|year)s?\b", re.I)


# A report's series labels: a figure a flattened table writes before one ("22 Actual Baseline",
# "390,350 Actual") stands beside its column's label, not before a thing it counts.
_SERIES_LABEL = re.compile(rf"(?:{SERIES_LABELS})s?$", re.I)


def counts_something(sentence: str, besides: frozenset[str] = frozenset()) -> bool:
    """True when `sentence` writes a figure of something ("420 subjects"; "Occupants: 3" is not:
    no word follows; "4.2 percent" is not: a rate counts nothing, nor does "three months": a
    duration measures time): a count of anything but `besides` (stemmed).

    General case: a question names other things than the one it counts ("how many users did the
    dashboard have?"); a figure of one of them ("four dashboards") counts that thing, not the
    one asked. What a figure counts is the last word of the noun phrase after it; a series label
    after it ("22 Actual Baseline" in a flattened table) counts nothing (`_SERIES_LABEL`), nor does
    a figure that is no whole number (`_WHOLE`: "18.2 Strategy" is a score)."""
    for match in _COUNT.finditer(alpha2digit(sentence, "en", threshold=2)):
        figure = match.group(0).split()[0]
        if YEAR_ONLY.fullmatch(figure) or _NOT_A_THING.match(match.group(0), len(figure)):
            continue
        phrase = re.match(rf"(?:\s+{_WORD})+", match.group(1))
        words = re.findall(_WORD, phrase.group(0)) if phrase else []
        nouns = words[: next((i for i, w in enumerate(words) if w.lower() in STOPWORDS), len(words))]
        if (nouns and _SERIES_LABEL.match(nouns[0])) or not _WHOLE.match(match.group(0)):
            continue  # "22 Actual": a column's label; "18.2 Strategy": a score, not a count
        if not nouns or stem(without_clitic(nouns[-1])) not in besides:
            return True
    return False


def _spelled(nouns: set[str], following: list[str]) -> bool:
    """True when the words after a figure spell a counted short form: "5,016 full-time equivalent
    employees" counts "FTEs" (the initials of the words and their hyphenated parts)."""
    initials = "".join(part[0] for w in following for part in w.split("-") if part).lower()
    forms = {form for n in nouns for form in (n, n.removesuffix("s"))}  # "ftes": the plural of "FTE"
    return any(MIN_SPELLED <= len(n) <= MAX_SPELLED and initials.startswith(n) for n in forms)


MIN_SPELLED, MAX_SPELLED = 3, 5
"""A counted word is read as a short form only at this length ("FTE", "LCA"): two letters spell too
much by chance, longer ones are words."""
