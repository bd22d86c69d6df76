"""What kind of answer a question asks for, and whether a sentence holds one.

"Who dissented?" wants a person, "what was the rate cut to?" a quantity, "when does it take
effect?" a date, "why?" a reason. A sentence that holds the kind asked for is a better answer than
one that only talks about the same subject ("Voting for the action were …" beside "Voting against
was William Poole"). This is the classic answer-type step of extractive question answering; it
only ranks sentences, it never filters them.
"""

from __future__ import annotations

import re
from typing import Literal

from text_to_num import alpha2digit

from core.understanding.numerals import ITEM, NUMBER, RATE_UNITS, SCALE
from core.understanding.periods import MONTH, YEAR
from core.understanding.shares import states_share

AnswerKind = Literal["person", "quantity", "date", "reason"]

_PERSON_NOUNS = (
    r"person|people|member|members|president|presidents|governor|governors|official|officials|chair|chairman|"
    r"chairwoman|chairperson|manager|managers|contact|owner|employee|employees|director|directors|voter|voters|"
    r"dissenter|dissenters|author|authors|signatory|signatories|secretary|secretaries|administrator|commissioner|"
    r"officer|officers|counsel|head|leader|founder"
)
_QUANTITY_NOUNS = (
    r"rate|rates|range|target|level|price|prices|cost|costs|amount|amounts|pace|size|total|percentage|percent|"
    r"number|value|fee|fees|limit|width|height|weight|length|depth|power|capacity|salary|allowance|budget|"
    r"revenue|margin|balance|cap|threshold|yield|spread|figure|average|median|share|proportion|ratio|score|scores|"
    r"magnitude|reading|readings"
)
# The words between "what" and the noun it asks ("what baseline Career Satisfaction Index score"): a run
# of capitalised words is one name, one word however long (general case: organisations, measures and
# programmes have proper names of several words).
_MODIFIERS = r"(?:(?:(?:(?-i:[A-Z])[\w'’-]*\s+)+|[\w'’]+\s+)){0,3}"
_DATE_NOUNS = r"date|day|deadline|time|year|month"

# "How far", "how long": the adjective asks for a measure, it names no subject.
_HOW_MEASURE = re.compile(r"\bhow\s+(much|many|far|big|large|high|low|long|wide|tall|heavy|fast|often)\b", re.I)

# "What was George's reasoning?", "what reason do the minutes give?", "what was his objection?": the
# noun asks for a reason.
_REASON_NOUNS = r"reasons?|reasoning|rationale|justification|causes?|explanation|objections?"
# "What was the main reason", "what was part of the reason", "what caused …", "what was (partly) behind
# …", and a question that ends asking what something is owed to ("… put down to?", "… attributed to?").
_WHAT_REASON = re.compile(
    rf"\bwhat\s+(?:[\w'’-]+\s+){{0,4}}?({_REASON_NOUNS})\b"
    r"|\bwhat\s+(caused|drove|explains?|explained|(?:was|were|is|are|lay)\s+(?:[a-z]+ly\s+)?behind)\b"
    r"|\b(put\s+down|attributed|attributable|ascribed|due|owing|blamed)\s+(?:to|on)\s*\??\s*$"
    r"|\b(attribute|ascribe|owe)\b[^?]*\bto\s*\??\s*$",
    re.I,
)

# "What did most members agree …": after "what" and a verb, a person named is the subject, not what is
# asked; "what will it do for researchers who cannot travel?": a "who" after another question word is relative.
_AUXILIARY = r"(?:did|does|do|is|are|was|were|has|have|had|will|would|can|could|should|might|may)"

_QUESTION_KINDS: list[tuple[re.Pattern[str], AnswerKind]] = [
    (re.compile(rf"\bwhy\b|{_WHAT_REASON.pattern}|\bfor\s+what\s+reason\b", re.I), "reason"),
    (re.compile(rf"\bwhen\b|\b(?:what|which)\s+(?:{_DATE_NOUNS})\b|\bby\s+when\b", re.I), "date"),
    (
        re.compile(
            rf"(?:^|[.?!]\s)(?:(?!\b(?:what|which|how|where)\b)[^.?!])*?\bwho(?:m|se)?\b"
            rf"|\b(?:which|what)\s+(?:(?!{_AUXILIARY}\b)[\w'’]+\s+){{0,3}}(?:{_PERSON_NOUNS})\b",
            re.I,
        ),
        "person",
    ),
    (
        re.compile(
            _HOW_MEASURE.pattern + rf"|\b(?:what|which)\s+{_MODIFIERS}(?:{_QUANTITY_NOUNS})\b|\bwhat\s+%"
            r"|\b(?:to|at|by)\s+what\b|\bwhat\b.*\b(?:to|at)\s*\??$",
            re.I,
        ),
        "quantity",
    ),
]

_HONORIFIC = r"(?:Mr|Ms|Mrs|Dr|Messrs|Mmes|Prof)\.?"
_CAPITAL = r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?"
_PERSON = re.compile(
    rf"\b{_HONORIFIC}\s+{_CAPITAL}"  # Mr. Poole, Messrs. Hoenig
    rf"|\b{_CAPITAL}\s+(?:[A-Z]\.\s+)+{_CAPITAL}"  # Thomas M. Hoenig
    rf"|\b(?:Governor|President|Chairman|Chair|Vice\s+Chairman)\s+{_CAPITAL}"  # Governor Kohn
)
# "William Poole": two capitalised words inside a sentence, unless they name an organisation or a place.
_NAME_PAIR = re.compile(rf"(?<=[a-z,;:]\s)({_CAPITAL})\s+({_CAPITAL})\b")
# A signature or a form's field leads with the person and then says who they are: "Gina Raimondo :
# U.S. Secretary of Commerce", "Kiran Ahuja, Director", "Beth F. Cobert Acting Director".
_LEADING_NAME = re.compile(rf"^\s*({_CAPITAL})\s+(?:[A-Z]\.\s+)?({_CAPITAL})\s*[,:]")
_NOT_NAMES = frozenset(
    """
    federal reserve committee board bank banks market open governors government department treasury
    company corporation group inc ltd limited university office council policy national state states
    united american european new york street city county system services service agency authority
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_QUANTITY_WORD = re.compile(rf"\b(?:{RATE_UNITS}|{SCALE})\b|[%$€£¥]", re.I)
_DATE = re.compile(
    rf"\b(?:{MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}\s+(?:{MONTH})\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
    rf"|\b(?:{MONTH})\.?\s+{YEAR}\b|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)
_REASON = re.compile(
    r"\b(?:because|since|due\s+to|owing\s+to|in\s+view\s+of|in\s+light\s+of|reflect(?:s|ed|ing)?|so\s+that|"
    r"in\s+order\s+to|preferred|concerned|believed|judged|saw|given|as\s+a\s+result|reason|"
    r"attribut(?:ed|able)\s+to|result(?:ed|ing)?\s+(?:of|from)|stemm(?:ed|ing)\s+from|(?:driven|caused)\s+by)\b",
    re.I,
)
YEAR_ONLY = re.compile(rf"\b{YEAR}\b")


def measure_words(question: str) -> set[str]:
    """The words of a question that only ask for a measure or a reason ("far" in "how far was it
    lowered", "reasoning" in "what was Bullard's reasoning?"): a source answers them with a figure or
    a "because", not by repeating them."""
    asked = [m.group(1) for m in _HOW_MEASURE.finditer(question)]
    asked += [group for m in _WHAT_REASON.finditer(question) for group in m.groups() if group]
    return {word.lower() for phrase in asked for word in phrase.split()}


# A clause that sets the scene before the question proper: "When they cut to 1 percent in June 2003,
# did anyone vote against it?" asks who, not when; so after the source's heading that chat sets off
# with a dash or colon ("jul 1994 fomc minutes - when a meeting ends with no change, what did …").
_LEADING_CLAUSE = re.compile(
    r"^\s*(?:[^,?:]{1,60}?(?::|\s[-\u2013\u2014]+)\s+)?"
    r"(?:when|after|before|once|while|if|since|as|following)\b[^,?]*,\s*"
    r"(?=(?:who|whom|whose|what|which|when|where|why|how|did|does|do|is|are|was|were|has|have|had|can|could|will|would)\b)",
    re.IGNORECASE,
)


# A question word, after at most two words ("and to what level", "and in which year"), or an
# auxiliary right after "and" ("… in FY 2022 and did it meet the target?").
_WH = r"(?:who|whom|whose|what|which|when|where|why|how)"
_AUX = r"(?:did|does|do|is|are|was|were|has|have|had)"
_SECOND_ASK = re.compile(rf"\s*[,;]?\s+and\s+(?=(?:[a-z]+\s+){{0,2}}{_WH}\b|{_AUX}\b)|(?<=\?)\s+(?=\S)", re.IGNORECASE)
MIN_PART_WORDS = 2


def question_parts(question: str) -> list[str]:
    """The questions one message asks, in order; a single question is one part.

    General case: people ask two things at once ("How far did they cut, and who voted against?",
    "Who signed the message, and when?", "anyone dissent? what did they want?"). Each part asks for
    its own kind of answer and is answered by its own sentence. A part is split off only where a
    second question word or auxiliary opens it after "and", or after a question mark; nouns joined
    by "and" ("the target and the discount rate") stay one question."""
    parts = [p.strip(" ,;") for p in _SECOND_ASK.split(question)]
    parts = [p for p in parts if len(p.split()) >= MIN_PART_WORDS or answer_kind(p) is not None]
    return parts if len(parts) > 1 else [question]


# A noun heads what is asked when a verb, a preposition or the question's end follows it ("what budget
# does the plan give"; "which price index" asks for an index).
AFTER_HEAD = r"is|was|were|are|did|does|do|will|would|had|has|have|on|of|that|for|and"
_PREPOSITION = r"(?:to|for|of|in|on|at|by|with|from|into|about|besides|beyond|except)"
HEADS = rf"(?=\s*(?:[?,.;:(]|$|(?:{AFTER_HEAD}|in|to)\b))"
# "How much did it cost", "what did it cost", "what budget does …", "what was the estimated dollar cost
# of …", "… in dollars", "how much is the fee": an amount of money; a price after a preposition is
# not what is asked ("what was being added to base prices for …" asks what was added). "By how much" asks
# for a change and "how much of" for a part: a percentage answers either; so does "how much did
# costs go up": a verb of change after the costs asks how far they moved (`_CHANGE`).
_CHANGE = r"go|goes|went|gone|rise|rises|rose|risen|grow|grows|grew|grown|fall|falls|fell|fallen|climb(?:ed|s)?"
_CHANGE += r"|increase[sd]?|decrease[sd]?|decline[sd]?|drop(?:ped|s)?|change[sd]?|jump(?:ed|s)?"
# An auxiliary after the first word ends the noun "what" asks ("at what level can it track budget and
# spending?" asks for a level, not money); right after "what" it opens the noun ("what was the plan's
# budget?").
_ENDS_NOUN = rf"(?:{_AUXILIARY}|must)"
_MONEY_ASK = re.compile(
    r"(?<!\bby\s)\bhow\s+much\s+(?!of\b)[^?]*?\b(?:cost|costs|costing|spend|spends|spent|pay|pays|paid)\b"
    rf"(?![^?,;]*\b(?:{_CHANGE})\b)"
    r"|\bhow\s+much\s+(?:money|funding|cash)\b"
    r"|\bwhat\s+(?:did|does|do|will|would)\s+[^?]*?\bcost\b(?=\s*(?:[?,.;]|$|(?:per|each|in|to|for|the)\b))"
    rf"|\bwhat\s+(?:{_ENDS_NOUN}\s+)?(?:(?!(?:{_PREPOSITION}|{_ENDS_NOUN})\b)[\w'’-]+\s+){{0,5}}?(?:budget|cost|price|fee|salary|rent)s?\b{HEADS}"
    r"|\bin\s+(?:U\.?S\.?\s+)?(?:dollars|euros|pounds|yen)\b|\bhow\s+much\s+(?:is|was|are|were)\s+(?:the|a|its|their)\s+(?:[\w'’-]+\s+){0,2}?(?:fee|price|rent|salary|budget|cost)s?\b",
    re.I,
)
_AMOUNT = re.compile(
    rf"[$€£¥]\s*\d|\b(?:USD|EUR|GBP|JPY)\s*\d|{NUMBER.pattern}\s*(?:(?:{SCALE})\s+)?(?:dollars|euros|pounds|yen)\b",
    re.I,
)


# "What level …", "to what range …", "what new minimum fee …": the value of something, a figure. "Which
# rate" asks which one (an identity: "OBFR"), and a pace is a manner ("at a moderate pace"): neither is
# this; a share is asked and answered as one (`asks_share`: "one-third" answers "what percent").
_NOT_VALUES = {"pace", "share", "proportion", "percentage", "percent"}
_VALUE_NOUNS = "|".join(n for n in _QUANTITY_NOUNS.split("|") if n not in _NOT_VALUES)
# "What was the peak weekly claims figure?", "what is the new minimum fund size?": the verb and the
# article before the noun's own words are not among them; a preposition ends them ("what was the impact
# of the rate …" asks for an impact; "what besides higher rates weighed …" for something other than rates).
VALUE_GAP = (
    r"(?:(?:is|was|are|were)\s+)?(?:(?:the|its|their)\s+)?"
    rf"(?:(?:(?:(?-i:[A-Z])[\w'’-]*\s+)+|(?!{_PREPOSITION}\b)[\w'’-]+\s+)){{0,3}}?"
)
_CHANGED = r"(?:raised|lowered|cut|reduced|increased|decreased|lifted|trimmed|hiked|pushed|brought|capped)"
# "What level …", "to what range …": the noun asked, a group of its own (`asked_nouns`).
_WHAT_NOUN = (
    rf"\bwhat\s+{VALUE_GAP}({_VALUE_NOUNS})\b{HEADS}"
    rf"|\b(?:to|at)\s+what\s+(?:[\w'’-]+\s+){{0,2}}?({_VALUE_NOUNS})\b"
)
_VALUE_ASK = re.compile(
    rf"{_WHAT_NOUN}"
    rf"|\bwhat\s+(?:did|does|do|will|would|has|have|had)\b[^?]*?\b(?:{_VALUE_NOUNS})\s+to\s*\?"
    rf"|\bwhat\s+(?:is|was|are|were|has\s+been|had\s+been)\b[^?]*?\b{_CHANGED}\s+to\s*\?"
    r"|\bhow\s+(?:far|big|large|high|low|old)\b(?!\s+(?:a|an|the)\b)",
    re.I,
)


# "What limit did OPM remove?", "down to what level will EPA model emissions?": "what N" may ask which N,
# a kind named by its own words, as well as N's figure (`asked_nouns`).
_WHICH_ONE = re.compile(_WHAT_NOUN, re.I)


# Nouns that name nothing but a magnitude: "what number", "what total" asks for a figure only.
_MAGNITUDES = frozenset(
    {"number", "amount", "amounts", "total", "value", "figure", "size", "magnitude", "average", "median", "ratio"}
    | {"score", "scores", "reading", "readings"}
)


def asked_nouns(question: str) -> frozenset[str]:
    """The quantity nouns of a kind that a question asks with "what N …" or "to / at what N …",
    lower-cased: "limit" in "what limit did OPM remove?", "level" in "down to what level will EPA
    model emissions?"; not a magnitude's noun (`_MAGNITUDES`: "what's the FY 2026 target number of
    households?" asks for a figure, and "the total number of households" names none)."""
    found = (g.lower() for m in _WHICH_ONE.finditer(expanded(question)) for g in m.groups() if g)
    return frozenset(g for g in found if g not in _MAGNITUDES)


def asks_value(question: str) -> bool:
    """True when a question asks for the value of something ("to what level did it cut the rate?", "what did
    the law cut the tax rate to?", "what was the VIX reading?", "what was the consumption tax raised to?"),
    for its size ("how large was the package?", "how far had output fallen?") or an age ("how old?"): a figure."""
    return _VALUE_ASK.search(expanded(question)) is not None


# "Which bank …", "which parts supplier's workers …", "what was the candidate's name?": an organisation
# or a place is asked for by the noun of its kind, and answered by its proper name.
_NAMED_KINDS = (
    r"banks?|compan(?:y|ies)|firms?|unions?|suppliers?|manufacturers?|countr(?:y|ies)|agenc(?:y|ies)|institutions?|"
    r"insurers?|lenders?|dealers?|retailers?|developers?|vendors?|contractors?|corporations?|organi[sz]ations?|"
    r"universit(?:y|ies)|governments?|nations?|states?|cit(?:y|ies)|provinces?"
)
_NAME_ASK = re.compile(
    rf"\bwhich\s+(?:[\w'’-]+\s+){{0,2}}?({_NAMED_KINDS})(?![\w-])"
    r"|\bwhat\s+(?:was|is|were|are)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?(names?)\b|\b(name)\s+of\b",
    re.I,
)


def states_figure(text: str) -> bool:
    """True when `text` states a figure (`holds` a quantity), in digits or in words ("nine bots",
    "by about two-thirds"): the answer to "how large / to what level" written either way."""
    return holds(alpha2digit(text, "en"), "quantity") or states_share(text)


def asks_name(question: str) -> bool:
    """True when a question asks for the name of an organisation, a place or a person ("which bank was
    it?", "which union was party to the dispute?", "what was the candidate's name?")."""
    return _NAME_ASK.search(expanded(question)) is not None


def name_words(question: str) -> frozenset[str]:
    """The words with which a question asks for a name, lower-cased: the kind's noun ("bank" in "which
    bank acquired it?") and "name". The answer gives the name ("JPMorgan Chase acquired …"); it need
    not repeat the kind, and a sentence that only repeats it ("the Bank of Korea") names another."""
    return frozenset(group.lower() for m in _NAME_ASK.finditer(expanded(question)) for group in m.groups() if group)


def asks_money(question: str) -> bool:
    """True when a question asks for an amount of money ("how much did the move cost?", "what budget
    does the plan give X?", "the ceiling, in dollars", "how much money did it transfer?"), not just for
    some figure. "Which" picks one of
    a kind: "which input costs were they pointing to?" asks which costs (feed, fertiliser), not how
    much they were."""
    return _MONEY_ASK.search(expanded(question)) is not None


def states_money(text: str) -> bool:
    """True when `text` states an amount of money: a currency sign or code with a figure ("$4.2
    million", "USD 30"), or a figure in a currency's name ("600 billion dollars").

    General case: the answer to "how much did X cost" is an amount of money; a passage about X that
    gives a count or a percentage ("180 reports", "a 96.1 percent acceptance rate") says something
    else about X."""
    return _AMOUNT.search(alpha2digit(text, "en")) is not None


_WH_CONTRACTION = re.compile(r"\b(what|who|where|when|how|which)['’](s|re)\b", re.I)


def expanded(question: str) -> str:
    """The question with its question word's contraction written out: "what's" is "what is", "who're"
    "who are" (general case: a reader of a question's words reads them in full). The share and date
    asks read the question as written: a report's table writes a share's unit apart from its figure
    ("Percentage … 99"), which `states_share` does not read, and "what's the target percentage?"
    read as a share ask withheld such rows."""
    return _WH_CONTRACTION.sub(lambda m: f"{m[1]} {'are' if m[2].lower() == 're' else 'is'}", question)


# A "when" clause inside a question another question word opens ("Who was the CIO when the
# intrusions were found?", "how many cases were there when the work moved?") sets the scene and asks
# for nothing; "and when", "by when", "effective when?" and "about when …" ask.
_WHEN_CLAUSE = re.compile(
    r"(\b(?:who|whom|whose|what|which|how|why)\b[^?]*?)"
    r"(?<!\band)(?<!\bor)(?<!\bby)(?<!\babout)(?<!\beffective)(?<!,)\s+when\s+(?!\?)[^,?]*",
    re.I,
)


def answer_kind(question: str) -> AnswerKind | None:
    """The kind of answer a question asks for, or None when it asks for an explanation or a list.

    Read from the question proper: a leading clause that only sets the scene ("When the Committee
    adopted the statement in January 2012, did every member vote for it?") asks for nothing, and a
    second question in the message ("Which Director signed it, and on what date?") asks for its own
    kind (`question_parts`): the message's kind is its first question's. A word before the first
    "and" is no question ("ok and what was his reasoning?"); "what's" is "what is". So is a "when"
    clause inside the question ("Who was the CIO when the breach was found?" asks for a person).
    """
    question = expanded(question)
    question = _WHEN_CLAUSE.sub(r"\1", question, count=1)
    parts = _SECOND_ASK.split(_LEADING_CLAUSE.sub("", question, count=1))
    question = next((p for p in parts if len(p.split()) >= MIN_PART_WORDS), parts[0])
    for pattern, kind in _QUESTION_KINDS:
        if pattern.search(question):
            return kind
    return None


def holds(sentence: str, kind: AnswerKind | None, common: frozenset[str] = frozenset()) -> bool:
    """True when `sentence` contains an answer of `kind` (a name, a figure, a date, a reason).

    `common`: words the surrounding text writes in lower case. Two capitalised words are a person's
    name only when neither is one of them: "Given Name:" and "Contributing Programs:" lead fields,
    "became Acting Director" is a title, and the text writes "name", "programs" and "director"
    elsewhere; it never writes "gina" or "raimondo" (the test `core.ingest.facets` applies to a
    document's names)."""
    if kind is None:
        return False
    if kind == "person":
        pairs = [(a, b) for a, b in _NAME_PAIR.findall(sentence) + _LEADING_NAME.findall(sentence)]
        pairs = [(a, b) for a, b in pairs if not {a.lower(), b.lower()} & common]
        return bool(_PERSON.search(sentence)) or any(not {a.lower(), b.lower()} & _NOT_NAMES for a, b in pairs)
    if kind == "date":
        return bool(_DATE.search(sentence))
    if kind == "reason":
        return bool(_REASON.search(sentence))
    return bool(NUMBER.search(figures_only(sentence))) or bool(_QUANTITY_WORD.search(sentence))


def figures_only(text: str) -> str:
    """`text` with what holds digits but measures nothing blanked: years, days of the month ("in
    2008", "on March 3") and items' numbers (`ITEM`); the `NUMBER`s left are figures."""
    return _DATE.sub(" ", YEAR_ONLY.sub(" ", ITEM.sub(" ", text)))
